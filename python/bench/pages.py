"""linkbase.rewrite against lxml and selectolax, and against the Rust
library's own time, on the real pages of benches/pages.rs: the HTML pages of
the Python 3.11 documentation (Debian's python3.11-doc package), every link
made absolute against the page's URL (https://docs.python.org/3.11/ + path).

The page sets are the Rust bench's: the five largest pages and a sample of
twenty of every size. Per page, in one run, each tool's median time over
ROUNDS rewrites (default 15), in process (no start-up, the page already in memory):

- linkbase: ``linkbase.rewrite(page, url)`` (the default, ``records="lazy"``:
  the output, the counts and the problems; the link records would be made if
  ``report.links`` were read), the same with ``report.links`` read (the
  records made by a second rewrite), and ``records=True`` (the records kept
  during the rewrite, then read);
- lxml: ``lxml.html.document_fromstring``, ``make_links_absolute``,
  ``tostring`` (benches/lxml_rewrite.py's way);
- selectolax (lexbor): parse, set every href/src/action/... and each srcset
  candidate with ``urljoin``, serialize (``.html``);
- Rust: ``linkbase::rewrite`` with the same options (the example
  python/bench/rust_rewrite.rs, built with the wheel's profile, ``wheel``,
  and with the profile-guided optimization of python/build-wheel.sh when the
  installed wheel was built with it: the same compiler settings as the wheel).

Each round runs every tool over the whole set in turn (the Rust example
once per round), so that the load of a shared machine falls on all alike. Printed: a Markdown table per set (sums of the per-page medians) and
the ratios, paired: per page the median over rounds of the ratio of the two
tools' times in the same round, then the median over pages.

Setup (cached in LINKBASE_BENCH_CACHE, else target/tmp/bench-pages, as the
Rust bench): ``apt-get download python3.11-doc`` and ``dpkg -x``. Needs
the linkbase wheel (as shipped: python/build-wheel.sh), lxml and selectolax in this Python
(python/bench/requirements.txt) and cargo.

    python python/bench/pages.py [--rounds N] [--no-rust]

``--no-rust`` leaves the Rust example out (no cargo, no trained profile
needed): linkbase.rewrite against lxml and selectolax, for any installed wheel.
"""

import argparse
import hashlib
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


def with_linkbase_lazy_read(data: bytes, url: str) -> bytes:
    result = linkbase.rewrite(data, url)
    result.report.links
    return result.output


def with_linkbase_records(data: bytes, url: str) -> bytes:
    result = linkbase.rewrite(data, url, records=True)
    result.report.links
    return result.output


def once(fn, data, url):
    start = time.perf_counter()
    fn(data, url)
    return time.perf_counter() - start


def rust_build_env():
    """The environment that builds the Rust example as the installed wheel was
    built: with the wheel's profile-guided optimization (target/pgo/wheel.profdata,
    made by python/build-wheel.sh with LINKBASE_PGO_BENCH=1, so that this
    example was trained too) when the wheel has it, in python/build-wheel.sh's
    target folder; else as is."""
    profile = linkbase._native._PGO_PROFILE
    if not profile:
        return dict(os.environ)
    pgo = REPO / "target" / "pgo"
    data = pgo / "wheel.profdata"
    if not data.is_file() or hashlib.sha256(data.read_bytes()).hexdigest()[:16] != profile:
        sys.exit(f"the installed wheel was built with another profile than {data}: build it again")
    if "rust_rewrite trained: 1" not in (pgo / "wheel-made-with.txt").read_text():
        sys.exit("the wheel's profile was made without the Rust example: LINKBASE_PGO_BENCH=1 python/build-wheel.sh")
    flags = f"-Cprofile-use={data}"
    rustflags = " ".join(f for f in (os.environ.get("RUSTFLAGS", ""), flags) if f)
    return dict(os.environ, RUSTFLAGS=rustflags, CARGO_TARGET_DIR=str(REPO / "target" / "pgo" / "use"))


def rust_round(root: Path, pages, records: bool, env):
    """One round of the Rust library on every page (the example, built in
    ``env``, rust_build_env's: the wheel's compiler settings): seconds per page."""
    command = [
        "cargo", "run", "-q", "--profile", "wheel", "-p", "linkbase-python", "--example", "rust_rewrite", "--",
        "1", "1" if records else "0", URL_PREFIX, str(root),
    ] + [path for path, _ in pages]
    out = subprocess.run(command, cwd=REPO, env=env, check=True, capture_output=True, text=True).stdout
    return {line.split("\t")[0]: float(line.split("\t")[1]) for line in out.splitlines()}


TOOLS = {
    "linkbase": with_linkbase,
    "linkbase-lazy-read": with_linkbase_lazy_read,
    "linkbase-records": with_linkbase_records,
    "lxml": with_lxml,
    "selectolax": with_selectolax,
}

LABELS = [
    ("linkbase", "`linkbase.rewrite` (Python, the default: records lazy, not read)"),
    ("linkbase-lazy-read", "`linkbase.rewrite` + `report.links` read (records made lazily)"),
    ("linkbase-records", "`linkbase.rewrite(records=True)` + `report.links` read"),
    ("rust-counts", "`linkbase::rewrite` (Rust, counts only: the default's work)"),
    ("rust", "`linkbase::rewrite` (Rust, link records kept)"),
    ("lxml", "lxml parse + `make_links_absolute` + `tostring`"),
    ("selectolax", "selectolax (lexbor) parse + set attributes + `.html`"),
]


def measure(root: Path, pages, rounds: int, rust: bool = True):
    """Per page and tool, the times of every round. Each round runs each tool
    over the whole set, one page after the other (as the Rust example does),
    the tools one after the other, so that the load of a shared machine falls
    on all alike and no tool runs with another's data in the caches. Without
    ``rust`` (``--no-rust``), the Rust example is left out."""
    times = {path: {key: [] for key, _ in LABELS} for path, _ in pages}
    env = rust_build_env() if rust else None
    for _ in range(rounds):
        for key, records in (("rust", True), ("rust-counts", False)) if rust else ():
            for path, t in rust_round(root, pages, records, env).items():
                times[path][key].append(t)
        for key, fn in TOOLS.items():
            for path, data in pages:
                times[path][key].append(once(fn, data, URL_PREFIX + path))
    return times


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--no-rust", action="store_true",
                        help="leave out the Rust example (it needs cargo, and with a PGO wheel "
                             "a profile trained with LINKBASE_PGO_BENCH=1): linkbase.rewrite "
                             "against lxml and selectolax only")
    args = parser.parse_args(argv)
    labels = [(k, l) for k, l in LABELS if not (args.no_rust and k.startswith("rust"))]
    cache = Path(os.environ.get("LINKBASE_BENCH_CACHE", REPO / "target" / "tmp" / "bench-pages"))
    root = python_docs(cache)
    print(f"linkbase {linkbase.__version__}, lxml {lxml.__version__}, Python {sys.version.split()[0]}, "
          f"{args.rounds} rounds, medians; load average {os.getloadavg()[0]:.1f} at the start; "
          f"wheel built with PGO profile {linkbase._native._PGO_PROFILE or 'none'}")
    for set_name, pages in page_sets(root):
        times = measure(root, pages, args.rounds, rust=not args.no_rust)
        med = {path: {k: statistics.median(v) for k, v in t.items() if v} for path, t in times.items()}

        def paired(a, b):
            """Median over pages of the median over rounds of a/b."""
            return statistics.median(
                statistics.median(x / y for x, y in zip(t[a], t[b])) for t in times.values()
            )

        total = {k: sum(m[k] for m in med.values()) for k, _ in labels}
        mb = sum(len(d) for _, d in pages) / 1e6
        print(f"\n### {set_name} ({len(pages)} pages, {mb:.2f} MB)\n")
        print("| tool | time (sum of per-page medians) | MB/s | time / `linkbase.rewrite` (per page, paired) |")
        print("|---|---:|---:|---:|")
        for key, label in labels:
            t = total[key]
            print(f"| {label} | {t * 1e3:.1f} ms | {mb / t:.1f} | {paired(key, 'linkbase'):.2f}x |")
        print()
        rust_line = "" if args.no_rust else (
            f"; lxml / Rust: {paired('lxml', 'rust-counts'):.2f}x counts only, {paired('lxml', 'rust'):.2f}x with records")
        print(f"- lxml / linkbase.rewrite: **{paired('lxml', 'linkbase'):.2f}x** per page (paired median), "
              f"{total['lxml'] / total['linkbase']:.2f}x in all; with `records=True` read: "
              f"**{paired('lxml', 'linkbase-records'):.2f}x** per page{rust_line}")
        print(f"- selectolax / linkbase.rewrite: **{paired('selectolax', 'linkbase'):.2f}x** per page, "
              f"{total['selectolax'] / total['linkbase']:.2f}x in all")
        if not args.no_rust:
            print(f"- linkbase.rewrite / Rust, the same work (counts only): **{paired('linkbase', 'rust-counts'):.3f}x** per page, "
                  f"{total['linkbase'] / total['rust-counts']:.3f}x in all; records kept and read / Rust with records: "
                  f"**{paired('linkbase-records', 'rust'):.3f}x** per page, "
                  f"{total['linkbase-records'] / total['rust']:.3f}x in all")
        print(f"- load average {os.getloadavg()[0]:.1f} at the end of the set")
        print(f"- records read: lazily {paired('linkbase-lazy-read', 'linkbase'):.2f}x the default's time, "
              f"kept (`records=True`) {paired('linkbase-records', 'linkbase'):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
