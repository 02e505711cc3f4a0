#!/usr/bin/env bash
# Builds the wheel as it is shipped: `maturin build` with the `wheel` profile
# (python/pyproject.toml: release, fat LTO, one codegen unit) and
# profile-guided optimization from a profile made here, from the code being
# built (docs/performance.md, "Profile-guided builds"). Arguments go to the
# last maturin build (e.g. `-o target/wheels`); MATURIN names the maturin to
# run (default: the one on PATH).
#
# 1. The wheel built with -Cprofile-generate (target/pgo/wheel-instrumented)
#    and installed into a venv of its own (target/pgo/wheel-venv);
# 2. python/pgo/train.py run with it on the training files of pgo/files.sh
#    (the fixtures, and the corpus's real MHTML saves when it is there; never
#    the benchmarks' pages), LINKBASE_PGO_ROUNDS times (default 5); with
#    LINKBASE_PGO_BENCH=1 the Rust side of python/bench/pages.py
#    (python/bench/rust_rewrite.rs) is built and trained so too, for that
#    benchmark (a profile finds a function by its symbol, and the example's
#    build names linkbase's functions otherwise than the wheel's);
# 3. the counts merged by the toolchain's llvm-profdata (pgo/llvm-profdata.sh:
#    rustup's llvm-tools, added when missing) into target/pgo/wheel.profdata;
# 4. the wheel built with -Cprofile-use of it (target/pgo/use).
#
# The module records the profile (linkbase._native._PGO_PROFILE: the first 16
# hex digits of its SHA-256; "" when built without one, as by `pip install
# ./python`); python/tests/test_installed.py checks CI's wheel has one.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${LINKBASE_PGO_ROUNDS:-5}
OUT=$PWD/target/pgo
RAW=$OUT/wheel-raw
MATURIN=${MATURIN:-maturin}
PROFDATA=$(pgo/llvm-profdata.sh)
# Read through a variable, not `mapfile < <(…)`: a failing pgo/files.sh
# then stops the build (set -e) instead of training on what it printed.
files=$(pgo/files.sh)
mapfile -t FILES <<<"$files"
if [ -z "$files" ] || [ "${#FILES[@]}" -lt 100 ]; then
  echo "$0: pgo/files.sh listed ${#FILES[@]} training files, not the fixtures' 100 or more" >&2
  exit 1
fi
generate="${RUSTFLAGS:+$RUSTFLAGS }-Cprofile-generate=$RAW"

echo "python/build-wheel.sh: 1/4 instrumented wheel (target/pgo/wheel-instrumented)" >&2
rm -rf "$OUT/wheel-instrumented/dist" "$OUT/wheel-venv"
CARGO_TARGET_DIR=$OUT/wheel-instrumented RUSTFLAGS="$generate" \
  "$MATURIN" build --quiet -m python/Cargo.toml -o "$OUT/wheel-instrumented/dist"
if [ "${LINKBASE_PGO_BENCH:-}" = 1 ]; then
  CARGO_TARGET_DIR=$OUT/wheel-instrumented RUSTFLAGS="$generate" \
    cargo build --quiet --profile wheel -p linkbase-python --example rust_rewrite
fi
python3 -m venv "$OUT/wheel-venv"
"$OUT/wheel-venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-index \
  "$OUT"/wheel-instrumented/dist/linkbase-*.whl
# The build's own scripts were instrumented too: only the training counts.
rm -rf "$RAW"

echo "python/build-wheel.sh: 2/4 training: ${#FILES[@]} files, $ROUNDS rounds" >&2
(cd "$OUT" && wheel-venv/bin/python "$OLDPWD/python/pgo/train.py" "$ROUNDS" "${FILES[@]}") >&2
if [ "${LINKBASE_PGO_BENCH:-}" = 1 ]; then
  for records in 0 1; do   # rust_rewrite ROUNDS RECORDS URL-PREFIX ROOT PAGE...
    "$OUT/wheel-instrumented/wheel/examples/rust_rewrite" "$ROUNDS" "$records" https://example.org/ / "${FILES[@]#/}" >/dev/null
  done
fi

echo "python/build-wheel.sh: 3/4 merging the counts (target/pgo/wheel.profdata)" >&2
"$PROFDATA" merge --sparse -o "$OUT/wheel.profdata" "$RAW"
LINKBASE_PGO_PROFILE=$(sha256sum "$OUT/wheel.profdata" | cut -c1-16)
export LINKBASE_PGO_PROFILE
{
  rustc -vV | sed -n -e 's/^release: /rustc /p' -e 's/^LLVM version: /LLVM /p'
  echo "profile $LINKBASE_PGO_PROFILE, rounds $ROUNDS, rust_rewrite trained: ${LINKBASE_PGO_BENCH:-0}"
  echo "training files (${#FILES[@]}):"
  printf '%s\n' "${FILES[@]}"
} > "$OUT/wheel-made-with.txt"

echo "python/build-wheel.sh: 4/4 the wheel with the profile (target/pgo/use)" >&2
export CARGO_TARGET_DIR=$OUT/use
export RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }-Cprofile-use=$OUT/wheel.profdata"
exec "$MATURIN" build -m python/Cargo.toml "$@"
