#!/usr/bin/env bash
# Crawl the three-host test site (fixtures/offline/threehost, served by
# tests/offline/serve.py --hosts) four ways (issue 41):
#   tests/offline/crawl-threehost.sh PORT OUT
#   OUT/mirror/          wget -m -p -E -H -D (the three hosts), in the same crawl as
#   OUT/crawl.warc.gz    its WARC (--warc-file)
#   OUT/mirror.log       its log at default verbosity (-o), which names each
#                        file saved and the URLs requested for it (--wget-log)
#   OUT/wget-k/          wget -m -p -E -H -D -k: wget's own link conversion, the reference
#   OUT/httrack/         httrack over the three hosts (+filters, any depth, no robots.txt;
#                        its own relative links, its own names)
# wget exits 8 when a link is a 404 (the site has one on purpose: a
# <source> of an unknown type that no browser fetches, which wget does);
# only statuses other than 0 and 8 are failures.
set -euo pipefail
port=$1
out=$2
hosts=127.0.0.1,127.0.0.2,127.0.0.3
url=http://127.0.0.1:$port/
mkdir -p "$out"
rm -rf "$out/mirror" "$out/wget-k" "$out/httrack" "$out"/crawl.*
common=(-m -p -E -H -D "$hosts" -e robots=off --tries=3 --waitretry=0 --timeout=10)
run() {
  local status=0
  wget "$@" || status=$?
  if [ "$status" -ne 0 ] && [ "$status" -ne 8 ]; then
    echo "wget $* exited $status" >&2
    exit "$status"
  fi
}
# httrack takes about 40 s (its pacing, idle): it runs beside wget.
# -%N0: no delayed type check (which waits about a second a link).
httrack "$url" -O "$out/httrack" "+127.0.0.2:$port/*" "+127.0.0.3:$port/*" \
  -q -%v0 -s0 -r99 -%N0 >"$out/httrack.log" 2>&1 &
httrack_pid=$!
LC_ALL=C run "${common[@]}" -P "$out/mirror" --warc-file="$out/crawl" --no-warc-keep-log \
  -o "$out/mirror.log" "$url"
run "${common[@]}" --no-verbose -k -P "$out/wget-k" -o "$out/wget-k.log" "$url"
wait "$httrack_pid"
