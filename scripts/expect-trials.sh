#!/usr/bin/env bash
# scripts/expect-trials.sh N COMMAND...
#
# Runs COMMAND, a `cargo test` run (its output shown as it comes), and fails
# unless it passed exactly N trials in all, with none failed or ignored
# (issue 43). A name filter that matches nothing gives "0 passed" and exit
# status 0: renaming a trial would drop it from CI silently; with the count
# it fails. N is the number of trials the filter names, written where the
# command is.
set -euo pipefail
if [ $# -lt 2 ] || ! [[ $1 =~ ^[0-9]+$ ]]; then
  echo "usage: scripts/expect-trials.sh N COMMAND..." >&2
  exit 2
fi
want=$1
shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
"$@" 2>&1 | tee "$log" || status=$?
if [ "$status" != 0 ]; then
  exit "$status"
fi
# libtest's summary: "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 3 filtered out"
read -r runs passed ignored < <(awk '
  /^test result: / {
    runs++
    for (i = 1; i <= NF; i++) {
      if ($(i + 1) ~ /^passed;?$/) passed += $i
      if ($(i + 1) ~ /^ignored;?$/) ignored += $i
    }
  }
  END { print runs + 0, passed + 0, ignored + 0 }' "$log")
if [ "$runs" = 0 ]; then
  echo "error: no 'test result:' line from: $*" >&2
  exit 1
fi
if [ "$passed" != "$want" ] || [ "$ignored" != 0 ]; then
  echo "error: $passed trials passed and $ignored were ignored, where $want should have run: $*" >&2
  echo "(a trial renamed, or a name filter that no longer matches it?)" >&2
  exit 1
fi
echo "expect-trials: $passed of $want trials ran and passed: $*"
