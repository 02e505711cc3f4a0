#!/usr/bin/env bash
# linkbase --filter behind a real Postfix (issue 32): Postfix from Debian's
# packages (installed here when missing, no daemon started by the package),
# an instance of its own on 127.0.0.1 started by tests/mta/postfix_filter.py,
# which sends two messages by SMTP through `linkbase --filter` (as a pipe(8)
# content filter, examples/mail/postfix-filter.sh) into a Maildir, one with a
# link that cannot be resolved: both must be delivered, none bounced. The
# test stops its instance and removes its files on exit. Root, no systemd
# needed. About 5 s once installed (the install: about 20 s).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v postfix >/dev/null 2>&1 && [ ! -x /usr/sbin/postfix ]; then
  echo "== apt-get install postfix"
  # The package's scripts would start the system's Postfix: a policy-rc.d
  # forbids it while installing (only when none is there; removed after).
  policy=/usr/sbin/policy-rc.d
  made_policy=
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod 755 "$policy"
    made_policy=1
    trap 'rm -f "$policy"' EXIT
  fi
  echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends postfix
  if [ -n "$made_policy" ]; then rm -f "$policy"; fi
fi
export PATH="$PATH:/usr/sbin"
cargo build --quiet --bin linkbase
python3 tests/mta/postfix_filter.py target/debug/linkbase
