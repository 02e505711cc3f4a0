#!/usr/bin/env bash
# The README's shell blocks, in order, in a fresh clone of this checkout's
# HEAD and a fresh venv (issue 31): scripts/readme_blocks.py clones into a
# temporary folder, runs each ```sh block there as a reader would (cargo
# install into a temporary root), and removes it all. Blocks that cannot run
# in CI say why in the README (<!-- readme-test: … -->). The builds of a fresh clone take most of the time (see .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
# One target folder for every block's builds (README_BLOCKS_TARGET_DIR): the
# clone, the venv and the commands are fresh; cargo's build cache is shared.
README_BLOCKS_TARGET_DIR="$PWD/target/readme" python3 scripts/readme_blocks.py run .
