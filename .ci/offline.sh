#!/usr/bin/env bash
# linkbase offline (issue 28): the mirror tests (tests/integration/cli/offline.rs) crawl a
# small site with GNU wget, served by python3 -m http.server on 127.0.0.1.
# Under CI=true a missing wget fails them, so install it when missing
# (idempotent; a few seconds).
set -euo pipefail
if ! command -v wget >/dev/null 2>&1; then
  echo "== apt-get install wget (for tests/integration/cli/offline.rs)"
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends wget
fi
command -v python3 >/dev/null 2>&1 || {
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3
}
