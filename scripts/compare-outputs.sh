#!/usr/bin/env bash
# scripts/compare-outputs.sh OLD_BIN NEW_BIN
#
# Runs two linkbase binaries over the same inputs and compares everything
# they write, byte for byte: standard output, standard error, exit status,
# written files and --report files. Exits 0 when every output is identical,
# 1 naming each difference, 2 on a usage or setup error.
#
# Inputs (see docs/architecture.md, "Checking that a change keeps behaviour"):
#   fixtures  every case under fixtures/ with its checked-in `args`, invoked
#             the way its runner in tests/ invokes it (same working folder,
#             same SOURCE_DATE_EPOCH for WARC), once as the test does and once
#             more with `--report`; the HTML cases also re-encoded as UTF-16LE
#             and UTF-16BE with a BOM (tests/fixtures/html.rs); the WARC cases also
#             through `explain`; fixtures/browser as one `-r` run.
#   corpus    every file of ../shared/corpus (as tests/fixtures/corpus.rs: --format
#             mime, once as it is and once with --url … --force), each with
#             --report; and the whole corpus as one `-r … -o DIR --report`.
#   pages     the 530 HTML pages of the Python 3.11 documentation (the cache
#             of benches/common/python_docs.rs: $LINKBASE_BENCH_CACHE, else
#             target/tmp/bench-pages; downloaded with `apt-get download
#             python3.11-doc` and `dpkg -x` when missing) with
#             `-r … --url-prefix … -o DIR --report FILE`, compared with diff -r.
#
# Deterministic: both binaries run in the same scratch folder (so paths in
# messages are equal), with SOURCE_DATE_EPOCH fixed and standard input empty;
# the only timing in any output, the rate at the end of the summary line
# ("… 3.1 MB at 45.2 MB/s"), is replaced by "(rate)" on standard error.
#
# Environment:
#   COMPARE_PARTS   which parts to run (default "fixtures corpus pages")
#   COMPARE_WORK    folder to keep the outputs in (default: a temporary one,
#                   removed when there is no difference)
#   LINKBASE_CORPUS the corpus folder (default ../shared/corpus beside the checkout)
set -euo pipefail

usage() {
    echo "usage: $0 OLD_BIN NEW_BIN" >&2
    exit 2
}
[ $# -eq 2 ] || usage
resolve_bin() {
    local bin=$1
    [ -x "$bin" ] || { echo "compare-outputs: $bin: not an executable" >&2; exit 2; }
    (cd "$(dirname "$bin")" && echo "$PWD/$(basename "$bin")")
}
OLD=$(resolve_bin "$1")
NEW=$(resolve_bin "$2")
REPO=$(cd "$(dirname "$0")/.." && pwd)
PARTS=${COMPARE_PARTS:-fixtures corpus pages}
CORPUS=${LINKBASE_CORPUS:-$REPO/../shared/corpus}
CACHE=${LINKBASE_BENCH_CACHE:-$REPO/target/tmp/bench-pages}
if [ -n "${COMPARE_WORK:-}" ]; then
    WORK=$COMPARE_WORK
    rm -rf "$WORK"
    mkdir -p "$WORK"
    KEEP=1
else
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/compare-outputs.XXXXXX")
    KEEP=0
fi
WORK=$(cd "$WORK" && pwd)
export SOURCE_DATE_EPOCH=1700000000
export LC_ALL=C
CASES=0

# run_one BIN SIDE NAME CWD ARGS...: run BIN in CWD with ARGS (where @RUN@
# stands for the scratch folder) and keep what it wrote in $WORK/SIDE/NAME.
run_one() {
    local bin=$1 side=$2 name=$3 cwd=$4
    shift 4
    local run=$WORK/run
    rm -rf "$run"
    mkdir -p "$run"
    local args=() a status=0
    for a in "$@"; do args+=("${a//@RUN@/$run}"); done
    (cd "$cwd" && exec "$bin" "${args[@]}") >"$run/stdout" 2>"$run/stderr" </dev/null || status=$?
    echo "$status" >"$run/status"
    sed -E -i 's#( at )[0-9.]+ (bytes|kB|MB|GB)/s$#\1(rate)/s#' "$run/stderr"
    local dest=$WORK/$side/$name
    mkdir -p "$(dirname "$dest")"
    mv "$run" "$dest"
}

# both NAME CWD ARGS...: one case, through both binaries.
both() {
    local name=$1
    shift
    run_one "$OLD" old "$name" "$@"
    run_one "$NEW" new "$name" "$@"
    CASES=$((CASES + 1))
}

# both_with_report NAME CWD ARGS...: the case NAME as it is, and again as
# NAME+report with `--report` (the report's file compared too).
both_with_report() {
    local name=$1
    shift
    both "$name" "$@"
    both "$name+report" "$@" --report @RUN@/report.jsonl
}

# The `args` file of a fixture: one argument a line, blank lines skipped.
read_args() {
    ARGS=()
    [ -f "$1/args" ] || return 0
    local line
    while IFS= read -r line || [ -n "$line" ]; do
        if [ -n "$line" ]; then ARGS+=("$line"); fi
    done <"$1/args"
}

fixtures() {
    local dir case input
    for dir in "$REPO"/fixtures/html/*/; do
        dir=${dir%/}
        case=$(basename "$dir")
        read_args "$dir"
        both_with_report "fixtures/html/$case" "$REPO" "${ARGS[@]}" "$dir/input.html"
        # tests/fixtures/html.rs: UTF-8 cases without --charset, re-encoded with a BOM.
        if ! grep -qx -- --charset "$dir/args" 2>/dev/null && iconv -f UTF-8 -t UTF-8 "$dir/input.html" >/dev/null 2>&1; then
            for enc in UTF-16LE UTF-16BE; do
                mkdir -p "$WORK/inputs/$enc/$case"
                input=$WORK/inputs/$enc/$case/input.html
                if [ $enc = UTF-16LE ]; then printf '\xff\xfe'; else printf '\xfe\xff'; fi >"$input"
                iconv -f UTF-8 -t $enc "$dir/input.html" >>"$input"
                both "fixtures/html-$enc/$case" "$REPO" "${ARGS[@]}" "$input"
            done
        fi
    done
    for dir in "$REPO"/fixtures/css/*/; do
        dir=${dir%/}
        case=$(basename "$dir")
        read_args "$dir"
        both_with_report "fixtures/css/$case" "$REPO" "${ARGS[@]}" "$dir/input.css"
    done
    for kind in mime:input.eml xhtml:input.xhtml; do
        for dir in "$REPO/fixtures/${kind%%:*}"/*/; do
            dir=${dir%/}
            case=$(basename "$dir")
            read_args "$dir"
            both_with_report "fixtures/${kind%%:*}/$case" "$dir" "${ARGS[@]}" "${kind#*:}"
        done
    done
    for dir in "$REPO"/fixtures/warc/*/; do
        dir=${dir%/}
        case=$(basename "$dir")
        read_args "$dir"
        for input in input.warc input.warc.gz input.warc.zst; do
            [ -f "$dir/$input" ] || continue
            local output=output${input#input}
            both_with_report "fixtures/warc/$case" "$dir" "${ARGS[@]}" "$input" -o "@RUN@/$output"
            both "fixtures/warc/$case+explain" "$dir" explain "$input"
        done
    done
    both "fixtures/browser" "$REPO" -r fixtures/browser --url-prefix http://127.0.0.1:8000/ -o @RUN@/out/ --report @RUN@/report.jsonl
}

corpus() {
    [ -d "$CORPUS" ] || { echo "compare-outputs: $CORPUS: no corpus (set LINKBASE_CORPUS)" >&2; exit 2; }
    local path rel format
    while IFS= read -r -d '' path; do
        rel=${path#"$CORPUS"/}
        case $rel in
            mime/*) format=(--format mime) ;;
            *) format=() ;;
        esac
        both "corpus/$rel/as-is" "$CORPUS" "${format[@]}" "$rel" --report @RUN@/report.jsonl
        both "corpus/$rel/url-force" "$CORPUS" "${format[@]}" --url https://corpus.example/dir/page.html --force "$rel" --report @RUN@/report.jsonl
    done < <(find "$CORPUS" -type f ! -name 'COPYING*' ! -name 'LICENSE*' ! -name '*.md' -print0 | sort -z)
    both "corpus/recursive" "$CORPUS" -r . -o @RUN@/out/ --report @RUN@/report.jsonl
}

pages() {
    local root=$CACHE/python3.11-doc/usr/share/doc/python3.11/html
    if [ ! -f "$root/index.html" ]; then
        echo "compare-outputs: fetching python3.11-doc into $CACHE/python3.11-doc" >&2
        mkdir -p "$CACHE/python3.11-doc/download"
        (cd "$CACHE/python3.11-doc/download" && apt-get download python3.11-doc) >&2 ||
            { echo "compare-outputs: apt-get download python3.11-doc failed (run apt-get update once)" >&2; exit 2; }
        dpkg -x "$CACHE"/python3.11-doc/download/python3.11-doc_*.deb "$CACHE/python3.11-doc"
    fi
    local count
    count=$(find "$root" -name '*.html' | wc -l)
    echo "compare-outputs: $count Python documentation pages in $root" >&2
    [ "$count" -gt 0 ] || { echo "compare-outputs: no pages in $root" >&2; exit 2; }
    both "pages/python3.11-doc" "$root" -r . --url-prefix https://docs.python.org/3.11/ -o @RUN@/out/ --report @RUN@/report.jsonl
}

for part in $PARTS; do
    case $part in
        fixtures | corpus | pages) "$part" ;;
        *) echo "compare-outputs: unknown part '$part' (fixtures, corpus, pages)" >&2; exit 2 ;;
    esac
done

# Compare: every file either side wrote, byte for byte.
# Symbolic links are compared as links (the documentation's mirror holds
# links to files outside it); a diff that fails (status 2) is a difference.
diff_status=0
differences=$(diff -rq --no-dereference "$WORK/old" "$WORK/new" 2>&1) || diff_status=$?
if [ $diff_status = 0 ] && [ -z "$differences" ]; then
    echo "compare-outputs: $CASES runs ($PARTS): no difference"
    [ $KEEP = 1 ] || rm -rf "$WORK"
    exit 0
fi
echo "compare-outputs: differences ($CASES runs; outputs kept in $WORK):"
while IFS= read -r line; do
    if [[ $line =~ ^Files\ (.*)\ and\ (.*)\ differ$ ]]; then
        old=${BASH_REMATCH[1]}
        new=${BASH_REMATCH[2]}
        echo "  ${old#"$WORK"/old/}: $(cmp "$old" "$new" 2>&1 | sed "s#$WORK/##g")"
        diff -u --label old --label new "$old" "$new" 2>/dev/null | head -12 | sed 's/^/      /' || true
    else
        echo "  ${line//$WORK\//}"
    fi
done <<<"$differences"
exit 1
