#!/usr/bin/env bash
# The three-host site in headless Chromium with the network cut (issue 41):
#   tests/offline/threehost.sh LINKBASE WORK
# fixtures/offline/threehost served on 127.0.0.1, 127.0.0.2 and 127.0.0.3
# (one port), crawled by tests/offline/crawl-threehost.sh (wget mirror and
# its WARC, wget -k, httrack), packed into a WACZ by py-wacz ($WACZ_VENV,
# tests/offline/requirements-wacz.txt), and made offline by LINKBASE:
#   linkbase-mirror   linkbase offline mirror --url-prefix http://127.0.0.1:PORT/ --wget-log mirror.log -o
#   linkbase-warc     linkbase offline crawl.warc.gz -o (twice: the same bytes)
#   linkbase-wacz     linkbase offline crawl.wacz -o (the WARC's files)
#   linkbase-httrack  linkbase offline httrack --layout plain --url-prefix http://httrack.invalid/
#                       --httrack-cache httrack/hts-cache/new.txt -o
#   wget-k            wget's own copy (-k), the reference
# Each copy is opened page by page by tests/offline/check.py beside the live
# site, its cases counted (fixtures/offline/threehost/cases.tsv, exactly
# THREEHOST_CASES of them); tests/offline/threehost_judge.py then compares
# every copy's cases with fixtures/offline/threehost/expected.tsv and
# checks that linkbase's copies do at least as well as wget -k's on every
# case but those the table names. Exit status 1 on any difference.
set -euo pipefail
linkbase=$1
work=$2
THREEHOST_CASES=16
here=$(cd "$(dirname "$0")" && pwd)
site=$here/../../fixtures/offline/threehost
mkdir -p "$work"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT
trap 'exit 143' INT TERM

python3 "$here/serve.py" "$site" --hosts 127.0.0.1,127.0.0.2,127.0.0.3 \
  --port-file "$work/port" 2>/dev/null &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port")
h1=127.0.0.1:$port
echo "== three hosts on port $port: wget mirror and WARC, wget -k, httrack"
"$here/crawl-threehost.sh" "$port" "$work/crawl"

echo "== linkbase offline: the mirror, the WARC (twice), its WACZ, httrack's copy"
"$linkbase" offline "$work/crawl/mirror" --url-prefix "http://$h1/" \
  --wget-log "$work/crawl/mirror.log" -o "$work/copy-mirror" --quiet
"$linkbase" offline "$work/crawl/crawl.warc.gz" -o "$work/copy-warc" --quiet
"$linkbase" offline "$work/crawl/crawl.warc.gz" -o "$work/copy-warc-2" --quiet
diff -r "$work/copy-warc" "$work/copy-warc-2"
WACZ_VENV=${WACZ_VENV:-target/wacz-venv}
"$here/../interop/venv.sh" "$WACZ_VENV" "$here/requirements-wacz.txt"
wacz=$(cd "$WACZ_VENV" && pwd)/bin/wacz
(cd "$work/crawl" && "$wacz" create -o crawl.wacz --detect-pages crawl.warc.gz >/dev/null)
"$wacz" validate -f "$work/crawl/crawl.wacz" >/dev/null
"$linkbase" offline "$work/crawl/crawl.wacz" -o "$work/copy-wacz" --quiet
for h in 127.0.0.1 127.0.0.2 127.0.0.3; do
  diff -r "$work/copy-warc/$h:$port" "$work/copy-wacz/$h:$port"
done
# httrack names files by its own rule (a query is a hash: list4e5b.html) and
# links them relatively; each file's URL is in hts-cache/new.txt
# (--httrack-cache). Its own start page and images, which the cache does not
# name, are under a prefix of their own.
"$linkbase" offline "$work/crawl/httrack" --layout plain --url-prefix http://httrack.invalid/ \
  --httrack-cache "$work/crawl/httrack/hts-cache/new.txt" -o "$work/copy-httrack" --quiet

declare -A check_pid
start_check() {  # start_check LABEL ROOT START [more check.py args]
  local label=$1 root=$2 start=$3
  shift 3
  python3 "$here/check.py" --label "$label" --warc "$work/crawl/crawl.warc.gz" \
    --live "http://$h1/" --live-host 127.0.0.2 --live-host 127.0.0.3 \
    --copy-root "$root" --copy-start "$start" --json "$work/$label.json" \
    --cases "$site/cases.tsv" --expect-cases "$THREEHOST_CASES" \
    --subst "HOST1=$h1" --subst "HOST2=127.0.0.2:$port" --subst "HOST3=127.0.0.3:$port" \
    "$@" >"$work/$label.out" 2>"$work/$label.err" &
  check_pid[$label]=$!
  pids+=($!)
}
start_check linkbase-mirror "$work/copy-mirror" "$work/copy-mirror/$h1/index.html" \
  --held-map "$work/copy-mirror/urls.tsv"
start_check linkbase-warc "$work/copy-warc" "$work/copy-warc/$h1/index.html"
start_check linkbase-wacz "$work/copy-wacz" "$work/copy-wacz/$h1/index.html"
start_check linkbase-httrack "$work/copy-httrack" "$work/copy-httrack/127.0.0.1_$port/index.html" \
  --held-map "$work/copy-httrack/urls.tsv"
start_check wget-k "$work/crawl/wget-k" "$work/crawl/wget-k/$h1/index.html"
for label in "${!check_pid[@]}"; do
  wait "${check_pid[$label]}" || true
done
echo "== Chromium, network cut: every copy's cases against fixtures/offline/threehost/expected.tsv"
for label in linkbase-mirror linkbase-warc linkbase-wacz linkbase-httrack wget-k; do
  cat "$work/$label.err" >&2
  grep -v '^case ' "$work/$label.out" || true
done
python3 "$here/threehost_judge.py" "$site/expected.tsv" "$THREEHOST_CASES" \
  "$work"/linkbase-mirror.json "$work"/linkbase-warc.json "$work"/linkbase-wacz.json \
  "$work"/linkbase-httrack.json "$work"/wget-k.json
