#!/usr/bin/env python3
"""CI's Spark step (issue 13): run absolutize_warcs.py with PySpark in
local[2] over a few generated WARCs and check that every output file is
byte-identical to `linkbase IN -o OUT` run directly, and that the counts
table has a row per WARC with linkbase's own counts.

The WARCs: every input of fixtures/warc/ (plain, per-record and whole-file
gzip) under its case's name, and two larger ones written here (many pages).

Usage: LINKBASE=target/debug/linkbase SPARK_LOCAL_IP=127.0.0.1 VENV/bin/python examples/spark/test_local.py
"""

import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(ROOT, "fixtures", "warc")
LINKBASE = os.path.abspath(os.environ.get("LINKBASE", os.path.join(ROOT, "target", "debug", "linkbase")))


def record(rtype, fields, block):
    head = "WARC/1.1\r\nWARC-Type: %s\r\n" % rtype
    head += "".join("%s: %s\r\n" % f for f in fields)
    return (head + "Content-Length: %d\r\n\r\n" % len(block)).encode() + block + b"\r\n\r\n"


def many_pages(count, seed):
    """A crawl of `count` HTML responses, one gzip member per record."""
    out = []
    for i in range(count):
        body = ('<html><body><a href="p%d.html">next</a><img src="../img/%d.png"></body></html>'
                % (i + 1, i)).encode()
        http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + body
        out.append(gzip.compress(record("response", [
            ("WARC-Record-ID", "<urn:uuid:%08d-0000-4000-8000-%012d>" % (seed, i)),
            ("WARC-Target-URI", "http://site%d.example/dir/p%d.html" % (seed, i)),
            ("Content-Type", "application/http; msgtype=response")], http), mtime=0))
    return b"".join(out)


def make_inputs(folder):
    """Write the job's inputs into `folder`: every input of fixtures/warc/
    under its case's name, and two crawls of 300 pages. Their paths, sorted."""
    os.makedirs(folder)
    for case in sorted(os.listdir(FIXTURES)):
        for name in ("input.warc", "input.warc.gz"):
            source = os.path.join(FIXTURES, case, name)
            if os.path.exists(source):
                shutil.copy(source, os.path.join(folder, case + name[len("input"):]))
    for seed in (1, 2):
        with open(os.path.join(folder, "crawl-%d.warc.gz" % seed), "wb") as f:
            f.write(many_pages(300, seed))
    return sorted(os.path.join(folder, n) for n in os.listdir(folder))


def write_manifest(path, paths):
    with open(path, "w") as f:
        f.write("\n".join(paths) + "\n")


def compare_with_cli(paths, out, scratch, env, linkbase=LINKBASE):
    """The differences between the job's output folder `out` and `linkbase
    IN -o OUT` run directly on each input (bytes, and the counts table)."""
    failures = []
    rows = {}
    with open(os.path.join(out, "_counts.jsonl")) as f:
        for line in f:
            row = json.loads(line)
            rows[row["file"]] = row
    if sorted(rows) != sorted(paths):
        failures.append("the counts table lists %d files, the manifest %d" % (len(rows), len(paths)))
    direct = os.path.join(scratch, "direct")
    os.makedirs(direct)
    for path in paths:
        name = os.path.basename(path)
        report = os.path.join(scratch, name + ".report")
        subprocess.run([linkbase, path, "-o", os.path.join(direct, name), "--report", report],
                       env=env, capture_output=True)
        with open(os.path.join(direct, name), "rb") as f:
            want = f.read()
        spark_output = os.path.join(out, name)
        if not os.path.exists(spark_output):
            failures.append("%s: no output from the Spark job" % name)
            continue
        with open(spark_output, "rb") as f:
            if f.read() != want:
                failures.append("%s: the Spark job's output differs from linkbase's" % name)
        with open(report) as f:
            counts = [json.loads(l)["warc"] for l in f if '"warc"' in l][0]
        row = rows.get(path, {})
        for key in ("records", "conversions", "links", "problems"):
            if row.get(key) != counts[key]:
                failures.append("%s: %s %s in the table, %s from linkbase" % (name, key, row.get(key), counts[key]))
    leftovers = [n for n in os.listdir(out) if n.endswith(".tmp")]
    if leftovers:
        failures.append("temporary files left: %s" % leftovers)
    return failures


def main():
    env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000", LINKBASE=LINKBASE)
    env.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    with tempfile.TemporaryDirectory() as tmp:
        paths = make_inputs(os.path.join(tmp, "in"))
        manifest = os.path.join(tmp, "manifest.txt")
        write_manifest(manifest, paths)

        started = time.time()
        out = os.path.join(tmp, "out")
        job = subprocess.run([sys.executable, os.path.join(HERE, "absolutize_warcs.py"),
                              "--master", "local[2]", manifest, out], env=env, capture_output=True, text=True)
        elapsed = time.time() - started
        print(job.stdout)
        if job.returncode != 0:
            print(job.stderr[-5000:])
            print("FAIL: the Spark job exited with status %d" % job.returncode)
            return 1

        failures = compare_with_cli(paths, out, tmp, env)
        for failure in failures:
            print("FAIL", failure)
        print("spark local[2]: %d WARCs in %.1f s, %d failures" % (len(paths), elapsed, len(failures)))
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
