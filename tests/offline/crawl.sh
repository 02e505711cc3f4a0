#!/usr/bin/env bash
# Crawl a site with GNU wget three ways (issue 28):
#   tests/offline/crawl.sh URL OUT
#   OUT/mirror/      wget -r -p (a plain mirror), in the same crawl as
#   OUT/crawl.warc.gz   its WARC (--warc-file; wget's default: one gzip member per record)
#   OUT/crawl.cdx       its CDX (--warc-cdx), for
#   OUT/recrawl.warc.gz a second crawl of the WARC alone with --warc-dedup=crawl.cdx:
#                    every unchanged payload a revisit record of the first crawl's
#   OUT/mirror-E/    wget -r -p -E (a mirror whose pages are named .html, as
#                    `linkbase offline SITE --url-prefix` is meant to read)
#   OUT/wget-k/      wget -r -p -k -E (wget's own link conversion: the reference)
# With OFFLINE_RECRAWL=0 the second crawl is left out.
# wget's logs are OUT/mirror.log and OUT/wget-k.log. wget exits 8 when a link
# on the site is a 404 (the test site has none; a real site may), which is
# not a failure of the crawl: only statuses other than 0 and 8 are.
set -euo pipefail
url=$1
out=$2
mkdir -p "$out"
common=(-r -l inf -p -e robots=off --no-verbose --tries=3 --waitretry=0 --timeout=10)
run() {
  local status=0
  wget "$@" || status=$?
  if [ "$status" -ne 0 ] && [ "$status" -ne 8 ]; then
    echo "wget $* exited $status" >&2
    exit "$status"
  fi
}
rm -rf "$out/mirror" "$out/mirror-E" "$out/wget-k" "$out/recrawl-files" "$out"/crawl.* "$out"/recrawl.*
run "${common[@]}" -P "$out/mirror" --warc-file="$out/crawl" --warc-cdx --no-warc-keep-log \
  -o "$out/mirror.log" "$url"
if [ "${OFFLINE_RECRAWL:-1}" != 0 ]; then
  run "${common[@]}" -P "$out/recrawl-files" --warc-file="$out/recrawl" \
    --warc-dedup="$out/crawl.cdx" --no-warc-keep-log -o "$out/recrawl.log" "$url"
  rm -rf "$out/recrawl-files"
fi
run "${common[@]}" -E -P "$out/mirror-E" -o "$out/mirror-E.log" "$url"
run "${common[@]}" -k -E -P "$out/wget-k" -o "$out/wget-k.log" "$url"
