#!/usr/bin/env bash
# Create (once) the Python venv of CI's WARC steps and install what a step
# needs into it. Idempotent: a requirement already satisfied is not fetched
# again. Usage: tests/interop/venv.sh VENV requirements.txt...
set -euo pipefail
venv=$1
shift
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
for requirements in "$@"; do
  # pip checks the pins itself; --quiet keeps CI's log short.
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
done
