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
#
#   fuzz/run-all.sh smoke [TARGET...]          (CI's smoke run)
#
# The smoke run gives each target SMOKE_SECONDS (default 60) from the seeds
# alone, in a fresh corpus it throws away, so that every smoke run starts from
# the same inputs whatever earlier runs left in fuzz/corpus/.
set -uo pipefail
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
    mapfile -t targets < <(cargo "$toolchain" fuzz list)
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
    [ -d "seeds/$target" ] && dirs+=("seeds/$target")
    echo "== fuzz $target for ${seconds}s${smoke:+ from the seeds alone} ($toolchain ${flags[*]})"
    if ! nice -n 19 cargo "$toolchain" fuzz run "${flags[@]}" "$target" "${dirs[@]}" -- \
        -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2560 -max_len=65536 \
        -print_final_stats=1 > "fuzz-$target.log" 2>&1; then
        failed+=("$target")
    fi
    [ -n "$smoke" ] && rm -rf "$corpus"
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done)|SUMMARY|panicked' "fuzz-$target.log" || tail -5 "fuzz-$target.log"
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz targets with findings: ${failed[*]} (see fuzz/fuzz-<target>.log and fuzz/artifacts/)"
    exit 1
fi
