#!/usr/bin/env python3
"""CI's Spark cluster step (issue 21), run by test_cluster.sh once a
standalone master and two workers are up: submit absolutize_warcs.py to
them with spark-submit and check that

1. the job succeeds and every output WARC is byte-identical to `linkbase IN
   -o OUT` run directly, with the counts table matching linkbase's own
   counts (the inputs and the comparison of test_local.py);
2. one task was killed and retried: its first attempt died hard (the test
   daemon test_hooks/kill_first_attempt.py SIGKILLs the Python worker after
   linkbase ran, before the output was published) and its second attempt
   succeeded, as Spark's own event log records it (one failed task end,
   attempt 0 of that partition, then attempt 1 succeeded; every other task
   succeeded at its first attempt);
3. the tasks ran on both workers' executors, each in its own working folder
   under its worker's work folder, and ran the binary shipped with --files
   (SparkFiles: the copy in the executor's folder), not the build's: the
   driver names it only as `linkbase`, and no `linkbase` is on PATH.

Usage: test_cluster.py --master spark://127.0.0.1:PORT --venv VENV --linkbase BIN --work DIR
"""

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import test_local  # noqa: E402  (the inputs and the comparison with the CLI)

# The task killed on its first attempt: one of the two 300-page crawls.
KILLED = "crawl-1.warc.gz"
EPOCH = "1700000000"


def submit_command(args, manifest, out, attempts, events):
    """The spark-submit command line (printed, and shown in docs/spark.md)."""
    return [
        os.path.join(args.venv, "bin", "spark-submit"),
        "--master", args.master,
        "--deploy-mode", "client",
        "--files", args.linkbase,
        "--executor-memory", "512m",
        "--conf", "spark.executor.cores=1",
        "--conf", "spark.cores.max=2",
        "--conf", "spark.task.maxFailures=2",
        # Schedule only once both executors are there (else the first one
        # may take every task before the second registers).
        "--conf", "spark.scheduler.minRegisteredResourcesRatio=1.0",
        "--conf", "spark.scheduler.maxRegisteredResourcesWaitingTime=120s",
        "--conf", "spark.driver.host=127.0.0.1",
        "--conf", "spark.driver.bindAddress=127.0.0.1",
        "--conf", "spark.ui.enabled=false",
        "--conf", "spark.pyspark.python=" + os.path.join(args.venv, "bin", "python"),
        "--conf", "spark.eventLog.enabled=true",
        "--conf", "spark.eventLog.dir=file://" + events,
        "--conf", "spark.eventLog.rolling.enabled=false",
        "--conf", "spark.eventLog.compress=false",
        # The test instrument (test_hooks/kill_first_attempt.py).
        "--conf", "spark.python.daemon.module=kill_first_attempt",
        "--conf", "spark.executorEnv.PYTHONPATH=" + os.path.join(HERE, "test_hooks"),
        "--conf", "spark.executorEnv.LINKBASE_TEST_KILL_FIRST_ATTEMPT=" + KILLED,
        "--conf", "spark.executorEnv.LINKBASE_TEST_ATTEMPTS=" + attempts,
        "--conf", "spark.executorEnv.TMPDIR=" + os.path.join(args.work, "executor-tmp"),
        os.path.join(HERE, "absolutize_warcs.py"), manifest, out,
    ]


def task_ends(events):
    """Spark's record of the job's tasks: every end of a task of the first
    stage (the WARCs; the job then shows its table in a second one) as
    (partition, attempt, executor, reason, description), the executors
    added, and the results of the jobs."""
    logs = [p for p in glob.glob(os.path.join(events, "*")) if not p.endswith(".inprogress")]
    if len(logs) != 1:
        raise SystemExit("FAIL: expected one finished event log in %s, found %s" % (events, os.listdir(events)))
    ends, executors, job_results = [], set(), []
    with open(logs[0]) as f:
        for line in f:
            event = json.loads(line)
            kind = event.get("Event")
            if kind == "SparkListenerTaskEnd" and event["Stage ID"] == 0:
                info = event["Task Info"]
                reason = event["Task End Reason"]
                ends.append((info["Index"], info["Attempt"], info["Executor ID"], reason["Reason"],
                             reason.get("Description", "")))
            elif kind == "SparkListenerExecutorAdded":
                executors.add(event["Executor ID"])
            elif kind == "SparkListenerJobEnd":
                job_results.append(event["Job Result"]["Result"])
    return ends, executors, job_results


def check_retry(paths, ends, executors, job_results):
    failures = []
    killed = [os.path.basename(p) for p in paths].index(KILLED)
    failed = [e for e in ends if e[3] != "Success"]
    if [(e[0], e[1]) for e in failed] != [(killed, 0)]:
        failures.append("failed task ends %s; expected exactly one, partition %d (%s) attempt 0"
                        % (failed, killed, KILLED))
    succeeded = sorted((e[0], e[1]) for e in ends if e[3] == "Success")
    want = sorted([(i, 0) for i in range(len(paths)) if i != killed] + [(killed, 1)])
    if succeeded != want:
        failures.append("succeeded task attempts %s; expected %s" % (succeeded, want))
    if len(executors) != 2 or len({e[2] for e in ends}) != 2:
        failures.append("executors %s, tasks ran on %s; expected two executors, both used"
                        % (sorted(executors), sorted({e[2] for e in ends})))
    if not job_results or any(r != "JobSucceeded" for r in job_results):
        failures.append("job results %s" % job_results)
    for e in failed:
        print("spark event log: partition %d attempt %d on executor %s: %s: %s"
              % (e[0], e[1], e[2], e[3], e[4].splitlines()[0] if e[4] else ""))
    return failures


def check_attempts(paths, attempts, work, linkbase):
    """What the test daemon recorded of each run of the binary."""
    failures = []
    entries = []
    for path in sorted(glob.glob(os.path.join(attempts, "*.json"))):
        with open(path) as f:
            entries.append(json.load(f))
    seen = sorted((e["file"], e["attempt"]) for e in entries)
    names = [os.path.basename(p) for p in paths]
    want = sorted([(n, 0) for n in names] + [(KILLED, 1)])
    if seen != want:
        failures.append("linkbase runs recorded %s; expected %s" % (seen, want))
    if not any(e["killed"] and e["file"] == KILLED and e["attempt"] == 0 for e in entries):
        failures.append("no record of the killed first attempt of %s" % KILLED)
    workers = set()
    build = os.path.realpath(linkbase)
    for e in entries:
        where = os.path.relpath(e["cwd"], work).split(os.sep)
        # WORK/worker-N/app-ID/EXECUTOR-ID: the executor's own folder.
        if len(where) != 3 or not where[0].startswith("worker-") or not where[1].startswith("app-"):
            failures.append("%s attempt %d ran in %s, not in an executor's folder" % (e["file"], e["attempt"], e["cwd"]))
            continue
        workers.add(where[0])
        if e["binary_realpath"] != os.path.join(os.path.realpath(e["cwd"]), "linkbase") or e["binary_realpath"] == build:
            failures.append("%s attempt %d ran %s (%s), not the copy shipped to its executor"
                            % (e["file"], e["attempt"], e["binary"], e["binary_realpath"]))
    if workers != {"worker-1", "worker-2"}:
        failures.append("tasks ran under %s; expected both workers" % sorted(workers))
    folders = sorted({os.path.relpath(e["cwd"], work) for e in entries})
    print("executor folders that ran linkbase: %s" % ", ".join(folders))
    print("binaries run: %s" % ", ".join(sorted({e["binary"] for e in entries})))
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--master", required=True)
    parser.add_argument("--venv", required=True)
    parser.add_argument("--linkbase", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()

    work = args.work
    paths = test_local.make_inputs(os.path.join(work, "in"))
    manifest = os.path.join(work, "manifest.txt")
    test_local.write_manifest(manifest, paths)
    out, attempts, events = (os.path.join(work, n) for n in ("out", "attempts", "events"))
    os.makedirs(events)
    os.makedirs(os.path.join(work, "executor-tmp"))

    # The driver names the binary `linkbase` only, and none is on PATH: the
    # executors can run it only through SparkFiles (spark-submit --files).
    path = os.pathsep.join(d for d in os.environ.get("PATH", "").split(os.pathsep)
                           if not os.path.exists(os.path.join(d, "linkbase")))
    env = dict(os.environ, PATH=path, LINKBASE="linkbase", SOURCE_DATE_EPOCH=EPOCH,
               SPARK_LOCAL_IP="127.0.0.1")
    assert shutil.which("linkbase", path=path) is None
    command = submit_command(args, manifest, out, attempts, events)
    print("$ " + " ".join(command))
    started = time.time()
    job = subprocess.run(command, env=env, capture_output=True, text=True, cwd=work)
    elapsed = time.time() - started
    print(job.stdout)
    if job.returncode != 0:
        print(job.stderr[-8000:])
        print("FAIL: spark-submit exited with status %d" % job.returncode)
        return 1

    cli_env = dict(os.environ, SOURCE_DATE_EPOCH=EPOCH)
    failures = test_local.compare_with_cli(paths, out, work, cli_env, linkbase=args.linkbase)
    ends, executors, job_results = task_ends(events)
    failures += check_retry(paths, ends, executors, job_results)
    failures += check_attempts(paths, attempts, work, args.linkbase)
    for failure in failures:
        print("FAIL", failure)
    if failures:
        print(job.stderr[-8000:])
    print("spark standalone cluster: %d WARCs, %d task attempts of which %d failed, spark-submit "
          "%.1f s, %d failures" % (len(paths), len(ends), sum(e[3] != "Success" for e in ends),
                                   elapsed, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
