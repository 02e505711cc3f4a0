#!/usr/bin/env bash
# The Python step's wheel, as shipped (issue 43: run by .ci/run in the
# background from before the offline-browser step; the python step waits
# for it, installs it and runs the tests):
#
#   .ci/python-wheel.sh VENV WHEELS
#
# VENV is made fresh (maturin, pytest, warcio and FastWARC pinned in
# python/requirements-ci.txt) and WHEELS emptied; python/build-wheel.sh then
# builds the wheel with profile-guided optimization, the profile made there
# from the code being built (an instrumented wheel trained on pgo/files.sh's
# files: the fixtures and ../shared/corpus's MHTML saves; docs/performance.md,
# "Profile-guided builds"; test_installed.py checks the wheel has a profile),
# with VENV's maturin, into WHEELS. Nothing is committed, so nothing can be
# stale. Its own target folders (target/pgo/wheel-instrumented,
# target/pgo/use): two wheel builds and the training.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# != 2 ]; then
  echo "usage: $0 VENV WHEELS" >&2
  exit 2
fi
venv=$1
wheels=$2
rm -rf "$venv" "$wheels"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check -r python/requirements-ci.txt
MATURIN="$venv/bin/maturin" python/build-wheel.sh -o "$wheels"
