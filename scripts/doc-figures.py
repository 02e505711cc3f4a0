#!/usr/bin/env python3
"""Figures in the docs that the code decides, counted from the code, not typed.

    scripts/doc-figures.py            print every figure the script knows, with its value
    scripts/doc-figures.py --write    fill in every marked figure in the docs
    scripts/doc-figures.py --check    exit 1, naming each figure that is not current

A figure in a Markdown file (README.md, CHANGELOG.md is history and never
touched, docs/*.md, fixtures/README.md, python/README.md) is marked where it
stands, inline, with HTML comments that no Markdown viewer shows:

    Every <!-- figure: fuzz_targets -->7<!-- /figure --> target …

`--write` replaces what stands between the two comments with the figure's
value; `--check` (CI: .ci/docs.sh) fails when any differs, or names a figure
the script does not know. The figures (see FIGURES below) are the kind that
change only on purpose, with a change they describe: a new fuzz target, a
fixture case, a module, a public item. Line counts are not among them: they
change with every commit, and a figure that must be rewritten by every
commit says nothing; docs give none.
"""

import re
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIGURE = re.compile(r"<!-- figure: ([a-z0-9_]+) -->(.*?)<!-- /figure -->")


def fixture_cases(folder):
    """Case folders under fixtures/<folder>/ (every folder is a case)."""
    return sum(1 for p in (REPO / "fixtures" / folder).iterdir() if p.is_dir())


def fuzz_targets():
    manifest = tomllib.loads((REPO / "fuzz" / "Cargo.toml").read_text(encoding="utf-8"))
    return len(manifest.get("bin", []))


def public_api():
    lines = [l for l in (REPO / "docs" / "public-api.txt").read_text(encoding="utf-8").splitlines()
             if l and not l.startswith("#")]
    return lines


def public_api_root():
    """Names a dependent reaches as `linkbase::X` (modules included)."""
    names = set()
    for line in public_api():
        kind, _, path = line.partition(" ")
        parts = path.split(" ")[0].split("::")
        if len(parts) == 2 and kind not in ("field", "variant", "method", "assoc-const",
                                             "assoc-type", "trait-method"):
            names.add(parts[1])
    return len(names)


def workspace_members():
    root = tomllib.loads((REPO / "Cargo.toml").read_text(encoding="utf-8"))
    return len(root.get("workspace", {}).get("members", ["."]))


def library_modules():
    """The library's top-level modules: the layer order of crates/linkbase/src/lib.rs ("Inside")."""
    import importlib.util
    sys.dont_write_bytecode = True   # no scripts/__pycache__ left in the checkout
    spec = importlib.util.spec_from_file_location("module_graph", REPO / "scripts" / "module-graph.py")
    graph = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(graph)
    return len(graph.layer_order((REPO / "crates" / "linkbase" / "src" / "lib.rs").read_text(encoding="utf-8")))


FIGURES = {
    "fuzz_targets": fuzz_targets,
    "fixtures_html": lambda: fixture_cases("html"),
    "fixtures_mime": lambda: fixture_cases("mime"),
    "fixtures_css": lambda: fixture_cases("css"),
    "fixtures_xhtml": lambda: fixture_cases("xhtml"),
    "fixtures_warc": lambda: fixture_cases("warc"),
    "fixtures_feed": lambda: fixture_cases("feed"),
    "fixtures_offline_links": lambda: fixture_cases("offline/links"),
    "public_api_items": lambda: len(public_api()),
    "public_api_root": public_api_root,
    "workspace_crates": workspace_members,
    "library_modules": library_modules,
}


def documents():
    found = [REPO / "README.md", REPO / "fixtures" / "README.md", REPO / "python" / "README.md"]
    found += sorted((REPO / "docs").glob("*.md"))
    return [p for p in found if p.is_file()]


def main(argv):
    if len(argv) == 1:
        for name, figure in FIGURES.items():
            print(f"{name}\t{figure()}")
        return 0
    if len(argv) != 2 or argv[1] not in ("--write", "--check"):
        sys.exit(__doc__)
    values, stale, unknown = {}, [], []
    for path in documents():
        text = path.read_text(encoding="utf-8")

        def fill(m):
            name = m.group(1)
            if name not in FIGURES:
                unknown.append(f"{path.relative_to(REPO)}: unknown figure `{name}`")
                return m.group(0)
            if name not in values:
                values[name] = str(FIGURES[name]())
            if m.group(2) != values[name]:
                stale.append(f"{path.relative_to(REPO)}: {name} is {values[name]}, "
                             f"the text says {m.group(2)!r}")
            return f"<!-- figure: {name} -->{values[name]}<!-- /figure -->"

        new = FIGURE.sub(fill, text)
        if argv[1] == "--write" and new != text:
            path.write_text(new, encoding="utf-8")
            print(f"doc-figures: wrote {path.relative_to(REPO)}")
    for line in unknown:
        print(line, file=sys.stderr)
    if argv[1] == "--check":
        for line in stale:
            print(line, file=sys.stderr)
        if stale or unknown:
            print("doc-figures: run scripts/doc-figures.py --write and commit", file=sys.stderr)
            return 1
        print(f"doc-figures: {len(values)} figures current")
    return 1 if unknown else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
