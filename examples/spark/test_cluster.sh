#!/usr/bin/env bash
# CI's Spark cluster step (issue 21): a Spark standalone master and two
# workers on 127.0.0.1, started from the PySpark distribution in VENV
# (spark-class, as `start-master.sh`/`start-worker.sh` would; PySpark's pip
# package ships spark-class but not those scripts), then
# examples/spark/test_cluster.py submits absolutize_warcs.py to them with
# spark-submit and checks the run (docs/spark.md, "On a real cluster").
# The master, the workers and everything they started (executors, Python
# workers, linkbase) are stopped on exit, whatever happened (trap).
#
# Usage: LINKBASE=target/debug/linkbase examples/spark/test_cluster.sh [VENV]
#        (VENV defaults to target/ci-venv, with tests/interop/requirements-spark.txt
#        installed; Java 17 on PATH). KEEP_SPARK_WORK=1 keeps the scratch folder.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
venv=$(cd "${1:-target/ci-venv}" && pwd)
python=$venv/bin/python
linkbase=$(realpath "${LINKBASE:-target/debug/linkbase}")
work=$(mktemp -d "${TMPDIR:-/tmp}/linkbase-spark-cluster.XXXXXX")
# The Spark distribution inside the pip package (spark-class would look for
# it with whichever `python` is first on PATH).
SPARK_HOME=$("$python" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')
export SPARK_HOME SPARK_LOCAL_IP=127.0.0.1 SPARK_LOG_DIR=$work/logs SPARK_PID_DIR=$work
# The daemons' own JVMs are small; the executors get their memory below.
export SPARK_DAEMON_MEMORY=256m

groups=()
stop_cluster() {
  local status=$?
  # Each daemon leads its own process group (setsid): the worker's
  # executors and their Python workers are in it too.
  for pgid in "${groups[@]}"; do kill -TERM -- "-$pgid" 2>/dev/null || true; done
  for _ in $(seq 50); do
    local alive=0
    for pgid in "${groups[@]}"; do
      if kill -0 -- "-$pgid" 2>/dev/null; then alive=1; fi
    done
    if [ $alive = 0 ]; then break; fi
    sleep 0.2
  done
  for pgid in "${groups[@]}"; do kill -KILL -- "-$pgid" 2>/dev/null || true; done
  if [ $status != 0 ]; then
    echo "spark cluster: failed (status $status); the daemons' logs:"
    for log in "$work"/*.log; do echo "--- $log"; tail -n 40 "$log"; done
  fi
  if [ "${KEEP_SPARK_WORK:-}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
  exit $status
}
trap stop_cluster EXIT
trap 'exit 130' INT TERM

free_port() { "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
master_port=$(free_port)
master_ui=$(free_port)
master=spark://127.0.0.1:$master_port

start() { # start NAME CLASS ARGS...: one daemon in its own process group
  local name=$1
  shift
  setsid "$venv/bin/spark-class" "$@" >"$work/$name.log" 2>&1 &
  groups+=($!)
}

# Wait (at most $1 seconds) until the master's status page says $2 workers
# are alive; fail at once if a daemon has exited.
wait_for_workers() {
  "$python" - "$master_ui" "$1" "$2" "${groups[@]}" <<'EOF'
import json, os, sys, time, urllib.request
port, limit, want = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
deadline, alive = time.time() + limit, None
while time.time() < deadline:
    for pid in sys.argv[4:]:
        try:  # gone, or a zombie not yet reaped by the shell
            with open("/proc/%s/stat" % pid) as stat:
                running = stat.read().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            running = False
        if not running:
            sys.exit("a Spark daemon (pid %s) has exited" % pid)
    try:
        with urllib.request.urlopen("http://127.0.0.1:%d/json/" % port, timeout=2) as page:
            alive = json.load(page).get("aliveworkers")
        if alive == want:
            sys.exit(0)
    except OSError:
        pass
    time.sleep(0.5)
sys.exit("the master has %s alive workers after %.0f s, not %d" % (alive, limit, want))
EOF
}

started=$(date +%s)
start master org.apache.spark.deploy.master.Master \
  --host 127.0.0.1 --port "$master_port" --webui-port "$master_ui"
wait_for_workers 90 0
for n in 1 2; do
  mkdir -p "$work/worker-$n"
  start "worker-$n" org.apache.spark.deploy.worker.Worker \
    --host 127.0.0.1 --cores 1 --memory 1g --webui-port 0 \
    --work-dir "$work/worker-$n" "$master"
done
wait_for_workers 90 2
echo "spark cluster: master $master and 2 workers up in $(($(date +%s) - started)) s"

"$python" "$here/test_cluster.py" --master "$master" --venv "$venv" \
  --linkbase "$linkbase" --work "$work"
echo "spark cluster: passed in $(($(date +%s) - started)) s, from the master's start to the last check"
