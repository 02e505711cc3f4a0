#!/usr/bin/env bash
# Docs that say what is (issue 30): what the docs show of the code is drawn
# from the code, and must be current. scripts/module-graph.py --check: the
# picture of the crates, modules and imports in docs/architecture.md;
# scripts/doc-figures.py --check: the counted figures; scripts/doc-links.py:
# the links and the user's guide's length; and the docs index. Nothing is
# built; about 5 s. After a merge that moves imports, modules, fixtures or the
# public API: scripts/module-graph.py --write; scripts/doc-figures.py --write.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/module-graph.py --check
# The figures the code decides (fuzz targets, fixture cases, modules, the
# public API's size), marked in the docs <!-- figure: NAME -->: counted.
python3 scripts/doc-figures.py --check
# Every message the tool can print (docs/messages.md, issue 31): each has a
# verdict in docs/messages-review.tsv, no verdict names a message that is
# gone, and the page is current (scripts/messages.py; a second).
python3 scripts/messages.py --check
# Every relative link of the Markdown files leads to a file and heading that
# exist; the user's guide (docs/guide/) stays under 1,500 lines, each page
# opening with an example (scripts/doc-links.py; a second).
python3 scripts/doc-links.py
# The docs index names every page of docs/ and docs/guide/ (one line each), and no page that is gone.
missing=0
for page in docs/*.md docs/*.txt docs/guide/*.md; do
  name=${page#docs/}
  if [ "$name" = README.md ]; then
    continue
  fi
  if ! grep -q "](${name})" docs/README.md; then
    echo "error: docs/README.md does not list $page (one line: what it covers)" >&2
    missing=1
  fi
done
for name in $(grep -o '](\([a-z0-9_./-]*\.\(md\|txt\)\))' docs/README.md | sed 's/^](\(.*\))$/\1/'); do
  if [ ! -e "docs/$name" ]; then
    echo "error: docs/README.md lists docs/$name, which does not exist" >&2
    missing=1
  fi
done
if [ "$missing" != 0 ]; then
  exit 1
fi
echo "docs index: every page of docs/ listed"
