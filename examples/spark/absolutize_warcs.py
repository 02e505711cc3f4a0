#!/usr/bin/env python3
"""Run linkbase over many WARC files on Apache Spark, one WARC per task.

    python examples/spark/absolutize_warcs.py MANIFEST OUTPUT_DIR
    spark-submit --files /path/to/linkbase examples/spark/absolutize_warcs.py MANIFEST OUTPUT_DIR

MANIFEST lists one WARC per line (local paths, file://, or -- with fsspec and
its file system package installed on the executors -- s3://, gs://, hdfs://,
https:// ...). Each task runs the `linkbase` binary on one WARC, writing a new
WARC of `conversion` records (docs/warc.md), and publishes it to OUTPUT_DIR
under the input's file name: first under a temporary name, then renamed, so
a reader of OUTPUT_DIR never sees half a file and a retried task replaces
its earlier attempt. The output is the same bytes as `linkbase IN -o OUT`
run directly: the record dates are pinned once for the whole job
(SOURCE_DATE_EPOCH, taken from the environment or the driver's clock) and
the record IDs are derived from the input, so a retried task writes
identical bytes.

The binary is taken from the LINKBASE environment variable, else `linkbase`
on PATH; a binary given by path is shipped to the executors (SparkContext.addFile),
as is one given with `spark-submit --files`. Without a configured master
(spark-submit --master, spark-defaults.conf) the job runs in local mode.

The job's result is a table of per-file counts (records, conversions,
links, problems), printed and written to OUTPUT_DIR/_counts.jsonl.

In the style of Common Crawl's cc-pyspark: the driver only lists work; the
executors do it and return small rows. See docs/spark.md.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid

from pyspark import SparkFiles
from pyspark.sql import Row, SparkSession

COLUMNS = ["file", "status", "records", "conversions", "links", "problems", "message"]


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("manifest", help="file listing one WARC path or URL per line")
    parser.add_argument("output_dir", help="folder (or fsspec URL) the output WARCs go to")
    parser.add_argument("--master", help="Spark master when none is configured (default local[*])")
    parser.add_argument("--linkbase-args", default="",
                        help="extra linkbase options, e.g. '--profile whatwg' (same for every file)")
    return parser.parse_args(argv)


def is_local(path):
    return "://" not in path or path.startswith("file://")


def local_path(path):
    return path[len("file://"):] if path.startswith("file://") else path


def fetch(path, folder):
    """A local copy of `path` (a local path is used where it is)."""
    if is_local(path):
        return local_path(path)
    import fsspec  # only needed for remote inputs

    target = os.path.join(folder, os.path.basename(path))
    with fsspec.open(path, "rb") as source, open(target, "wb") as sink:
        shutil.copyfileobj(source, sink, 1 << 20)
    return target


def publish(produced, output_dir, name, attempt):
    """Put `produced` at OUTPUT_DIR/name: written under a temporary name
    first, then renamed (atomic on a POSIX file system; on an object store
    the final object appears whole, as objects do)."""
    temporary_name = ".%s.%s.tmp" % (name, attempt)
    if is_local(output_dir):
        folder = local_path(output_dir)
        os.makedirs(folder, exist_ok=True)
        temporary = os.path.join(folder, temporary_name)
        shutil.copyfile(produced, temporary)
        os.replace(temporary, os.path.join(folder, name))
        return
    import fsspec

    fs, root = fsspec.core.url_to_fs(output_dir)
    temporary = root.rstrip("/") + "/" + temporary_name
    fs.put_file(produced, temporary)
    fs.mv(temporary, root.rstrip("/") + "/" + name)


def binary_on_executor(binary):
    """The binary shipped with addFile or --files, else as given (PATH)."""
    try:
        shipped = SparkFiles.get(os.path.basename(binary))
    except Exception:  # no SparkContext files in this process
        shipped = None
    if shipped and os.path.isfile(shipped):
        if not os.access(shipped, os.X_OK):
            os.chmod(shipped, 0o755)
        return shipped
    return shutil.which(binary) or binary


def process_warc(path, output_dir, binary, epoch, extra_args):
    """Run linkbase on one WARC; the row of its counts."""
    name = os.path.basename(path.rstrip("/"))
    row = dict(file=path, status="failed", records=0, conversions=0, links=0, problems=0, message="")
    with tempfile.TemporaryDirectory(prefix="linkbase-") as work:
        try:
            source = fetch(path, work)
            os.makedirs(os.path.join(work, "out"))
            produced = os.path.join(work, "out", name)
            report = os.path.join(work, "report.jsonl")
            command = [binary_on_executor(binary), source, "-o", produced, "--report", report, "--quiet"]
            command[1:1] = extra_args
            env = dict(os.environ, SOURCE_DATE_EPOCH=str(epoch))
            run = subprocess.run(command, env=env, capture_output=True, text=True)
            counts = {}
            if os.path.exists(report):
                with open(report, encoding="utf-8") as lines:
                    for line in lines:
                        if '"warc"' in line:
                            counts = json.loads(line).get("warc", counts)
            row.update({k: counts.get(k, 0) for k in ("records", "conversions", "links", "problems")})
            # Exit status 1 means some record or link had a problem (counted);
            # the output is still complete. Anything else wrote nothing.
            if run.returncode in (0, 1) and os.path.exists(produced):
                publish(produced, output_dir, name, uuid.uuid4().hex)
                row["status"] = "done" if run.returncode == 0 else "done-with-problems"
            row["message"] = run.stderr.strip().splitlines()[0] if run.stderr.strip() else ""
        except Exception as e:  # one bad file never stops the job
            row["message"] = "%s: %s" % (type(e).__name__, e)
    return Row(**row)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    builder = SparkSession.builder.appName("linkbase-absolutize-warcs")
    spark = builder.getOrCreate() if not args.master else builder.master(args.master).getOrCreate()
    if args.master is None and spark.sparkContext.getConf().get("spark.master") is None:
        spark.stop()
        spark = builder.master("local[*]").getOrCreate()
    sc = spark.sparkContext

    binary = os.environ.get("LINKBASE", "linkbase")
    if os.path.isfile(binary):
        try:
            sc.addFile(os.path.abspath(binary))
        except Exception:  # already shipped (spark-submit --files linkbase)
            pass
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH") or time.time())
    extra_args = args.linkbase_args.split()
    with open(local_path(args.manifest)) if is_local(args.manifest) else _open_remote(args.manifest) as f:
        paths = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    output_dir = args.output_dir

    rows = (sc.parallelize(paths, max(1, len(paths)))
            .map(lambda path: process_warc(path, output_dir, binary, epoch, extra_args))
            .collect())
    table = spark.createDataFrame(rows, schema=None).select(*COLUMNS)
    table.show(len(rows), truncate=False)
    counts = "\n".join(json.dumps(row.asDict()) for row in rows) + "\n"
    if is_local(output_dir):
        os.makedirs(local_path(output_dir), exist_ok=True)
        with open(os.path.join(local_path(output_dir), "_counts.jsonl"), "w") as f:
            f.write(counts)
    else:
        import fsspec

        with fsspec.open(output_dir.rstrip("/") + "/_counts.jsonl", "w") as f:
            f.write(counts)
    failed = sum(1 for row in rows if row.status == "failed")
    spark.stop()
    return 1 if failed else 0


def _open_remote(url):
    import fsspec

    return fsspec.open(url, "r")


if __name__ == "__main__":
    sys.exit(main())
