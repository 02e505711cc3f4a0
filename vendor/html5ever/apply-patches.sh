#!/usr/bin/env bash
# Rebuild linkbase's html5ever from the pristine crates.io html5ever 0.40.1
# and the patch series in patches/, and compare the result with this
# directory (PATCHES.md, "The series").
#
#   apply-patches.sh                 apply the series; exit 1 unless the result
#                                    equals vendor/html5ever (what CI runs)
#   apply-patches.sh --diff          print, as a patch for `patch -p1`, what
#                                    vendor/html5ever has beyond upstream + the
#                                    series (empty when they agree); exit 0
#   apply-patches.sh --out DIR [--upto NNNN]
#                                    write upstream + the series (or its patches
#                                    up to NNNN) to DIR, with upstream's own
#                                    tests/, benches/, examples/ and data/, and
#                                    the tests the patches add
#   apply-patches.sh --check-steps  `cargo check --lib --tests` after each patch
#                                    (upstream's tests and the patches' tests
#                                    type-checked with it)
#   apply-patches.sh --test [--upto NNNN]
#                                    as --out, then `cargo test --tests` there
#                                    (upstream's tests and the patches' tests;
#                                    a minimal Cargo.toml without upstream's
#                                    dev-dependencies, linkbase's Cargo.lock)
#
# The pristine crate is the `html5ever-0.40.1.crate` of cargo's cache, its
# SHA-256 checked against PRISTINE_SHA256 (crates.io's checksum, also in
# linkbase's Cargo.lock); when the cache lacks it, a throwaway project that
# depends on html5ever = "=0.40.1" fetches it (`cargo fetch`).
# Patches apply in file-name order with `patch -p1 -F0` (no fuzz).
set -euo pipefail

VERSION=0.40.1
PRISTINE_SHA256=456a1a377e608e555d22ddab27ac0114bc7a7b4199078108e34c2aeae6c9b130
# Files of vendor/html5ever that are linkbase's own, not upstream's plus the
# series: not compared.
OWN_FILES=(patches PATCHES.md apply-patches.sh target)
# Upstream files left out of vendor/html5ever (the library does not need them
# to build), and the tests the patches add for upstream: not compared.
LEFT_OUT=(benches examples tests data Cargo.toml.orig Cargo.lock .cargo_vcs_info.json .cargo-ok)

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
mode=check out= upto=
while [ $# -gt 0 ]; do
    case "$1" in
        --diff) mode=diff ;;
        --test) mode=test ;;
        --check-steps) mode=steps ;;
        --out) mode=out; out=${2:?--out needs a directory}; shift ;;
        --upto) upto=${2:?--upto needs a patch number}; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "apply-patches.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The .crate file: cargo's cache, else fetched by a throwaway project.
find_crate() {
    local cargo_home=${CARGO_HOME:-$HOME/.cargo}
    ls "$cargo_home"/registry/cache/*/html5ever-$VERSION.crate 2>/dev/null | head -n 1
}
crate=$(find_crate || true)
if [ -z "$crate" ]; then
    mkdir -p "$work/fetch/src"
    printf '[package]\nname = "fetch-html5ever"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\nhtml5ever = "=%s"\n\n[workspace]\n' \
        "$VERSION" > "$work/fetch/Cargo.toml"
    : > "$work/fetch/src/lib.rs"
    (cd "$work/fetch" && cargo fetch -q)
    crate=$(find_crate || true)
    [ -n "$crate" ] || { echo "apply-patches.sh: could not fetch html5ever $VERSION" >&2; exit 2; }
fi
sum=$(sha256sum "$crate" | cut -d' ' -f1)
if [ "$sum" != "$PRISTINE_SHA256" ]; then
    echo "apply-patches.sh: $crate has SHA-256 $sum, not crates.io's $PRISTINE_SHA256" >&2
    exit 2
fi
mkdir -p "$work/a"
tar -xzf "$crate" -C "$work/a" --strip-components=1

# Make the tree in $1 buildable alone for tests: upstream's Cargo.toml (or
# the packaging patch's) names benches and dev-dependencies the tests here do
# not use, so a minimal one; the library keeps the name `html5ever` for
# upstream's tests; linkbase's Cargo.lock pins the dependencies.
make_testable() {
    {
        printf '[package]\nname = "html5ever"\nversion = "%s"\nedition = "2021"\nautobenches = false\nautoexamples = false\n\n' "$VERSION"
        printf '[lib]\npath = "src/lib.rs"\n\n[features]\nserde = ["markup5ever/serde"]\ntrace_tokenizer = []\n\n'
        printf '[dependencies]\nlog = "0.4"\nmarkup5ever = "0.40"\nmemchr = "2.8.0"\n\n[workspace]\n'
    } > "$1/Cargo.toml"
    sed -i 's|^// linkbase patch: no `#!\[crate_name = "html5ever"\]`.*|#![crate_name = "html5ever"]|' "$1/src/lib.rs"
    cp "$root/Cargo.lock" "$1/Cargo.lock"
}
target_dir=${CARGO_TARGET_DIR:-$root/target/html5ever-series}

# The series, in order.
applied=0
for p in "$here"/patches/[0-9][0-9][0-9][0-9]-*.patch; do
    name=$(basename "$p")
    if ! out_text=$(patch -d "$work/a" -p1 -F0 -N -t --no-backup-if-mismatch -s -i "$p" 2>&1); then
        echo "apply-patches.sh: $name does not apply to upstream $VERSION + the patches before it:" >&2
        echo "$out_text" >&2
        exit 1
    fi
    if [ -n "$out_text" ]; then
        # Offsets are fine; anything else (fuzz is off) is reported.
        echo "$name: $out_text" >&2
    fi
    applied=$((applied + 1))
    if [ "$mode" = steps ]; then
        rm -rf "$work/step" && cp -r "$work/a" "$work/step" && make_testable "$work/step"
        if (cd "$work/step" && CARGO_TARGET_DIR="$target_dir" cargo check -q --lib --tests); then
            echo "$name: builds"
        else
            echo "apply-patches.sh: upstream + the series up to $name does not build" >&2
            exit 1
        fi
    fi
    if [ -n "$upto" ] && [ "${name:0:4}" = "$upto" ]; then
        break
    fi
done
if [ -n "$upto" ] && [ "${name:0:4}" != "$upto" ]; then
    echo "apply-patches.sh: no patch numbered $upto" >&2
    exit 2
fi

case "$mode" in
out)
    rm -rf "$out"
    mkdir -p "$(dirname "$out")"
    cp -r "$work/a" "$out"
    echo "upstream html5ever $VERSION + $applied patches: $out"
    exit 0
    ;;
test)
    make_testable "$work/a"
    (cd "$work/a" && CARGO_TARGET_DIR="$target_dir" cargo test -q --tests)
    exit $?
    ;;
steps)
    exit 0
    ;;
esac

# Compare with vendor/html5ever: its kept files on the right.
mkdir -p "$work/b"
(cd "$here" && tar -cf - --exclude=./patches --exclude=./PATCHES.md --exclude=./apply-patches.sh --exclude=./target .) | tar -xf - -C "$work/b"
excludes=()
for f in "${OWN_FILES[@]}" "${LEFT_OUT[@]}"; do excludes+=(-x "$f"); done
if [ "$mode" = diff ]; then
    (cd "$work" && diff -ruN "${excludes[@]}" a b) |
        sed -e 's|^\(--- a/[^\t]*\)\t.*|\1|' -e 's|^\(+++ b/[^\t]*\)\t.*|\1|' || true
    exit 0
fi
if (cd "$work" && diff -rq "${excludes[@]}" a b); then
    echo "vendor/html5ever = upstream html5ever $VERSION + the $applied patches of vendor/html5ever/patches"
else
    echo "apply-patches.sh: vendor/html5ever differs from upstream html5ever $VERSION + its patches (above);" >&2
    echo "  'vendor/html5ever/apply-patches.sh --diff' prints the difference as a patch (PATCHES.md, \"Adding a patch\")" >&2
    exit 1
fi
