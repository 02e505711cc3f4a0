#!/usr/bin/env bash
# Records the regression guard's baseline, benches/instructions.txt: the
# instructions the bench build of `linkbase` runs on each workload of
# benches/instructions.rs (callgrind), with this rustc. Run it when a change
# makes linkbase deliberately slower or faster, or after a compiler update,
# and commit the file with the reason and the figures (before -> after) in
# the commit message; CI (.ci/perf.sh) fails while the counts and the
# baseline differ by more than its tolerance.
set -euo pipefail
cd "$(dirname "$0")/.."
before=$(grep -v '^#' benches/instructions.txt 2>/dev/null || true)
LINKBASE_INSTRUCTIONS_UPDATE=1 cargo bench --bench instructions
echo "before:"
echo "${before:-  (none)}"
git --no-pager diff --stat -- benches/instructions.txt || true
