#!/usr/bin/env python3
"""Every relative link of the repository's Markdown leads somewhere, and every user's-guide page is short.

    scripts/doc-links.py    exit 1, naming each link whose file or #anchor is missing

The Markdown files are git's (`git ls-files '*.md'`, vendor/ left out: upstream's)
and every page under docs/. A link is checked when it is relative (no scheme): its
file must exist, and a `#anchor` into a Markdown file must be one of its headings
(GitHub's rule: lower case, punctuation dropped, spaces to `-`, `-1`, `-2` … for
repeats) or an `<a name=…>`/`id=…` in it. Links inside fenced code are not links.

The user's guide (docs/guide/) is for a newcomer's first hour: its pages together
stay under GUIDE_LINES lines, and each opens (after its title) with a runnable
example, a fenced block.
"""

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
GUIDE = REPO / "docs" / "guide"
GUIDE_LINES = 1500


def lines_outside_fences(text):
    fence = False
    for number, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        if not fence:
            yield number, line


def anchors(path):
    found = set()
    for _, line in lines_outside_fences(path.read_text(encoding="utf-8")):
        heading = re.match(r"^#+\s+(.*)$", line)
        if heading:
            slug = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-")
            candidate, n = slug, 1
            while candidate in found:
                candidate, n = f"{slug}-{n}", n + 1
            found.add(candidate)
        found.update(re.findall(r'<a (?:name|id)="([^"]+)"', line))
    return found


def main():
    listed = subprocess.run(["git", "ls-files", "*.md"], cwd=REPO, capture_output=True,
                            text=True, check=True).stdout.split()
    files = {REPO / name for name in listed if not name.startswith("vendor/")}
    files |= set((REPO / "docs").rglob("*.md"))
    cache, bad = {}, 0
    for page in sorted(files):
        if not page.exists():
            continue
        for number, line in lines_outside_fences(page.read_text(encoding="utf-8")):
            for link in re.findall(r"\]\(([^)\s]+)\)", line):
                if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", link):
                    continue
                path, _, anchor = link.partition("#")
                target = (page.parent / path).resolve() if path else page
                where = f"{page.relative_to(REPO)}:{number}"
                if not target.exists():
                    print(f"{where}: {link}: no such file", file=sys.stderr)
                    bad += 1
                elif anchor and target.suffix == ".md":
                    if target not in cache:
                        cache[target] = anchors(target)
                    if anchor not in cache[target]:
                        print(f"{where}: {link}: no such heading", file=sys.stderr)
                        bad += 1
    guide = sorted(GUIDE.glob("*.md"))
    total = sum(len(p.read_text(encoding="utf-8").split("\n")) - 1 for p in guide)
    if total >= GUIDE_LINES:
        print(f"docs/guide/: {total} lines, over the {GUIDE_LINES} a user's guide may take", file=sys.stderr)
        bad += 1
    for page in guide:
        if page.name == "README.md":
            continue
        body = [l for _, l in zip(range(6), page.read_text(encoding="utf-8").split("\n")[1:]) if l.strip()]
        if not body or not body[0].startswith("```"):
            print(f"{page.relative_to(REPO)}: does not open with an example (a fenced block after its title)",
                  file=sys.stderr)
            bad += 1
    if bad:
        return 1
    print(f"doc-links: every relative link of {len(files)} Markdown files leads somewhere; "
          f"the user's guide is {total} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
