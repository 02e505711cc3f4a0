#!/usr/bin/env bash
# The light parse against the full tree builder on the 530 pages of the
# Python 3.11 documentation (tests/fixtures/light_parse.rs, `python-docs`; docs/html.md,
# "The light parse"): everything the rewrite's walk reads must be the same,
# and most pages must take the light path. Installs Debian's python3.11-doc
# when missing (.ci/offline-browser.sh installs python3-doc, which pulls it
# in, before this runs). Then the same against the full parse on html5lib's
# tree-construction inputs, as PyPI's html5lib 1.1 ships them
# (scripts/light-parse-html5lib.sh). About a minute after `cargo test`'s build.
set -euo pipefail
if [ ! -f /usr/share/doc/python3.11/html/library/stdtypes.html ]; then
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3.11-doc
fi
# One trial, by its exact name, counted (scripts/expect-trials.sh: a filter
# that matched nothing would pass with "0 passed").
LINKBASE_REQUIRE_PYTHON_DOCS=1 scripts/expect-trials.sh 1 \
  cargo test --test fixtures -- --nocapture --exact python-docs
scripts/light-parse-html5lib.sh
