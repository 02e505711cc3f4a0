#!/usr/bin/env bash
# Builds the `linkbase` binary with profile-guided optimization (PGO), the
# way the Python wheel is built (python/build-wheel.sh): the fastest build of
# the command line (docs/performance.md, "Profile-guided builds").
#
#   pgo/build-cli.sh        # then: target/pgo/cli/release/linkbase
#   cp target/pgo/cli/release/linkbase ~/.cargo/bin/   # to install it
#
# 1. `cargo build --release --bin linkbase` with -Cprofile-generate, in its
#    own target folder (target/pgo/cli-instrumented);
# 2. that binary run on every training file of pgo/files.sh (the wheel's
#    set: the fixtures, and the corpus's real MHTML saves when it is there),
#    LINKBASE_PGO_ROUNDS times (default 5), as a user runs it: `linkbase -q
#    --url URL -o OUT FILE`, then the same with `--report`;
# 3. the counts merged by the toolchain's llvm-profdata (pgo/llvm-profdata.sh:
#    rustup's llvm-tools, added when missing) into target/pgo/cli.profdata;
# 4. `cargo build --release --bin linkbase` with -Cprofile-use of it
#    (target/pgo/cli): the same code as a release build, laid out and
#    inlined by how often each branch was taken.
#
# Nothing is committed: the profile is made from the code being built, so
# it is never stale. About 7 minutes on 2 cores (two release builds with fat
# LTO and the training). Arguments go to the last `cargo build`.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${LINKBASE_PGO_ROUNDS:-5}
OUT=$PWD/target/pgo
RAW=$OUT/cli-raw
PROFDATA=$(pgo/llvm-profdata.sh)
# Read through a variable, not `mapfile < <(…)`: a failing pgo/files.sh
# then stops the build (set -e) instead of training on what it printed.
files=$(pgo/files.sh)
mapfile -t FILES <<<"$files"
if [ -z "$files" ] || [ "${#FILES[@]}" -lt 100 ]; then
  echo "$0: pgo/files.sh listed ${#FILES[@]} training files, not the fixtures' 100 or more" >&2
  exit 1
fi

echo "pgo/build-cli.sh: 1/4 instrumented build (target/pgo/cli-instrumented)" >&2
CARGO_TARGET_DIR=$OUT/cli-instrumented RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }-Cprofile-generate=$RAW" \
  cargo build --quiet --release --bin linkbase
rm -rf "$RAW"
mkdir -p "$RAW"

echo "pgo/build-cli.sh: 2/4 training: ${#FILES[@]} files, $ROUNDS rounds" >&2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# %m: one raw file per binary, merged as each process ends.
export LLVM_PROFILE_FILE=$RAW/cli-%m.profraw
for ((round = 0; round < ROUNDS; round++)); do
  for file in "${FILES[@]}"; do
    # The file's name as a URL holds it (fixtures/offline/site has spaces).
    name=${file##*/}
    url="https://example.org/${name// /%20}"
    # Exit 1 (a link that does not resolve, a skipped part) is part of the
    # training; only a crash or a usage error stops it.
    for report in "" "--report=$scratch/report.jsonl"; do
      status=0
      "$OUT/cli-instrumented/release/linkbase" -q --url "$url" ${report:+"$report"} \
        -o "$scratch/out" "$file" </dev/null >/dev/null 2>&1 || status=$?
      if [ "$status" -gt 1 ]; then
        echo "pgo/build-cli.sh: training: linkbase exited $status on $file" >&2
        exit 1
      fi
      rm -f "$scratch/out"
    done
  done
done
unset LLVM_PROFILE_FILE

echo "pgo/build-cli.sh: 3/4 merging the counts (target/pgo/cli.profdata)" >&2
"$PROFDATA" merge --sparse -o "$OUT/cli.profdata" "$RAW"

echo "pgo/build-cli.sh: 4/4 the optimized build (target/pgo/cli)" >&2
CARGO_TARGET_DIR=$OUT/cli RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }-Cprofile-use=$OUT/cli.profdata" \
  cargo build --quiet --release --bin linkbase "$@"
echo "$OUT/cli/release/linkbase"
