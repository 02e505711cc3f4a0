#!/usr/bin/env bash
# Makes python/pgo/linkbase.profdata again: the profile the wheel is built
# with (python/build-wheel.sh; docs/performance.md, "The wheel is built with
# a profile"). Run it after a change to the parser or the rewriting and
# commit both files it writes. About 3 minutes on 2 cores.
#
# 1. The wheel itself, built by maturin as python/build-wheel.sh builds it
#    but with -Cprofile-generate (target/pgo/instrumented), installed into a
#    venv of its own (target/pgo/venv); and the Rust side of the benchmark
#    (python/bench/rust_rewrite.rs), built so too. A profile matches a
#    function by its symbol, and the wheel's build names linkbase's
#    functions differently from a cargo build's: each is trained itself.
# 2. python/pgo/train.py run with the wheel, and rust_rewrite, on real pages
#    nobody on the team wrote (the MHTML saves of ../shared/corpus/mime:
#    Chrome's saves of GitHub, Stack Overflow, MDN, Wikipedia, USA Today,
#    MarketWatch, Hacker News ...) and on the fixtures' HTML, XHTML, CSS and
#    messages. Never the pages of the benchmarks (python/bench/pages.py,
#    benches/pages.rs): a profile made on them would flatter the benchmark.
# 3. The counts merged by the toolchain's own llvm-profdata (rustup's
#    llvm-tools, installed here when missing: its LLVM is rustc's) into
#    python/pgo/linkbase.profdata; python/pgo/made-with.txt records the
#    compiler and the training files.
#
# LINKBASE_CORPUS names the corpus (default ../shared/corpus); MATURIN the
# maturin to run (default: the one on PATH).
set -euo pipefail
cd "$(dirname "$0")/../.."
CORPUS=${LINKBASE_CORPUS:-../shared/corpus}
ROUNDS=${LINKBASE_PGO_ROUNDS:-5}
[ -d "$CORPUS/mime" ] || { echo "profile.sh: no corpus at $CORPUS (LINKBASE_CORPUS names it)" >&2; exit 1; }

sysroot=$(rustc --print sysroot)
host=$(rustc -vV | sed -n 's/^host: //p')
PROFDATA=$sysroot/lib/rustlib/$host/bin/llvm-profdata
[ -x "$PROFDATA" ] || rustup component add llvm-tools
[ -x "$PROFDATA" ] || { echo "profile.sh: no llvm-profdata at $PROFDATA" >&2; exit 1; }

OUT=$PWD/target/pgo
RAW=$OUT/raw
rm -rf "$OUT/wheel-instrumented" "$OUT/venv"
CARGO_TARGET_DIR=$OUT/instrumented RUSTFLAGS="-Cprofile-generate=$RAW" \
  "${MATURIN:-maturin}" build --quiet -m python/Cargo.toml -o "$OUT/wheel-instrumented"
CARGO_TARGET_DIR=$OUT/instrumented RUSTFLAGS="-Cprofile-generate=$RAW" \
  cargo build --quiet --profile wheel -p linkbase-python --example rust_rewrite
python3 -m venv "$OUT/venv"
"$OUT/venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-index "$OUT"/wheel-instrumented/linkbase-*.whl
# The build's own scripts were instrumented too: only the training counts.
rm -rf "$RAW"

mapfile -t FILES < <(
  find "$CORPUS/mime" -type f \( -name '*.mhtml' -o -name '*.mht' \) | LC_ALL=C sort
  find fixtures -type f \( -name '*.html' -o -name '*.xhtml' -o -name '*.css' -o -name '*.eml' \) | LC_ALL=C sort
)
mapfile -t ABSOLUTE < <(realpath "${FILES[@]}")
(cd "$OUT" && venv/bin/python "$OLDPWD/python/pgo/train.py" "$ROUNDS" "${ABSOLUTE[@]}")
for records in 0 1; do   # rust_rewrite ROUNDS RECORDS URL-PREFIX ROOT PAGE...
  "$OUT/instrumented/wheel/examples/rust_rewrite" "$ROUNDS" "$records" https://example.org/ / "${ABSOLUTE[@]#/}" >/dev/null
done
"$PROFDATA" merge --sparse -o python/pgo/linkbase.profdata "$RAW"

{
  echo "# python/pgo/linkbase.profdata: made by python/pgo/profile.sh"
  rustc -vV | sed -n -e 's/^release: /rustc /p' -e 's/^LLVM version: /LLVM /p'
  echo "rounds $ROUNDS"
  echo "training files (${#FILES[@]}), sizes in bytes:"
  for f in "${FILES[@]}"; do echo "$(stat -c %s "$f") ${f#"$CORPUS/"}"; done
} > python/pgo/made-with.txt
echo "python/pgo/linkbase.profdata: $(stat -c %s python/pgo/linkbase.profdata) bytes from ${#FILES[@]} files"
