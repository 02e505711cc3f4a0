#!/usr/bin/env bash
# Offline copies in headless Chromium with the network off (issue 28).
#
# The test site (fixtures/offline/site, served by tests/offline/serve.py on
# 127.0.0.1) is crawled by GNU wget (tests/offline/crawl.sh): a plain mirror
# and its WARC in one crawl, a re-crawl with --warc-dedup (revisit records),
# and wget -r -p -k -E as the reference. tests/offline/check.py opens each
# copy page by page beside the live site, every http(s) request of the copy
# aborted, and must:
#   pass on   linkbase offline crawl.warc.gz -o OUT
#             linkbase offline crawl.warc.gz recrawl.warc.gz -o OUT (revisits)
#             linkbase offline crawl.wacz -o OUT (the WARC packed by py-wacz,
#             `wacz create --detect-pages`, validated by `wacz validate`; its
#             start page checked against pages.jsonl by tests/offline/start_page.py)
#             linkbase offline MIRROR --url-prefix URL -o OUT (wget -r -p -E's;
#             what the mirror holds: the URLs of its urls.tsv, all but four)
#             linkbase offline MIRROR --url-prefix URL -o OUT (the plain
#             mirror, no -E: the copy adds .html to its pages, as -E would)
#   fail on   wget's plain mirror (links to the live site, a lost page, query
#             strings a browser drops from file: URLs), and on wget -k -E
#             (images it did not fetch linked relative: missing files).
# Two runs of linkbase offline give the same bytes, the WARC is unchanged.
# Before the site: tests/offline/file_chars.py, each ASCII punctuation
# character in a file name linked raw and encoded (style sheet, image,
# script, iframe): the ones Chromium needs encoded must be in linkbase's
# link sets (crates/linkbase/src/offline/link.rs). About 5 s.
# Then tests/offline/lazy_libraries.py: a page per lazy-loading library
# (lazysizes, vanilla-lazyload, lozad, fetched with npm pack at pinned
# versions), crawled by wget into a WARC, made offline, each opened with the
# network cut: every lazy image and background loads from the copy. About 15 s.
# Beside the checks of the test site: tests/offline/threehost.sh, the
# three-host site (fixtures/offline/threehost) crawled by wget (mirror, WARC,
# its WACZ) and httrack, linkbase's four copies and wget -k's judged case by
# case against fixtures/offline/threehost/expected.tsv (docs/offline.md).
# Then a real site nobody on the team wrote: Debian's python3-doc HTML, served
# on 127.0.0.1, crawled into a WARC, made offline and checked the same way
# over its first OFFLINE_REAL_PAGES pages (default 40; 0: all ~530, ~20 min);
# and its plain mirror made offline in place (-i) and as a copy (-o): the same
# files, the pages styled (about 2 min more: two runs of the debug build).
# Last, tests/offline/real_crawls.py: other crawlers' archives of real sites
# (tests/offline/real/), each page in Chromium as captured against the copy:
# resources, links, the first screen's pixels (50 s to 1 min 22 s, 21 s of CPU).
# The test site's seven checks run at once, and the Python docs are crawled
# and made offline meanwhile (issue 43): most of the time is Chromium
# waiting for pages to settle. Measured alone on the shared 2-core machine
# (the WACZ venv made already): 7 min 27 s at a load of 13-49, 144 s of CPU;
# the checks one after the other took 15 min 7 s at a load of 16-27, 127 s
# of CPU.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v wget >/dev/null 2>&1 || need+=(wget)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v npm >/dev/null 2>&1 || need+=(npm)
command -v httrack >/dev/null 2>&1 || need+=(httrack)
[ -d /usr/share/doc/python3-doc/html ] || need+=(python3-doc)
if [ ${#need[@]} -gt 0 ]; then
  echo "== apt-get install ${need[*]}"
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}"
fi

cargo build --quiet --bin linkbase
linkbase=$PWD/target/debug/linkbase
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# serve DIR PORTFILE [ROUTES]: start a server, wait for its port.
serve() {
  local routes=()
  if [ $# -ge 3 ]; then
    routes=(--routes "$3")
  fi
  python3 tests/offline/serve.py "$1" "${routes[@]}" --port-file "$2" 2>/dev/null &
  pids+=($!)
  for _ in $(seq 100); do [ -s "$2" ] && return 0; sleep 0.1; done
  echo "error: the server of $1 did not start" >&2
  exit 1
}

check() {  # check LABEL WARC LIVE ROOT START [more check.py args]
  local label=$1 warc=$2 live=$3 root=$4 start=$5
  shift 5
  python3 tests/offline/check.py --label "$label" --warc "$warc" --live "$live" \
    --copy-root "$root" --copy-start "$start" --json "$work/$label.json" "$@"
}

# --- file names in links: which characters Chromium's file: loading needs encoded
echo "== Chromium, file: names: every character it treats specially is encoded (docs/offline.md)"
python3 tests/offline/file_chars.py

# --- lazy-loaded images with the real libraries (from the npm registry) ----------
echo "== Chromium, network off: lazysizes, vanilla-lazyload and lozad load their images from the copy"
python3 tests/offline/lazy_libraries.py "$linkbase" --work "$work/lazy"

# --- the test site --------------------------------------------------------------
serve fixtures/offline/site "$work/site.port" fixtures/offline/routes.tsv
port=$(cat "$work/site.port")
url=http://127.0.0.1:$port/
host=127.0.0.1:$port
echo "== wget crawls of the test site at $url"
tests/offline/crawl.sh "$url" "$work/crawl"
warc=$work/crawl/crawl.warc.gz
sum_before=$(sha256sum "$warc")

echo "== linkbase offline crawl.warc.gz, twice: the same bytes"
"$linkbase" offline "$warc" -o "$work/copy-warc"
"$linkbase" offline "$warc" -o "$work/copy-warc-2" --quiet
diff -r "$work/copy-warc" "$work/copy-warc-2"
if [ "$(sha256sum "$warc")" != "$sum_before" ]; then
  echo "error: linkbase offline changed its input, $warc" >&2
  exit 1
fi

echo "== linkbase offline crawl.warc.gz recrawl.warc.gz (wget --warc-dedup revisits)"
revisits=$(zcat "$work/crawl/recrawl.warc.gz" | grep -a -c '^WARC-Type: revisit' || true)
echo "recrawl.warc.gz: $revisits revisit records"
if [ "${revisits:-0}" -lt 20 ]; then
  echo "error: the re-crawl holds $revisits revisit records, not the 20 or more expected" >&2
  exit 1
fi
"$linkbase" offline "$warc" "$work/crawl/recrawl.warc.gz" -o "$work/copy-dedup"
# The revisits are the latest captures; their payloads are the first crawl's.
diff -r "$work/copy-warc/$host" "$work/copy-dedup/$host"

echo "== linkbase offline crawl.wacz (the crawl packed by py-wacz)"
# py-wacz (PyPI, pinned in tests/offline/requirements-wacz.txt) in a venv of
# its own, made once (about 1 min to install).
WACZ_VENV=${WACZ_VENV:-target/wacz-venv}
tests/interop/venv.sh "$WACZ_VENV" tests/offline/requirements-wacz.txt
wacz=$PWD/$WACZ_VENV/bin/wacz
(cd "$work/crawl" && "$wacz" create -o crawl.wacz --detect-pages crawl.warc.gz >/dev/null)
"$wacz" validate -f "$work/crawl/crawl.wacz"
"$linkbase" offline "$work/crawl/crawl.wacz" -o "$work/copy-wacz" --quiet
# The same captures as the WARC: the same files; the start page lists pages.jsonl.
diff -r "$work/copy-warc/$host" "$work/copy-wacz/$host"
python3 tests/offline/start_page.py "$work/crawl/crawl.wacz" "$work/copy-wacz"

echo "== linkbase offline MIRROR --url-prefix $url (wget -r -p -E's mirror, and the plain one)"
"$linkbase" offline "$work/crawl/mirror-E" --url-prefix "$url" -o "$work/copy-mirror" --quiet
"$linkbase" offline "$work/crawl/mirror" --url-prefix "$url" -o "$work/copy-plain" --quiet
# Without -E, wget saved /page.php?id=1 (text/html) as page.php?id=1; the
# copy names it page.php?id=1.html (docs/offline.md, "Names in a copy of a mirror").
if [ ! -f "$work/copy-plain/$host/page.php?id=1.html" ] || [ -e "$work/copy-plain/$host/page.php?id=1" ]; then
  echo "error: the copy of the plain mirror should hold page.php?id=1.html and no page.php?id=1:" >&2
  ls "$work/copy-plain/$host" >&2
  exit 1
fi

# The Python docs (below) are crawled and made offline meanwhile, in the
# background (CPU and disk, while the checks mostly wait for Chromium); their
# check waits for that (issue 43).
python3 -m http.server 0 --bind 127.0.0.1 --directory /usr/share/doc/python3-doc/html \
  >"$work/pydoc.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do grep -q "port" "$work/pydoc.log" && break; sleep 0.1; done
pyport=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$work/pydoc.log" | head -1)
pyurl=http://127.0.0.1:$pyport/
(
  OFFLINE_RECRAWL=0 tests/offline/crawl.sh "$pyurl" "$work/pydoc"
  "$linkbase" offline "$work/pydoc/crawl.warc.gz" -o "$work/copy-pydoc" --quiet
) >"$work/pydoc-ready.log" 2>&1 &
pydoc_ready=$!
pids+=($!)

# The three-host site (issue 41, tests/offline/threehost.sh): crawled by wget
# and httrack, five copies judged case by case, beside the checks below
# (mostly Chromium and httrack waiting). Judged at the end.
tests/offline/threehost.sh "$linkbase" "$work/threehost" >"$work/threehost.log" 2>&1 &
threehost=$!
pids+=($!)

# The seven checks run at once (issue 43: each is two Chromium processes
# waiting for pages to settle, most of the time idle): each writes its own
# files (LABEL.out, LABEL.err, LABEL.json) and is judged here, in order,
# exactly as when they ran one after the other.
declare -A check_pid check_rc
start_check() {  # start_check LABEL WARC LIVE ROOT START [more check.py args]
  local label=$1
  check "$@" >"$work/$label.out" 2>"$work/$label.err" &
  check_pid[$label]=$!
  pids+=($!)
}
start_check linkbase-warc "$warc" "$url" "$work/copy-warc" "$work/copy-warc/$host/index.html"
start_check linkbase-dedup "$warc" "$url" "$work/copy-dedup" "$work/copy-dedup/$host/index.html"
start_check linkbase-wacz "$warc" "$url" "$work/copy-wacz" "$work/copy-wacz/$host/index.html"
start_check linkbase-mirror "$warc" "$url" "$work/copy-mirror" "$work/copy-mirror/$host/index.html" \
  --held-map "$work/copy-mirror/urls.tsv"
start_check linkbase-plain "$warc" "$url" "$work/copy-plain" "$work/copy-plain/$host/index.html" \
  --held-map "$work/copy-plain/urls.tsv"
start_check wget-mirror "$warc" "$url" "$work/crawl/mirror" "$work/crawl/mirror/$host/index.html"
start_check wget-k-E "$warc" "$url" "$work/crawl/wget-k" "$work/crawl/wget-k/$host/index.html"

# Every check ends before any is judged (none is left running on a failure).
for label in "${!check_pid[@]}"; do
  check_rc[$label]=0
  wait "${check_pid[$label]}" || check_rc[$label]=$?
done

echo "== Chromium, network off: linkbase's copies pass"
for label in linkbase-warc linkbase-dedup linkbase-wacz linkbase-mirror linkbase-plain; do
  cat "$work/$label.err" >&2
  cat "$work/$label.out"
  status=${check_rc[$label]}
  if [ "$status" != 0 ]; then
    echo "error: the check of $label failed (exit status $status)" >&2
    exit 1
  fi
done
# The mirror holds every URL of the crawl but four: the long query, whose
# file wget cut to 236 bytes (its URL cannot be read back from the name), and
# the targets of the redirects, which wget saved under the redirecting URL's
# name (old.html, chain1.html) and not under their own.
grep "not held:" "$work/linkbase-mirror.out" | sed 's/.*not held: http:\/\/[^/]*//' | cut -c1-20 >"$work/not-held"
printf '%s\n' /chain2 /moved/final.html /moved/new.html '/search?q=offline-co' | diff - "$work/not-held"
# The plain mirror holds the same but /docs, the page wget lost to the folder
# /docs/ (its file was removed for the folder's).
grep "not held:" "$work/linkbase-plain.out" | sed 's/.*not held: http:\/\/[^/]*//' | cut -c1-20 >"$work/not-held"
printf '%s\n' /chain2 /docs /moved/final.html /moved/new.html '/search?q=offline-co' | diff - "$work/not-held"

echo "== Chromium, network off: wget's plain mirror and wget -k -E must fail"
for label in wget-mirror wget-k-E; do
  cat "$work/$label.err" >&2
  if [ "${check_rc[$label]}" = 0 ]; then
    cat "$work/$label.out"
    echo "error: the check passed on $label: it cannot fail" >&2
    exit 1
  fi
  tail -1 "$work/$label.out"
done
# What wget -k -E breaks (docs/offline.md, "Against wget -k"): the images it
# did not fetch (<picture><source srcset>, SVG <image href>, image-set()),
# left relative to files that do not exist.
for what in img/pic.png img/svg.png img/set-1x.png; do
  grep -q "$what missing" "$work/wget-k-E.out" || { echo "error: wget -k -E did not break $what" >&2; exit 1; }
done
# And the plain mirror: the page /docs lost to the folder /docs/, query strings.
grep -q "/docs: no such file" "$work/wget-mirror.out"
grep -q "css/site.css?v=3 missing" "$work/wget-mirror.out"

# --- a real site: the Python docs from Debian's python3-doc ---------------------
echo "== the Python docs (python3-doc), crawled into a WARC, made offline, checked"
# (Crawled and made offline beside the test site's checks, above.)
status=0
wait "$pydoc_ready" || status=$?
cat "$work/pydoc-ready.log"
if [ "$status" != 0 ]; then
  echo "error: the crawl of the Python docs or its offline copy failed (exit status $status)" >&2
  exit 1
fi
real_pages=${OFFLINE_REAL_PAGES:-40}
check python-docs "$work/pydoc/crawl.warc.gz" "$pyurl" "$work/copy-pydoc" \
  "$work/copy-pydoc/127.0.0.1:$pyport/index.html" --max-pages "$real_pages"
# The summary's page count (check.py --json): exactly the pages asked for
# (however few were crawled, a check of fewer pages passed before, issue
# 43); with OFFLINE_REAL_PAGES=0 (all of them) at least 500.
checked=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["summary"]["pages"])' "$work/python-docs.json")
if [ "$real_pages" = 0 ]; then
  if [ "$checked" -lt 500 ]; then
    echo "error: the Python docs' check read $checked pages, not all (500 or more)" >&2
    exit 1
  fi
elif [ "$checked" != "$real_pages" ]; then
  echo "error: the Python docs' check read $checked pages, where $real_pages were asked for" >&2
  exit 1
fi
echo "python-docs: $checked pages checked"

# The crawl's plain mirror (no -E): wget named every page's style sheet
# _static/pydoctheme.css?2022.1, which Chromium loads from disk but does not
# apply: its url() images are then not loaded, which check.py counts (the
# -i of before this rename, kept name, failed 20 times over 10 pages: "3
# resources loaded from the copy, 7 held ones live"). `-i` renames it in place
# as `-o` names it in a copy (issue 41 item 5): the two folders are the same
# but for the backups, and the check passes.
echo "== the Python docs' plain mirror: offline -i makes -o's copy"
pyhost=127.0.0.1:$pyport
"$linkbase" offline "$work/pydoc/mirror" --url-prefix "$pyurl" -o "$work/pydoc-copy" --quiet
cp -a "$work/pydoc/mirror" "$work/pydoc-in-place"
"$linkbase" offline "$work/pydoc-in-place" --url-prefix "$pyurl" -i --backup .orig --quiet
diff -r -x '*.orig' "$work/pydoc-copy" "$work/pydoc-in-place"
if [ ! -f "$work/pydoc-in-place/$pyhost/_static/pydoctheme.css?2022.1.css" ]; then
  echo "error: -i did not rename _static/pydoctheme.css?2022.1 to pydoctheme.css?2022.1.css" >&2
  exit 1
fi
check python-docs-in-place "$work/pydoc/crawl.warc.gz" "$pyurl" "$work/pydoc-in-place" \
  "$work/pydoc-in-place/$pyhost/index.html" --held-map "$work/pydoc-in-place/urls.tsv" --max-pages 5
# --- real crawls by other crawlers -------------------------------------------
# tests/offline/real/ (pywb's and py-wacz's test archives of iana.org and
# example.com: IA LiveWeb, wget, wpull, ArchiveWeb.page, Webrecorder, a
# Browsertrix WACZ): each HTML page in Chromium as captured (every request
# answered from the archive) against the copy with the network cut; Pillow
# and brotli (PyPI, tests/offline/requirements-real.txt) in the same venv.
echo "== real crawls by other crawlers: as captured against the offline copy (docs/offline.md)"
tests/interop/venv.sh "$WACZ_VENV" tests/offline/requirements-real.txt
"$WACZ_VENV/bin/python" tests/offline/real_crawls.py "$linkbase" --work "$work/real"
echo "== the three-host site: wget mirror, WARC, WACZ and httrack, linkbase against wget -k"
status=0
wait "$threehost" || status=$?
cat "$work/threehost.log"
if [ "$status" != 0 ]; then
  echo "error: the three-host site's check failed (exit status $status)" >&2
  exit 1
fi
echo "== offline copies: every check as expected"
