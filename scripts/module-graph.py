#!/usr/bin/env python3
"""The picture of the workspace's crates, their modules and their imports.

    scripts/module-graph.py [REV]      print the picture of REV (default: the working tree)
    scripts/module-graph.py --write    write the pictures into docs/architecture.md
    scripts/module-graph.py --check    exit 1, with a diff, when docs/architecture.md
                                       is not what --write would write

What it reads, as text (nothing is built): the workspace members of the root
Cargo.toml, each member's Cargo.toml (its library and binary roots, and the
other members it depends on, under which key), and every `.rs` file its roots
reach. A crate's modules are the `mod NAME;` its root declares (`#[cfg(test)]`
ones left out); a file belongs to the top-level module its path starts with.
An import is a path in code (comments and strings aside; `use` lines and paths
inline alike): `crate::m…`, `super::…` and `self::…` resolved to a top-level
module of the same crate, a root re-export (`crate::Options`) counted as the
module that `pub use` takes it from, a bare `m::…` in the crate root; and
`key::…` for a workspace member the crate depends on as `key`, counted as the
member's module that defines the name (its root re-exports followed). The
same rules as tests/integration/layers.rs, which enforces them for the library.

The picture is Mermaid (GitHub and most Markdown viewers draw it; nothing to
install): one box per crate, one node per top-level module, in the library's
layer order (the crate overview in crates/linkbase/src/lib.rs, "Inside"); an arrow A --> B
when A imports B. Within a crate, an arrow that a chain of other arrows
already implies is left out (transitive reduction; every import is listed in
full below the picture). Between crates, one arrow from the importing crate
to each module of the other it imports. Members under vendor/ (the html5ever
fork) are one node each: their inside is upstream's.

docs/architecture.md holds each picture between markers:

    <!-- module-graph: REV -->  …  <!-- /module-graph -->

`--write` draws REV there (`now` is the working tree), a
revision from git's history. `--check` checks the working tree's
picture, and a revision's when git has it (a shallow clone may not: then it
says so and skips it).
"""

import difflib
import re
import subprocess
import sys
import tomllib
from pathlib import Path, PurePosixPath

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "architecture.md"
MARKER = re.compile(r"^<!-- module-graph: (\S+) -->$")
END = "<!-- /module-graph -->"


# --- reading a tree: the working tree or a git revision ----------------------

class Tree:
    """The files of the working tree (rev None) or of a git revision."""

    def __init__(self, rev=None):
        self.rev = rev
        if rev is None:
            out = git("ls-files", "-z", "--cached", "--others", "--exclude-standard")
            self.paths = {p for p in out.split("\0") if p and (REPO / p).is_file()}
        else:
            out = git("ls-tree", "-r", "-z", "--name-only", rev)
            self.paths = {p for p in out.split("\0") if p}
        self.cache = {}

    def exists(self, path):
        return str(path) in self.paths

    def read(self, path):
        path = str(path)
        if path not in self.cache:
            if self.rev is None:
                self.cache[path] = (REPO / path).read_text(encoding="utf-8")
            else:
                self.cache[path] = git("show", f"{self.rev}:{path}")
        return self.cache[path]


def git(*args):
    return subprocess.run(["git", *args], cwd=REPO, check=True, capture_output=True,
                          text=True).stdout


def has_revision(rev):
    return subprocess.run(["git", "cat-file", "-e", f"{rev}^{{commit}}"], cwd=REPO,
                          capture_output=True).returncode == 0


# --- Rust source as tokens (the rules of tests/integration/layers.rs) ----------------------

def code_only(text):
    """`text` with comments and the insides of string and char literals blanked."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "/" and nxt == "/":
            while i < n and text[i] != "\n":
                i += 1
        elif c == "/" and nxt == "*":
            depth = 0
            while i < n:
                if text.startswith("/*", i):
                    depth += 1
                    i += 2
                elif text.startswith("*/", i):
                    depth -= 1
                    i += 2
                    if depth == 0:
                        break
                else:
                    out.append("\n" if text[i] == "\n" else " ")
                    i += 1
        elif c == "r" and nxt in "\"#" and (i == 0 or text[i - 1] == "b"
                                            or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.compile(r'(#*)"').match(text, i + 1)
            if not m:
                out.append(c)
                i += 1
                continue
            close = '"' + m.group(1)
            end = text.find(close, m.end())
            end = n if end < 0 else end
            out.append('r"' + re.sub(r"[^\n]", " ", text[m.end():end]) + '"')
            i = end + len(close)
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('"' + re.sub(r"[^\n]", " ", text[i + 1:j]) + '"')
            i = j + 1
        elif c == "'":
            if nxt == "\\":
                end = text.find("'", i + 3)
                out.append("' '")
                i = n if end < 0 else end + 1
            elif i + 2 < n and text[i + 2] == "'":
                out.append("' '")
                i += 3
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|::|\S")


def tokens(text):
    return TOKEN.findall(code_only(text))


def is_ident(t):
    return re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", t) is not None


def path_at(toks, j, prefix):
    """The paths starting at toks[j] under prefix: one, or one per item of a {…} group."""
    path = list(prefix)
    while j < len(toks):
        t = toks[j]
        if t == "{":
            out, depth, item_start = [], 0, True
            for k in range(j, len(toks)):
                tk = toks[k]
                if tk == "{":
                    depth += 1
                    if depth == 1:
                        continue
                elif tk == "}":
                    depth -= 1
                    if depth == 0:
                        break
                elif tk == "," and depth == 1:
                    item_start = True
                    continue
                if depth == 1 and item_start:
                    item_start = False
                    out.extend([path] if tk == "self" else path_at(toks, k, path))
            return out
        if not is_ident(t) or t == "self":
            return [path]
        path = path + [t]
        if j + 1 < len(toks) and toks[j + 1] == "::":
            j += 2
        else:
            return [path]
    return []


def paths_in(module, text, externs):
    """Every path of `text` (the file of `module`) that leaves it: ("crate", [...]) for
    crate::/super::/self:: paths, made absolute, and (key, [...]) for a path into an
    extern crate whose key is in `externs`."""
    toks = tokens(text)
    found = []
    inline, depth = [], 0
    for i, t in enumerate(toks):
        if t == "{":
            depth += 1
            if i >= 2 and toks[i - 2] == "mod" and is_ident(toks[i - 1]):
                inline.append((depth, toks[i - 1]))
        elif t == "}":
            if inline and inline[-1][0] == depth:
                inline.pop()
            depth = max(depth - 1, 0)
        if i + 1 >= len(toks) or toks[i + 1] != "::" or (i > 0 and toks[i - 1] == "::"):
            continue
        here = list(module) + [name for _, name in inline]
        if t == "crate":
            found += [("crate", p) for p in path_at(toks, i + 2, [])]
        elif t == "self":
            found += [("crate", p) for p in path_at(toks, i + 2, here)]
        elif t == "super":
            j = i
            while j + 1 < len(toks) and toks[j] == "super" and toks[j + 1] == "::":
                here = here[:-1]
                j += 2
            found += [("crate", p) for p in path_at(toks, j, here)]
        elif t in externs:
            found += [(t, p) for p in path_at(toks, i + 2, [])]
    # `use key;` / `use key::{…}` where the group opens right after `use`
    for i, t in enumerate(toks[:-1]):
        if t == "use" and toks[i + 1] == "{":
            for p in path_at(toks, i + 1, []):
                if p and p[0] in externs:
                    found.append((p[0], p[1:]))
    return found


def declared_modules(root_text):
    """The `mod NAME;` of a crate root, `#[cfg(test)]` ones left out, in order."""
    toks = tokens(root_text)
    names = []
    for i in range(len(toks) - 2):
        if toks[i] == "mod" and is_ident(toks[i + 1]) and toks[i + 2] == ";":
            back = toks[max(0, i - 12):i]
            attr = " ".join(back)
            test_only = re.search(r"cfg \( test \) \]\s*(pub\s*(\( crate \))?\s*)?$", attr)
            if not test_only:
                names.append(toks[i + 1])
    return names


def root_reexports(root_text):
    """name → the top-level module a root `pub use` takes it from."""
    toks = tokens(root_text)
    names = {}
    for i, t in enumerate(toks):
        if t != "use" or i == 0 or toks[i - 1] not in ("pub", ")"):
            continue
        at = i + 1
        if at + 1 < len(toks) and toks[at] in ("crate", "self") and toks[at + 1] == "::":
            at += 2
        module = toks[at]
        end = toks.index(";", at) if ";" in toks[at:] else len(toks)
        for p in path_at(toks[:end], at, []):
            if p and p[-1] != "self":
                names[p[-1]] = module
            elif p:
                names[p[-2] if len(p) > 1 else p[0]] = module
            # `as NEW` renames
        for k in range(at, end - 2):
            if toks[k] == "as" and is_ident(toks[k + 1]):
                names[toks[k + 1]] = module
    return names


def layer_order(lib_text):
    """The library's layer order: the modules named at the start of each bullet of
    the crate overview's "Inside" list (crates/linkbase/src/lib.rs), as tests/integration/layers.rs reads it."""
    order, inside = [], False
    for line in lib_text.splitlines():
        if not line.startswith("//!"):
            continue
        body = line[3:].strip()
        if body.startswith("## "):
            inside = body == "## Inside"
            continue
        if inside and body.startswith("- "):
            head = body[2:].split(":", 1)[0]
            order += re.findall(r"\[?`([a-z_]+)`\]?", head)
    return order


# --- the workspace -----------------------------------------------------------------

class Crate:
    def __init__(self, name, kind, directory, root, deps, collapsed):
        self.name, self.kind, self.dir, self.root = name, kind, directory, root
        self.deps = deps            # code key → member package name
        self.collapsed = collapsed
        self.modules = []           # top-level modules, in order
        self.reexports = {}
        self.edges = {}             # module → {module}
        self.uses = {}              # other crate id → {its module}
        self.uses_whole = {}        # module → {collapsed crate id}

    @property
    def id(self):
        if self.kind != "bin":
            return self.name
        return f"{self.name} (bin)" if self.package == self.name else f"{self.package} (bin {self.name})"


def workspace(tree):
    root = tomllib.loads(tree.read("Cargo.toml"))
    members = root.get("workspace", {}).get("members", ["."])
    ws_deps = root.get("workspace", {}).get("dependencies", {})
    packages = {}
    for m in members:
        manifest_path = PurePosixPath(m) / "Cargo.toml"
        if not tree.exists(str(manifest_path).removeprefix("./")):
            continue
        packages[PurePosixPath(m)] = tomllib.loads(tree.read(str(manifest_path).removeprefix("./")))
    by_dir = {d: p["package"]["name"] for d, p in packages.items()}
    crates = []
    for d, manifest in packages.items():
        name = manifest["package"]["name"]
        deps = {}
        for key, spec in manifest.get("dependencies", {}).items():
            if isinstance(spec, dict) and spec.get("workspace"):
                spec = ws_deps.get(key, {})
            base = PurePosixPath(".") if spec is ws_deps.get(key) else d
            if isinstance(spec, dict) and "path" in spec:
                target = PurePosixPath(norm(base / spec["path"]))
                if target in by_dir:
                    deps[key.replace("-", "_")] = by_dir[target]
        collapsed = str(d).startswith("vendor/")
        lib = manifest.get("lib", {})
        lib_root = d / lib.get("path", "src/lib.rs")
        lib_name = lib.get("name", name).replace("-", "_")
        if tree.exists(norm(lib_root)):
            c = Crate(name, "lib", d, lib_root, deps, collapsed)
            c.code_name = lib_name
            crates.append(c)
        bins = manifest.get("bin", [])
        if not bins and tree.exists(norm(d / "src/main.rs")):
            bins = [{"name": name, "path": "src/main.rs"}]
        for b in bins:
            root_path = d / b.get("path", f"src/bin/{b['name']}.rs")
            if tree.exists(norm(root_path)):
                c = Crate(b["name"], "bin", d, root_path, dict(deps), collapsed)
                c.package = name
                if any(x.kind == "lib" and x.dir == d for x in crates):
                    c.deps[lib_name] = name   # a package's binary uses its library
                crates.append(c)
    return crates


def norm(p):
    """A relative path with its `.` and `..` steps taken."""
    parts = []
    for part in PurePosixPath(p).parts:
        if part == "..":
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts) or "."


def read_crates(tree):
    crates = workspace(tree)
    libs = {c.name: c for c in crates if c.kind == "lib"}
    for c in crates:
        if c.collapsed:
            continue
        root_text = tree.read(norm(c.root))
        c.modules = declared_modules(root_text)
        c.reexports = root_reexports(root_text)
        if c.kind == "lib" and c.name == "linkbase":
            order = layer_order(root_text)
            c.modules.sort(key=lambda m: (order.index(m) if m in order else len(order), m))
        src = PurePosixPath(norm(c.root)).parent
        files = []
        for p in sorted(tree.paths):
            pp = PurePosixPath(p)
            if pp.suffix != ".rs" or src not in pp.parents:
                continue
            rel = pp.relative_to(src)
            top = rel.parts[0].removesuffix(".rs")
            if pp == PurePosixPath(norm(c.root)):
                files.append((pp, [], "(root)"))
            elif top in c.modules:
                files.append((pp, module_path(rel), top))
        for pp, module, top in files:
            text = tree.read(str(pp))
            for kind, path in paths_in(module, text, c.deps):
                if kind == "crate":
                    target = own_target(c, path)
                    if target and target != top:
                        c.edges.setdefault(top, set()).add(target)
                else:
                    other = libs.get(c.deps[kind])
                    if other is None:
                        continue
                    if other.collapsed:
                        # a collapsed crate: the arrow starts at the module that uses it
                        c.uses_whole.setdefault(top, set()).add(other.id)
                    else:
                        c.uses.setdefault(other.id, set()).add(foreign_target(other, path, tree))
            if top == "(root)":
                # a crate root names its own modules without `crate::`
                for path in bare_paths(text, c.modules):
                    c.edges.setdefault(top, set()).add(path)
        for m in list(c.edges):
            c.edges[m].discard(m)
    return crates


def own_target(c, path):
    if not path:
        return None
    head = path[0]
    if head in c.modules:
        return head
    return c.reexports.get(head)


def foreign_target(other, path, tree):
    if other.collapsed or not path:
        return None
    if not other.modules:
        root_text = tree.read(norm(other.root))
        other.modules = declared_modules(root_text)
        other.reexports = root_reexports(root_text)
    head = path[0]
    if head in other.modules:
        return head
    return other.reexports.get(head)


def bare_paths(text, modules):
    """The crate's own modules a crate root names without `crate::` (its `pub use`
    re-exports left out: a re-export is the module's public face, no import)."""
    toks = tokens(text)
    found, i, in_pub_use = set(), 0, False
    for i, t in enumerate(toks[:-1]):
        if t == "use" and i > 0 and toks[i - 1] in ("pub", ")"):
            in_pub_use = True
        elif t == ";":
            in_pub_use = False
        if in_pub_use or t not in modules or toks[i + 1] != "::":
            continue
        if i == 0 or toks[i - 1] != "::":
            found.add(t)
    return found


def module_path(rel):
    parts = list(rel.parts)
    last = parts.pop().removesuffix(".rs")
    if last not in ("mod", "lib", "main"):
        parts.append(last)
    return parts


# --- drawing ------------------------------------------------------------------------

def reduce(edges):
    """The transitive reduction of an acyclic import graph (edges inside a circle kept)."""
    def reach(a, skip):
        seen, stack = set(), [b for b in edges.get(a, ()) if (a, b) != skip]
        while stack:
            x = stack.pop()
            if x in seen:
                continue
            seen.add(x)
            stack.extend(edges.get(x, ()))
        return seen
    kept = {}
    for a, bs in edges.items():
        for b in bs:
            if b in reach(a, (a, b)) and a not in reach(b, None):
                continue
            kept.setdefault(a, set()).add(b)
    return kept


def ident(*parts):
    return "_".join(re.sub(r"[^A-Za-z0-9]", "_", p) for p in parts)


def draw(tree, label):
    crates = read_crates(tree)
    by_id = {c.id: c for c in crates}
    out = ["```mermaid", "flowchart TB"]
    for c in crates:
        cid = ident(c.id)
        where = norm(c.dir)
        title = f"{c.id} · {where}/" if where != "." else f"{c.id} · ./"
        if c.collapsed:
            out.append(f'  {cid}[["{title}"]]')
            continue
        out.append(f'  subgraph {cid}["{title}"]')
        nodes = list(c.modules) + (["(root)"] if "(root)" in c.edges else [])
        for m in nodes:
            name = PurePosixPath(norm(c.root)).name if m == "(root)" else m
            out.append(f'    {ident(c.id, m)}["{name}"]')
        for a, bs in sorted(reduce(c.edges).items(), key=lambda kv: nodes.index(kv[0])):
            for b in sorted(bs, key=nodes.index):
                out.append(f"    {ident(c.id, a)} --> {ident(c.id, b)}")
        out.append("  end")
    for c in crates:
        for m, others in sorted(c.uses_whole.items()):
            for other_id in sorted(others):
                out.append(f"  {ident(c.id, m)} --> {ident(other_id)}")
        for other_id, targets in sorted(c.uses.items()):
            other = by_id[other_id]
            for t in sorted(t for t in targets if t) or [None]:
                out.append(f"  {ident(c.id)} --> {ident(other.id, t) if t else ident(other.id)}")
    out.append("```")
    out.append("")
    out.append("<details><summary>Every import between top-level modules and crates "
               f"({label})</summary>")
    out.append("")
    for c in crates:
        if c.collapsed:
            continue
        out.append(f"- **{c.id}**:")
        for m in list(c.modules) + ["(root)"]:
            if m in c.edges:
                name = PurePosixPath(norm(c.root)).name if m == "(root)" else m
                uses = ", ".join(sorted(c.edges[m], key=lambda x: (list(c.modules) + ["(root)"]).index(x)))
                out.append(f"  `{name}` → {uses}")
                out[-1] = out[-1] + "  "
        for m, others in sorted(c.uses_whole.items()):
            name = PurePosixPath(norm(c.root)).name if m == "(root)" else m
            out.append(f"  `{name}` uses the crate {', '.join(sorted(others))}  ")
        for other_id, targets in sorted(c.uses.items()):
            names = ", ".join(sorted(t for t in targets if t)) or "(its root)"
            out.append(f"  *uses {other_id}*: {names}  ")
        out[-1] = out[-1].rstrip()
    out.append("")
    out.append("</details>")
    return "\n".join(out)


def picture(rev):
    tree = Tree(None if rev == "now" else rev)
    return draw(tree, "the working tree" if rev == "now" else rev)


def rewritten(text):
    """docs/architecture.md with every marked picture drawn again, and the revisions skipped."""
    lines = text.split("\n")
    out, skipped, i = [], [], 0
    while i < len(lines):
        out.append(lines[i])
        m = MARKER.match(lines[i])
        if not m:
            i += 1
            continue
        rev = m.group(1)
        end = lines.index(END, i + 1)
        if rev != "now" and not has_revision(rev):
            skipped.append(rev)
            out.extend(lines[i + 1:end + 1])
        else:
            out.extend(picture(rev).split("\n"))
            out.append(END)
        i = end + 1
    return "\n".join(out), skipped


def main(argv):
    if len(argv) == 2 and argv[1] in ("--write", "--check"):
        current = DOC.read_text(encoding="utf-8")
        new, skipped = rewritten(current)
        for rev in skipped:
            print(f"module-graph: revision {rev} is not in this clone; its picture is left as it is",
                  file=sys.stderr)
        if argv[1] == "--write":
            if new != current:
                DOC.write_text(new, encoding="utf-8")
                print(f"module-graph: wrote {DOC.relative_to(REPO)}")
            return 0
        if new != current:
            sys.stdout.writelines(difflib.unified_diff(
                current.splitlines(True), new.splitlines(True),
                "docs/architecture.md", "docs/architecture.md (as scripts/module-graph.py draws it)"))
            print("module-graph: docs/architecture.md is stale: run scripts/module-graph.py --write "
                  "and commit it", file=sys.stderr)
            return 1
        print("module-graph: docs/architecture.md is current")
        return 0
    if len(argv) <= 2 and not (len(argv) == 2 and argv[1].startswith("-")):
        print(picture(argv[1] if len(argv) == 2 else "now"))
        return 0
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
