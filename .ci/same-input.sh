#!/usr/bin/env bash
# The same input through the command line, the Rust library and the Python
# wheel (issue 30): tests/fixtures/same_input.rs again, now with its Python leg —
# python/tests/same_input.py run by the interpreter given as $1, whose
# `linkbase` is the wheel CI built and installed (.ci/run's Python step).
# `cargo test` ran the file before, without that leg (no wheel yet); here the
# trial "python: the wheel ran every case" must pass, not be ignored.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${1:?usage: .ci/same-input.sh PYTHON (the venv interpreter with the wheel installed)}
# Made absolute (not resolved: a venv's python is a link that must stay one),
# since the check below runs from another folder.
case $PYTHON in /*) ;; *) PYTHON=$PWD/$PYTHON ;; esac
# The wheel, not python/linkbase of the checkout: same_input.py runs from a
# folder of its own; say which one it is.
(cd / && "$PYTHON" -c 'import linkbase; print("same-input: linkbase", linkbase.__version__, "from", linkbase.__file__)')
LINKBASE_PYTHON="$PYTHON" cargo test --quiet --test fixtures -- --include-ignored '[same_input]'
