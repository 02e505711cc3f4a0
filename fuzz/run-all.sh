#!/usr/bin/env bash
# Explore with the fuzz targets, one after another, at the lowest CPU
# priority: what a developer runs before a submission (docs/fuzzing.md,
# "Before a submission"). CI never explores: its fuzz gate replays the seeds
# (tests/integration/fuzz_regressions.rs, every_seed_passes_its_targets_check).
#
#   fuzz/run-all.sh [SECONDS] [TARGET...]     (default: 600 s, every target)
#   fuzz/run-all.sh smoke [TARGET...]          (before a submission: 60 s each)
#
# Uses the nightly toolchain (AddressSanitizer) when rustup has one, else the
# stable toolchain without a sanitizer (`-s none`); FUZZ_TOOLCHAIN=+name
# overrides. The corpus grows in fuzz/corpus/<target>/ (starting from the
# hand-written seeds in fuzz/seeds/<target>/); a finding is written to
# fuzz/artifacts/<target>/ and makes the script exit 1. Any other failure
# (no target listed, a build that fails, a target that exits without a
# finding's artifact) exits non-zero too, naming the step.
#
# The smoke mode gives each target SMOKE_SECONDS (default 60) from the seeds
# alone, in a fresh corpus it throws away. A finding is fixed (its input
# added to fuzz/seeds/<target>/, which CI replays) or reported before pushing.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
shift $(( $# > 0 ? 1 : 0 ))
smoke=
if [ "$seconds" = smoke ]; then
    smoke=1
    seconds=${SMOKE_SECONDS:-60}
fi

flags=()
if [ -n "${FUZZ_TOOLCHAIN:-}" ]; then
    toolchain=$FUZZ_TOOLCHAIN
elif rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    toolchain=+nightly
else
    toolchain=+stable
    flags=(-s none)
fi
if [ "$toolchain" != +nightly ] && [ ${#flags[@]} -eq 0 ]; then
    flags=(-s none)
fi

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    # Read into a variable first: a failing `cargo fuzz list` stops the
    # script here (set -e), and an empty list is an error, not "nothing to do".
    if ! listed=$(cargo "$toolchain" fuzz list); then
        echo "fuzz/run-all.sh: \`cargo $toolchain fuzz list\` failed (is cargo-fuzz installed? cargo install cargo-fuzz --locked)" >&2
        exit 1
    fi
    mapfile -t targets <<<"$listed"
    if [ -z "$listed" ] || [ ${#targets[@]} -eq 0 ]; then
        echo "fuzz/run-all.sh: \`cargo $toolchain fuzz list\` listed no target" >&2
        exit 1
    fi
fi

failed=()
for target in "${targets[@]}"; do
    if [ -n "$smoke" ]; then
        corpus=$(mktemp -d)
    else
        corpus=corpus/$target
        mkdir -p "$corpus"
    fi
    dirs=("$corpus")
    if [ -d "seeds/$target" ]; then
        dirs+=("seeds/$target")
    fi
    echo "== fuzz $target for ${seconds}s${smoke:+ from the seeds alone} ($toolchain ${flags[*]})"
    status=0
    nice -n 19 cargo "$toolchain" fuzz run "${flags[@]}" "$target" "${dirs[@]}" -- \
        -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2560 -max_len=65536 \
        -print_final_stats=1 > "fuzz-$target.log" 2>&1 || status=$?
    if [ -n "$smoke" ]; then rm -rf "$corpus"; fi
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done)|SUMMARY|panicked' "fuzz-$target.log" || tail -5 "fuzz-$target.log"
    if [ "$status" -ne 0 ]; then
        failed+=("$target")
    elif ! grep -q '^stat::number_of_executed_units: [1-9]' "fuzz-$target.log"; then
        # Exit 0 without a run count: the target never ran (a build or a
        # start-up that failed quietly); not a pass.
        echo "fuzz/run-all.sh: $target ran no input (see fuzz/fuzz-$target.log)" >&2
        failed+=("$target")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz targets that failed or found something: ${failed[*]} (see fuzz/fuzz-<target>.log and fuzz/artifacts/)"
    exit 1
fi
