#!/usr/bin/env bash
# scripts/light-parse-html5lib.sh [TREE_CONSTRUCTION_DIR]
#
# The light parse (crates/linkbase/src/html/dom/light.rs) against the full
# tree builder on every `#data` input of html5lib-tests' tree-construction
# files (tests/light_parse.rs, `html5lib-tree-construction`). The files are
# on GitHub only (https://github.com/html5lib/html5lib-tests, commit 9329e64,
# the last before the tests moved to web-platform-tests); no package
# registry has them, so CI cannot fetch them and this is run by hand:
#
#   git clone https://github.com/html5lib/html5lib-tests /tmp/html5lib-tests
#   git -C /tmp/html5lib-tests checkout 9329e64
#   scripts/light-parse-html5lib.sh /tmp/html5lib-tests/tree-construction
#
# Prints how many inputs took the light path; fails on any difference.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-/tmp/html5lib-tests/tree-construction}
if ! ls "$dir"/*.dat >/dev/null 2>&1; then
    echo "$0: no .dat files in $dir (see the comment at the top)" >&2
    exit 2
fi
LINKBASE_HTML5LIB_TESTS=$dir exec cargo test --test light_parse -- --nocapture html5lib
