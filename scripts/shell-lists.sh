#!/usr/bin/env bash
# No check written as a `[ … ] && …` list (issue 43). Under `set -e` a list
# whose first test is false does not stop the script (bash ignores a failure
# in any command of an && list but the last), so `[ -f A ] && [ ! -e B ]`
# standing alone passes whatever A and B are; and as a loop's or script's
# last command it silently sets the status. Every such line in the
# repository's shell scripts is written as `if …; then …; fi` instead; this
# fails on any line that starts with `[`, `[[` or `test` and holds `&&`.
# (`[ … ] || exit` is fine: a false test runs the exit.) A second, in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t scripts < <(
  {
    git ls-files '*.sh'
    git ls-files .ci | while IFS= read -r f; do
      if head -1 "$f" | grep -q '^#!.*\(bash\|sh\)'; then echo "$f"; fi
    done
  } | LC_ALL=C sort -u
)
if [ "${#scripts[@]}" -lt 20 ]; then
  echo "error: only ${#scripts[@]} shell scripts found: is this the repository?" >&2
  exit 1
fi
found=$(grep -nE '^[[:space:]]*(\[\[?|test)[[:space:]].*&&' "${scripts[@]}" || true)
if [ -n "$found" ]; then
  echo "$found" >&2
  echo "error: a check written as a '[ … ] && …' list: under set -e a false test does not stop the script; write it as 'if …; then …; fi'" >&2
  exit 1
fi
echo "shell lists: no '[ … ] && …' list in ${#scripts[@]} shell scripts"
