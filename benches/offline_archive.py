#!/usr/bin/env python3
"""The offline copy of a crawl against its peers (issue 28):

    python3 benches/offline_archive.py CRAWL.warc.gz SITE_URL [ROUNDS]

times, in alternating rounds (median of ROUNDS, default 5), on the same WARC:

  offline   linkbase offline CRAWL.warc.gz -o DIR      (the copy: two passes, every file written)
  warc      linkbase CRAWL.warc.gz -o OUT.warc.gz      (the absolutized WARC; target: offline <= 1.5x)
  wget -k   wget's own link-conversion pass over the same site, crawled from
            SITE_URL with `wget -r -l inf -p -E -k`: the time wget prints for
            it ("Converted links in N files in S seconds"), the crawl excluded

The linkbase binary is $LINKBASE (default target/release/linkbase: build it
with `cargo build --release`). Timings on a shared machine are noisy: the
ratios of the same round matter, the medians are printed with them.
"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def timed(args):
    start = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def wget_k(url, work):
    folder = os.path.join(work, "wget")
    log = os.path.join(work, "wget.log")
    shutil.rmtree(folder, ignore_errors=True)
    status = subprocess.run(
        ["wget", "-r", "-l", "inf", "-p", "-E", "-k", "-e", "robots=off", "--tries=3",
         "-P", folder, "-o", log, url]
    ).returncode
    if status not in (0, 8):
        sys.exit(f"wget exited {status}")
    with open(log, encoding="utf-8", errors="replace") as f:
        m = re.search(r"Converted links in (\d+) files in ([0-9.]+) seconds", f.read())
    if not m:
        sys.exit("wget printed no conversion time")
    return int(m.group(1)), float(m.group(2))


def main():
    warc, url = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    linkbase = os.environ.get("LINKBASE", "target/release/linkbase")
    times = {"offline": [], "warc": [], "wget -k": []}
    ratios = []
    with tempfile.TemporaryDirectory() as work:
        for _ in range(rounds):
            copy = os.path.join(work, "copy")
            shutil.rmtree(copy, ignore_errors=True)
            t_offline = timed([linkbase, "offline", warc, "-o", copy, "--quiet"])
            out = os.path.join(work, "out.warc.gz")
            t_warc = timed([linkbase, warc, "-o", out, "--quiet"])
            os.remove(out)
            files, t_wget = wget_k(url, work)
            times["offline"].append(t_offline)
            times["warc"].append(t_warc)
            times["wget -k"].append(t_wget)
            ratios.append(t_offline / t_warc)
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"{os.path.basename(warc)}: {os.path.getsize(warc)} bytes, {rounds} rounds, medians")
    print("| job | seconds | against `linkbase -o out.warc.gz` |")
    print("|---|---|---|")
    for k in times:
        print(f"| {k} | {med[k]:.3f} | {med[k] / med['warc']:.2f}x |")
    print(f"offline / warc per round: {', '.join(f'{r:.2f}' for r in ratios)}"
          f" (median {statistics.median(ratios):.2f}; target <= 1.5)")
    print(f"wget -k converted {files} files")


if __name__ == "__main__":
    main()
