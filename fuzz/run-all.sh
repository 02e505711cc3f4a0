#!/usr/bin/env bash
# Run every fuzz target for $1 seconds (default 600), one after another, at
# the lowest priority. Findings land in fuzz/artifacts/<target>/.
set -u
cd "$(dirname "$0")"
seconds=${1:-600}
toolchain=${FUZZ_TOOLCHAIN:-+nightly}
for target in $(cargo $toolchain fuzz list); do
    mkdir -p "corpus/$target"
    seeds=()
    [ -d "seeds/$target" ] && seeds=("seeds/$target")
    echo "== $target (${seconds}s)"
    nice -n 19 cargo $toolchain fuzz run "$target" "corpus/$target" "${seeds[@]}" -- \
        -max_total_time="$seconds" -max_len=65536 -print_final_stats=1 2>&1 | tail -25
done
