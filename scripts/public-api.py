#!/usr/bin/env python3
"""List the linkbase library's public API, one item a line, from rustdoc's JSON.

    scripts/public-api.py            # print the listing (builds the JSON first)
    scripts/public-api.py --check    # exit 1, with a diff, when docs/public-api.txt differs
    scripts/public-api.py --write    # write docs/public-api.txt

The listing holds every item a dependent can name: each path with its kind
(`mod`, `fn`, `struct`, `enum`, `trait`, `const`, `static`, `type`, `macro`),
each public field and enum variant, each public inherent method and
associated constant, each trait's methods, and `#[non_exhaustive]` where it is
set. It is built for the library as a dependent uses it, without the
command line (crates/linkbase). It does not render signatures: a
changed argument type shows in the dependent's build (tests/dependent), a
new or removed name shows here. CI runs `--check`, so every change to the
public API is made deliberately, with this file in the same commit
(docs/library.md, "The public API").

rustdoc's JSON output is unstable: the script asks the stable toolchain for it
with RUSTC_BOOTSTRAP=1 (as docs.rs-style tools do) and reads format versions
it knows (57 and near: the fields it uses have been stable since 40).
"""

import difflib
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LISTING = REPO / "docs" / "public-api.txt"


def build_json() -> dict:
    env = dict(os.environ, RUSTC_BOOTSTRAP="1")
    subprocess.run(
        ["cargo", "rustdoc", "--quiet", "--lib", "-p", "linkbase",
         "--", "-Z", "unstable-options", "--output-format", "json"],
        cwd=REPO, env=env, check=True)
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    with open(target / "doc" / "linkbase.json", encoding="utf-8") as f:
        return json.load(f)


def listing(doc: dict) -> list:
    index = doc["index"]
    lines = set()

    def item(i):
        return index.get(str(i))

    def non_exhaustive(it) -> str:
        attrs = it.get("attrs") or []
        text = json.dumps(attrs)
        return " #[non_exhaustive]" if "non_exhaustive" in text else ""

    def walk_module(path: str, module_id, seen: set):
        it = item(module_id)
        if it is None or module_id in seen:
            return
        seen = seen | {module_id}
        for child_id in it["inner"]["module"]["items"]:
            child = item(child_id)
            if child is None or child.get("visibility") != "public":
                continue
            kind = next(iter(child["inner"]))
            if kind == "use":
                use = child["inner"]["use"]
                target = item(use["id"]) if use.get("id") is not None else None
                if use.get("is_glob"):
                    if target is not None and "module" in target["inner"]:
                        walk_module(path, use["id"], seen)
                    continue
                if target is None:
                    lines.add(f"{path}::{use['name']} (re-export of an outside item: {use['source']})")
                    continue
                describe(f"{path}::{use['name']}", target, use["id"], seen)
            else:
                describe(f"{path}::{child['name']}", child, child_id, seen)

    def describe(path: str, it, it_id, seen: set):
        kind = next(iter(it["inner"]))
        inner = it["inner"][kind]
        if kind == "module":
            lines.add(f"mod {path}")
            walk_module(path, it_id, seen)
            return
        shown = {"function": "fn", "struct": "struct", "enum": "enum", "trait": "trait",
                 "constant": "const", "static": "static", "type_alias": "type",
                 "macro": "macro", "union": "union"}.get(kind, kind)
        lines.add(f"{shown} {path}{non_exhaustive(it)}")
        if kind == "struct":
            fields = inner.get("kind", {})
            plain = fields.get("plain") if isinstance(fields, dict) else None
            if plain:
                for f in plain.get("fields", []):
                    field = item(f)
                    if field is not None and field.get("visibility") == "public":
                        lines.add(f"field {path}::{field['name']}")
        if kind == "enum":
            for v in inner.get("variants", []):
                variant = item(v)
                if variant is not None:
                    lines.add(f"variant {path}::{variant['name']}{non_exhaustive(variant)}")
        if kind == "trait":
            for m in inner.get("items", []):
                method = item(m)
                if method is not None:
                    lines.add(f"trait-item {path}::{method['name']}")
        for impl_id in inner.get("impls", []) if isinstance(inner, dict) else []:
            impl = item(impl_id)
            if impl is None:
                continue
            data = impl["inner"].get("impl", {})
            if data.get("trait") is not None or data.get("is_synthetic") or data.get("blanket_impl"):
                continue
            for m in data.get("items", []):
                method = item(m)
                if method is None or method.get("visibility") != "public":
                    continue
                mkind = next(iter(method["inner"]))
                label = {"function": "method", "assoc_const": "assoc-const",
                         "constant": "assoc-const"}.get(mkind, mkind)
                lines.add(f"{label} {path}::{method['name']}")

    walk_module("linkbase", doc["root"], set())
    return sorted(lines)


def main() -> int:
    lines = listing(build_json())
    text = "".join(line + "\n" for line in lines)
    header = ("# The public API of the linkbase library (crates/linkbase, cargo rustdoc JSON),\n"
              "# one item a line. Made by scripts/public-api.py --write; CI checks it (--check).\n")
    if "--write" in sys.argv:
        LISTING.write_text(header + text, encoding="utf-8")
        print(f"{len(lines)} items written to {LISTING.relative_to(REPO)}")
        return 0
    if "--check" in sys.argv:
        old = LISTING.read_text(encoding="utf-8") if LISTING.exists() else ""
        new = header + text
        if old != new:
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), new.splitlines(True),
                "docs/public-api.txt (committed)", "the public API now"))
            print("\nThe public API changed: if that is meant, run scripts/public-api.py --write "
                  "and commit docs/public-api.txt with the change.", file=sys.stderr)
            return 1
        print(f"public API: {len(lines)} items, as docs/public-api.txt lists")
        return 0
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
