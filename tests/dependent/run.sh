#!/usr/bin/env bash
# Build and run tests/dependent as a stranger's project would use linkbase:
# 1. by path (its Cargo.toml as committed);
# 2. by git: a copy of it whose dependency is `git = "file://<this repository>"`
#    at the committed HEAD, so what is tested is what a `git =` user gets
#    (uncommitted changes are not in it: commit first).
# Neither has a `[patch]`; each resolves its own dependencies afresh, as a new
# project would (no lock file is kept for them).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$repo/target/dependent}"

echo "-- dependent by path"
(cd "$here" && cargo run --quiet --target-dir "$target")

echo "-- dependent by git (file://$repo at $(git -C "$repo" rev-parse --short HEAD))"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$here/src" "$work/"
# (cargo finds the package named `linkbase` in the repository, crates/linkbase.)
sed -e "s|^linkbase = { path = \"../../crates/linkbase\" }|linkbase = { git = \"file://$repo\", rev = \"$(git -C "$repo" rev-parse HEAD)\" }|" \
  "$here/Cargo.toml" >"$work/Cargo.toml"
grep -q '^linkbase = { git = ' "$work/Cargo.toml"
(cd "$work" && cargo run --quiet --target-dir "$target")
