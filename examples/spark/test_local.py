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


def main():
    env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000", LINKBASE=LINKBASE)
    env.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    with tempfile.TemporaryDirectory() as tmp:
        inputs = os.path.join(tmp, "in")
        os.makedirs(inputs)
        for case in sorted(os.listdir(FIXTURES)):
            for name in ("input.warc", "input.warc.gz"):
                source = os.path.join(FIXTURES, case, name)
                if os.path.exists(source):
                    shutil.copy(source, os.path.join(inputs, case + name[len("input"):]))
        for seed in (1, 2):
            with open(os.path.join(inputs, "crawl-%d.warc.gz" % seed), "wb") as f:
                f.write(many_pages(300, seed))
        paths = sorted(os.path.join(inputs, n) for n in os.listdir(inputs))
        manifest = os.path.join(tmp, "manifest.txt")
        with open(manifest, "w") as f:
            f.write("\n".join(paths) + "\n")

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

        failures = []
        rows = {}
        with open(os.path.join(out, "_counts.jsonl")) as f:
            for line in f:
                row = json.loads(line)
                rows[row["file"]] = row
        direct = os.path.join(tmp, "direct")
        os.makedirs(direct)
        for path in paths:
            name = os.path.basename(path)
            report = os.path.join(tmp, name + ".report")
            subprocess.run([LINKBASE, path, "-o", os.path.join(direct, name), "--report", report],
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
        for failure in failures:
            print("FAIL", failure)
        print("spark local[2]: %d WARCs in %.1f s, %d failures" % (len(paths), elapsed, len(failures)))
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
