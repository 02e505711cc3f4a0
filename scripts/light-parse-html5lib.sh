#!/usr/bin/env bash
# scripts/light-parse-html5lib.sh [TREE_CONSTRUCTION_DIR]
#
# The light parse (crates/linkbase/src/html/dom/light.rs) against the full
# tree builder on every `#data` input of html5lib-tests' tree-construction
# files (tests/fixtures/light_parse.rs, `html5lib-tree-construction`). Prints how
# many inputs took the light path; fails on any difference.
#
# With no argument (what CI runs, .ci/light-parse.sh): the files as PyPI's
# html5lib 1.1 source distribution ships them (html5lib/tests/testdata/
# tree-construction: 55 files, 1,700 inputs), downloaded from PyPI's file
# host, its SHA-256 checked (PyPI's own, in its simple index), unpacked
# into target/html5lib-1.1. Or name a folder, e.g. html5lib-tests' last
# commit before the tests moved to web-platform-tests (1,792 inputs):
#
#   git clone https://github.com/html5lib/html5lib-tests /tmp/html5lib-tests
#   git -C /tmp/html5lib-tests checkout 9329e64
#   scripts/light-parse-html5lib.sh /tmp/html5lib-tests/tree-construction
set -euo pipefail
cd "$(dirname "$0")/.."
SDIST_URL=https://files.pythonhosted.org/packages/ac/b6/b55c3f49042f1df3dcd422b7f224f939892ee94f22abcf503a9b7339eaf2/html5lib-1.1.tar.gz
SDIST_SHA256=b2e5b40261e20f354d198eae92afc10d750afb487ed5e50f9c4eaf07c184146f
if [ $# -ge 1 ]; then
    dir=$1
else
    root=target/html5lib-1.1
    dir=$root/html5lib-1.1/html5lib/tests/testdata/tree-construction
    if [ ! -d "$dir" ]; then
        mkdir -p "$root"
        if ! command -v curl >/dev/null; then
            apt-get update -q
            DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends curl ca-certificates
        fi
        curl -sSfL --retry 3 -o "$root/html5lib-1.1.tar.gz" "$SDIST_URL"
        echo "$SDIST_SHA256  $root/html5lib-1.1.tar.gz" | sha256sum -c --quiet
        tar -xzf "$root/html5lib-1.1.tar.gz" -C "$root"
    fi
fi
if ! ls "$dir"/*.dat >/dev/null 2>&1; then
    echo "$0: no .dat files in $dir (see the comment at the top)" >&2
    exit 2
fi
# One trial, by its exact name, counted (a filter that matched nothing would
# pass with "0 passed").
LINKBASE_HTML5LIB_TESTS=$dir exec scripts/expect-trials.sh 1 \
  cargo test --test fixtures -- --nocapture --exact html5lib-tree-construction
