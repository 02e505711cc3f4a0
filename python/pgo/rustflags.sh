#!/usr/bin/env bash
# Prints the compiler flags that build with python/pgo/linkbase.profdata
# (for RUSTFLAGS; python/build-wheel.sh and python/bench/pages.py use it), or
# nothing, with the reason on stderr, when this rustc is not the one that
# made the profile (made-with.txt): another rustc names the functions
# otherwise, so the profile would match none of them (or its LLVM could not
# read it). Functions changed since the profile was made are compiled as
# without one, and rustc warns of each ("function control flow change
# detected (hash mismatch)"): .ci/run fails then.
set -euo pipefail
dir=$(cd "$(dirname "$0")" && pwd)
made=$(sed -n 's/^rustc //p' "$dir/made-with.txt")
here=$(rustc -vV | sed -n 's/^release: //p')
if [ "$here" != "$made" ]; then
  echo "python/pgo: the profile was made with rustc $made, this is rustc ${here:-?}: built without it (python/pgo/profile.sh makes it again)" >&2
  exit 0
fi
echo "-Cprofile-use=$dir/linkbase.profdata"
