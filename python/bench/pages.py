"""linkbase.rewrite against lxml and selectolax, and against the Rust
library's own time, on the real pages of benches/pages.rs: the HTML pages of
the Python 3.11 documentation (Debian's python3.11-doc package), every link
made absolute against the page's URL (https://docs.python.org/3.11/ + path).

The page sets are the Rust bench's: the five largest pages and a sample of
twenty of every size. Per page, in one run, each tool's median time over
ROUNDS rewrites, in process (no start-up, the page already in memory):

- linkbase: ``linkbase.rewrite(page, url)`` (records of every link kept, the
  default) and ``records=False`` (counts only);
- lxml: ``lxml.html.document_fromstring``, ``make_links_absolute``,
  ``tostring`` (benches/lxml_rewrite.py's way);
- selectolax (lexbor): parse, set every href/src/action/... and each srcset
  candidate with ``urljoin``, serialize (``.html``);
- Rust: ``linkbase::rewrite`` with the same options (the example
  python/bench/rust_rewrite.rs, release build).

Printed: a Markdown table per set (sums of the per-page medians, ratios),
and the median over pages of the per-page ratios.

Setup (cached in LINKBASE_BENCH_CACHE, else target/tmp/bench-pages, as the
Rust bench): ``apt-get download python3.11-doc`` and ``dpkg -x``. Needs
the linkbase wheel, lxml and selectolax in this Python
(python/bench/requirements.txt) and cargo.

    python python/bench/pages.py [--rounds N]
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urljoin

import linkbase
import lxml.html
from selectolax.lexbor import LexborHTMLParser

REPO = Path(__file__).resolve().parents[2]
URL_PREFIX = "https://docs.python.org/3.11/"
DOC_PACKAGE = "python3.11-doc"
DOC_ROOT = "usr/share/doc/python3.11/html"


def python_docs(cache: Path) -> Path:
    """The documentation's HTML folder, unpacked from Debian's package the first time."""
    root = cache / DOC_PACKAGE / DOC_ROOT
    if (root / "index.html").is_file():
        return root
    download = cache / "download"
    download.mkdir(parents=True, exist_ok=True)
    subprocess.run(["apt-get", "download", DOC_PACKAGE], cwd=download, check=True)
    (deb,) = [p for p in download.iterdir() if p.name.startswith(DOC_PACKAGE) and p.name.endswith(".deb")]
    subprocess.run(["dpkg", "-x", str(deb), str(cache / DOC_PACKAGE)], check=True)
    return root


def page_sets(root: Path):
    """The Rust bench's two sets: the five largest pages, every 26th by size."""
    pages = sorted(
        ((p.stat().st_size, p.relative_to(root).as_posix()) for p in root.rglob("*.html")),
    )
    pages = [(path, (root / path).read_bytes()) for _, path in pages]
    pages.sort(key=lambda p: (len(p[1]), p[0]))
    largest = pages[-5:]
    rest = pages[:-5]
    sample = [rest[k * len(rest) // 20] for k in range(20)]
    return [("largest 5", largest), ("sample of 20", sample)]


def with_lxml(data: bytes, url: str) -> bytes:
    root = lxml.html.document_fromstring(data)
    root.make_links_absolute(url)
    return lxml.html.tostring(root.getroottree(), encoding="utf-8")


URL_ATTRIBUTES = ("href", "src", "action", "formaction", "cite", "poster", "background", "longdesc", "data")
SELECTOR = ",".join(f"[{a}]" for a in URL_ATTRIBUTES + ("srcset",))


def with_selectolax(data: bytes, url: str) -> str:
    tree = LexborHTMLParser(data)
    for node in tree.css(SELECTOR):
        attrs = node.attrs
        for name in URL_ATTRIBUTES:
            value = attrs.get(name)
            if value is not None:
                attrs[name] = urljoin(url, value.strip())
        srcset = attrs.get("srcset")
        if srcset is not None:
            candidates = []
            for candidate in srcset.split(","):
                parts = candidate.split()
                if parts:
                    candidates.append(" ".join([urljoin(url, parts[0])] + parts[1:]))
            attrs["srcset"] = ", ".join(candidates)
    return tree.html


def with_linkbase(data: bytes, url: str) -> bytes:
    return linkbase.rewrite(data, url).output


def with_linkbase_counts(data: bytes, url: str) -> bytes:
    return linkbase.rewrite(data, url, records=False).output


def median_time(fn, data, url, rounds):
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn(data, url)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def rust_times(root: Path, pages, rounds: int, records: bool):
    """Per page, the Rust library's median (the example, release build)."""
    command = [
        "cargo", "run", "-q", "--release", "-p", "linkbase-python", "--example", "rust_rewrite", "--",
        str(rounds), "1" if records else "0", URL_PREFIX, str(root),
    ] + [path for path, _ in pages]
    out = subprocess.run(command, cwd=REPO, check=True, capture_output=True, text=True).stdout
    return {line.split("\t")[0]: float(line.split("\t")[1]) for line in out.splitlines()}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args(argv)
    cache = Path(os.environ.get("LINKBASE_BENCH_CACHE", REPO / "target" / "tmp" / "bench-pages"))
    root = python_docs(cache)
    print(f"linkbase {linkbase.__version__}, lxml {lxml.__version__}, Python {sys.version.split()[0]}, "
          f"{args.rounds} rounds a page, medians")
    for set_name, pages in page_sets(root):
        rust = rust_times(root, pages, args.rounds, records=True)
        rust_counts = rust_times(root, pages, args.rounds, records=False)
        rows = []
        for path, data in pages:
            url = URL_PREFIX + path
            rows.append({
                "page": path,
                "bytes": len(data),
                "linkbase": median_time(with_linkbase, data, url, args.rounds),
                "linkbase-counts": median_time(with_linkbase_counts, data, url, args.rounds),
                "lxml": median_time(with_lxml, data, url, args.rounds),
                "selectolax": median_time(with_selectolax, data, url, args.rounds),
                "rust": rust[path],
                "rust-counts": rust_counts[path],
            })
        total = {k: sum(r[k] for r in rows) for k in rows[0] if k != "page"}
        per_page = lambda a, b: statistics.median(r[a] / r[b] for r in rows)
        mb = total["bytes"] / 1e6
        print(f"\n### {set_name} ({len(rows)} pages, {mb:.2f} MB)\n")
        print("| tool | time (sum of per-page medians) | MB/s | vs linkbase.rewrite (median of per-page ratios) |")
        print("|---|---:|---:|---:|")
        for key, label in [
            ("linkbase", "`linkbase.rewrite` (Python, link records kept)"),
            ("linkbase-counts", "`linkbase.rewrite(records=False)` (Python)"),
            ("rust", "`linkbase::rewrite` (Rust, link records kept)"),
            ("rust-counts", "`linkbase::rewrite` (Rust, counts only)"),
            ("lxml", "lxml parse + `make_links_absolute` + `tostring`"),
            ("selectolax", "selectolax (lexbor) parse + set attributes + `.html`"),
        ]:
            t = total[key]
            print(f"| {label} | {t * 1e3:.1f} ms | {mb / t:.1f} | {per_page(key, 'linkbase'):.2f}x |")
        print()
        print(f"- lxml / linkbase.rewrite: {per_page('lxml', 'linkbase'):.2f}x per page (median), "
              f"{total['lxml'] / total['linkbase']:.2f}x in all")
        print(f"- selectolax / linkbase.rewrite: {per_page('selectolax', 'linkbase'):.2f}x per page (median), "
              f"{total['selectolax'] / total['linkbase']:.2f}x in all")
        print(f"- linkbase.rewrite / Rust (same options): {per_page('linkbase', 'rust'):.3f}x per page (median), "
              f"{total['linkbase'] / total['rust']:.3f}x in all; counts only: "
              f"{per_page('linkbase-counts', 'rust-counts'):.3f}x per page")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
