#!/usr/bin/env bash
# Docs that say what is (issue 30): what the docs show of the code is drawn
# from the code, and must be current. scripts/module-graph.py --check: the
# pictures of the crates, modules and imports in docs/architecture.md (the
# tree's, and c10f936's when the clone has that commit). Nothing is built;
# about 5 s.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/module-graph.py --check
# The figures the code decides (fuzz targets, fixture cases, modules, the
# public API's size), marked in the docs <!-- figure: NAME -->: counted.
python3 scripts/doc-figures.py --check
