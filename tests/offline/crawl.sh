#!/usr/bin/env bash
# Crawl a site with GNU wget three ways (issue 28):
#   tests/offline/crawl.sh URL OUT
#   OUT/mirror/      wget -r -p (a plain mirror), in the same crawl as
#   OUT/crawl.warc.gz   its WARC (--warc-file; wget's default: one gzip member per record)
#   OUT/wget-k/      wget -r -p -k -E (wget's own link conversion: the reference)
# wget's logs are OUT/mirror.log and OUT/wget-k.log. wget exits 8 when a link
# on the site is a 404 (the test site has none; a real site may), which is
# not a failure of the crawl: only statuses other than 0 and 8 are.
set -euo pipefail
url=$1
out=$2
mkdir -p "$out"
common=(-r -l inf -p -e robots=off --no-verbose --tries=1 --timeout=10)
run() {
  local status=0
  wget "$@" || status=$?
  if [ "$status" -ne 0 ] && [ "$status" -ne 8 ]; then
    echo "wget $* exited $status" >&2
    exit "$status"
  fi
}
rm -rf "$out/mirror" "$out/wget-k" "$out/crawl.warc.gz"
run "${common[@]}" -P "$out/mirror" --warc-file="$out/crawl" --no-warc-keep-log \
  -o "$out/mirror.log" "$url"
run "${common[@]}" -k -E -P "$out/wget-k" -o "$out/wget-k.log" "$url"
