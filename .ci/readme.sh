#!/usr/bin/env bash
# The README's shell blocks, in order, in a fresh clone of this checkout's
# HEAD and a fresh venv (issue 31): scripts/readme_blocks.py clones into a
# temporary folder, runs each shell block (```sh, ```bash, …) there as a reader would (cargo
# install into a temporary root), and removes it all. Blocks that cannot run
# in CI say why in the README (<!-- readme-test: … -->). The builds of a fresh clone take most of the time (see .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
# One target folder for every block's builds (README_BLOCKS_TARGET_DIR): the
# clone, the venv and the commands are fresh; cargo's build cache is shared,
# and it is CI's own target/ (issue 43): the dependencies CI has built
# already (release for `cargo install` and `cargo run --release`, debug for
# the Rust example) are reused, and only the clone's own crates (another
# path: other artifacts beside CI's) and the wheel are built.
# The README's shell blocks and the outputs it shows (`# prints …`), counted:
# a fence changed to a language not run, or a block or output lost, fails
# (issue 43). Change these figures with the README.
README_BLOCKS=6
README_OUTPUTS=2
# The binary `cargo install --locked --path .` built (release, from the
# clone of HEAD) is kept as target/readme-install/linkbase: CI's test-hooks
# and perf steps read it instead of building the release binary again.
README_BLOCKS_TARGET_DIR="$PWD/target" README_BLOCKS_KEEP_BIN="$PWD/target/readme-install/linkbase" \
  python3 scripts/readme_blocks.py run . "$README_BLOCKS" "$README_OUTPUTS"
