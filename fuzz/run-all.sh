#!/usr/bin/env bash
# Run the fuzz targets, one after another, at the lowest CPU priority.
#
#   fuzz/run-all.sh [SECONDS] [TARGET...]     (default: 600 s, every target)
#
# Uses the nightly toolchain (AddressSanitizer) when rustup has one, else the
# stable toolchain without a sanitizer (`-s none`); FUZZ_TOOLCHAIN=+name
# overrides. The corpus grows in fuzz/corpus/<target>/ (starting from the
# hand-written seeds in fuzz/seeds/<target>/); a finding is written to
# fuzz/artifacts/<target>/ and makes the script exit 1.
set -uo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
shift $(( $# > 0 ? 1 : 0 ))

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
    mapfile -t targets < <(cargo "$toolchain" fuzz list)
fi

failed=()
for target in "${targets[@]}"; do
    mkdir -p "corpus/$target"
    dirs=("corpus/$target")
    [ -d "seeds/$target" ] && dirs+=("seeds/$target")
    echo "== fuzz $target for ${seconds}s ($toolchain ${flags[*]})"
    if ! nice -n 19 cargo "$toolchain" fuzz run "${flags[@]}" "$target" "${dirs[@]}" -- \
        -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2560 -max_len=65536 \
        -print_final_stats=1 > "fuzz-$target.log" 2>&1; then
        failed+=("$target")
    fi
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done)|SUMMARY|panicked' "fuzz-$target.log" || tail -5 "fuzz-$target.log"
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz targets with findings: ${failed[*]} (see fuzz/fuzz-<target>.log and fuzz/artifacts/)"
    exit 1
fi
