"""A test-only PySpark daemon for examples/spark/test_cluster.py: the
executors' Python daemon (`spark.python.daemon.module=kill_first_attempt`,
this folder on the executors' PYTHONPATH), which is PySpark's own daemon
with one change: `subprocess.run`, through which absolutize_warcs.py runs
linkbase, is wrapped so that

- every run of the linkbase binary is recorded: one JSON file per task
  attempt in LINKBASE_TEST_ATTEMPTS (input file, partition, attempt number
  from the TaskContext, the binary's path as the task found it and where it
  really is, the worker process's working folder, its pid);
- on the **first attempt** (TaskContext.attemptNumber() == 0) of the task
  whose input file is named LINKBASE_TEST_KILL_FIRST_ATTEMPT, the Python
  worker running the task kills itself with SIGKILL once linkbase has
  written its output, before the task publishes it: a hard crash in the
  middle of a task, which Spark sees as a lost Python worker and retries
  (spark.task.maxFailures).

absolutize_warcs.py itself is submitted unchanged; nothing here is used
outside the cluster test. Spark's own test suite instruments its workers the
same way (spark.python.daemon.module, for coverage).
"""

import json
import os
import signal
import subprocess

from pyspark import TaskContext, daemon

_run = subprocess.run


def _record_and_maybe_kill(command, result):
    context = TaskContext.get()
    if context is None or not isinstance(command, (list, tuple)) or len(command) < 2:
        return
    binary = str(command[0])
    inputs = [str(a) for a in command[1:] if str(a).endswith((".warc", ".warc.gz"))]
    if not inputs:
        return
    name = os.path.basename(inputs[0])
    kill = (context.attemptNumber() == 0
            and name == os.environ.get("LINKBASE_TEST_KILL_FIRST_ATTEMPT"))
    folder = os.environ.get("LINKBASE_TEST_ATTEMPTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        entry = dict(file=name, partition=context.partitionId(), attempt=context.attemptNumber(),
                     task_attempt_id=context.taskAttemptId(), binary=binary,
                     binary_realpath=os.path.realpath(binary), cwd=os.getcwd(), pid=os.getpid(),
                     exit_status=result.returncode, killed=kill)
        path = os.path.join(folder, "%s.%d.json" % (name, context.attemptNumber()))
        with open(path + ".part", "w") as f:
            json.dump(entry, f)
        os.replace(path + ".part", path)
    if kill:
        os.kill(os.getpid(), signal.SIGKILL)


def run(command, *args, **kwargs):
    result = _run(command, *args, **kwargs)
    _record_and_maybe_kill(command, result)
    return result


subprocess.run = run

if __name__ == "__main__":
    daemon.manager()
