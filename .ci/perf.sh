#!/usr/bin/env bash
# CI's speed checks (issue 33; docs/performance.md, "The regression guard"
# and "Profile-guided builds"):
#
# 1. The regression guard: the instructions the bench build of `linkbase`
#    runs on the page, MIME and WARC workloads (benches/instructions.rs,
#    valgrind's callgrind) against the committed baseline
#    benches/instructions.txt, 1% either way. Instruction counts do not
#    depend on the load, so this cannot be fooled by a busy machine; a
#    deliberate change of speed is recorded with scripts/instructions-baseline.sh
#    and committed with its reason.
# 2. The command line's profile-guided build (pgo/build-cli.sh: instrumented
#    build, training on pgo/files.sh's files, the optimized build) works, and
#    its binary writes exactly what the plain release binary writes on every
#    fixture (scripts/compare-outputs.sh, fixtures part). The release binary
#    is LINKBASE_RELEASE_BIN when given (.ci/run: the one `cargo install`
#    built in the README step, from a clone of HEAD), else built here; the
#    PGO binary is LINKBASE_PGO_BIN when given (.ci/run: pgo/build-cli.sh
#    run in the background from before the offline-browser step, issue 43),
#    else built here by pgo/build-cli.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v valgrind >/dev/null 2>&1; then
  echo "== apt-get install valgrind (for benches/instructions.rs)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends valgrind
fi

echo "== the regression guard: instruction counts against benches/instructions.txt"
cargo bench --bench instructions

pgo=${LINKBASE_PGO_BIN:-}
if [ -z "$pgo" ]; then
  echo "== the binary with profile-guided optimization (pgo/build-cli.sh)"
  pgo=$(pgo/build-cli.sh)
elif [ ! -x "$pgo" ]; then
  echo "error: LINKBASE_PGO_BIN=$pgo is not an executable file" >&2
  exit 1
fi
release=${LINKBASE_RELEASE_BIN:-}
if [ -z "$release" ]; then
  cargo build --release --quiet --bin linkbase
  release=target/release/linkbase
elif [ ! -x "$release" ]; then
  echo "error: LINKBASE_RELEASE_BIN=$release is not an executable file" >&2
  exit 1
fi
echo "== the PGO binary writes what the release binary ($release) writes (scripts/compare-outputs.sh, fixtures)"
COMPARE_PARTS=fixtures scripts/compare-outputs.sh "$release" "$pgo"
