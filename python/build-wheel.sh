#!/usr/bin/env bash
# Builds the wheel as it is shipped: `maturin build` with the `wheel` profile
# (python/pyproject.toml) and the profile-guided optimization of
# python/pgo/linkbase.profdata (docs/performance.md, "The wheel is built with
# a profile"). Arguments go to maturin (e.g. `-o target/wheels`); MATURIN
# names the maturin to run (default: the one on PATH). Its own target folder,
# target/pgo/use, keeps these flags from rebuilding the rest.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=$(python/pgo/rustflags.sh)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target/pgo/use}
export RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }$flags"
# Recorded in the module (linkbase._native._PGO_PROFILE) for the tests and
# the benchmark to see which profile, if any, the wheel was built with.
if [ -n "$flags" ]; then
  LINKBASE_PGO_PROFILE=$(sha256sum python/pgo/linkbase.profdata | cut -c1-16)
  export LINKBASE_PGO_PROFILE
fi
exec "${MATURIN:-maturin}" build -m python/Cargo.toml "$@"
