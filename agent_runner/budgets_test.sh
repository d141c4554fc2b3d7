#!/bin/bash
# Budgets, enforced by the kernel and recorded (docs/agents.md, "Budgets"):
# CPUs (cpuset, affinity, what os.cpu_count() and nproc say), memory (the OOM
# killer, /dev/shm counted), processes, time, GPUs (only the granted device
# nodes, made here with mknod), admission of concurrent runs, and the agent's
# environment mounted read-only. Runs run_agent as root (cgroups); it is the
# only way to test what the kernel enforces.
set -uo pipefail

runner=agent_runner/run_agent
tmp="${TEST_TMPDIR:?}/budgets_test"
agents="$tmp/agents"
rm -rf "$tmp"
mkdir -p "$tmp/public" "$agents"
printf 'id,label\n0,a\n' > "$tmp/public/sample_submission.csv"
printf '# Toy\n' > "$tmp/description.md"
ledger="$tmp/ledger"
if [[ "$(id -u)" != 0 ]]; then
  echo "SKIP: needs root for cgroups and device nodes; CI runs it as root"
  exit 0
fi

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

agent() {  # NAME BODY: an agent script
  printf '#!/bin/sh\n%s\n' "$2" > "$agents/$1"
  chmod 0555 "$agents/$1"
}
# A real locked environment (pandas, scikit-learn, joblib) from the test's
# runfiles: the repository's env/ directory.
real_env="$(dirname "$(readlink -f "../example_python/env/pyvenv.cfg")")"
env="$tmp/environment"
mkdir -p "$env/bin"
run() {  # NAME ARGS...: run_agent on agent NAME
  local name="$1"; shift
  "$runner" --competition toy --public "$tmp/public" --description "$tmp/description.md" \
    --submission_out "$tmp/$name/submission" --log_out "$tmp/$name/agent.log" \
    --record_out "$tmp/$name/record.json" --sandbox_entry agent_runner/sandbox_entry \
    --allowed_roots "$agents:$env:$(dirname "$real_env")" --admission_ledger "$ledger" \
    --agent "$agents/$name" --seed 0 "$@" 2> "$tmp/$name.stderr"
}
field() { grep -o "\"$2\": [^,}]*" "$tmp/$1/record.json"; }
expect_field() {  # RUN KEY VALUE
  [[ "$(field "$1" "$2")" == "\"$2\": $3" ]] ||
    fail "$1: record has $(field "$1" "$2"), expected $3: $(cat "$tmp/$1/record.json")"
}
log_has() { grep -qF -- "$2" "$tmp/$1/agent.log" || fail "$1: log lacks '$2': $(cat "$tmp/$1/agent.log")"; }

# CPUs: one core, seen as one by every way libraries ask, and no way wider.
agent cpus 'echo "nproc $(nproc)"
python3 -c "import os; print(\"cpu_count\", os.cpu_count(), \"affinity\", len(os.sched_getaffinity(0)))"
echo "omp $OMP_NUM_THREADS mlebench $MLEBENCH_CPUS"
if taskset -a -p -c 0-1023 $$ >/dev/null 2>&1 && [ "$(nproc)" != 1 ]; then echo "widened"; fi
grep Cpus_allowed_list /proc/self/status'
run cpus --time_limit_s 30 --cpus 1 || fail "cpus: run_agent exited $?"
log_has cpus "nproc 1"
log_has cpus "cpu_count 1 affinity 1"
log_has cpus "omp 1 mlebench 1"
grep -q widened "$tmp/cpus/agent.log" && fail "cpus: the agent widened its CPUs"
expect_field cpus cpus 1
grep -q '"cpu_ids": "[0-9]*"' "$tmp/cpus/record.json" || fail "cpus: no single cpu id recorded"

# Memory: past the limit the OOM killer ends the agent; the record says so.
agent memory 'exec python3 -c "b = bytearray(400 << 20); print(\"allocated\")"'
run memory --time_limit_s 30 --memory_bytes $((128 << 20)) || fail "memory: run_agent exited $?"
expect_field memory out_of_memory true
expect_field memory ended_by '"memory_limit"'
expect_field memory memory_limit_bytes $((128 << 20))
grep -q allocated "$tmp/memory/agent.log" && fail "memory: 400 MiB fit in 128 MiB"

# /dev/shm is the agent's, writable, and counts against its memory.
agent shm 'python3 -c "
import multiprocessing as m
lock = m.Lock(); lock.acquire(); lock.release(); print(\"lock ok\")
" ; head -c $((300 << 20)) /dev/zero > /dev/shm/big && echo "shm filled"'
run shm --time_limit_s 30 --memory_bytes $((128 << 20)) || fail "shm: run_agent exited $?"
log_has shm "lock ok"
grep -q "shm filled" "$tmp/shm/agent.log" && fail "shm: 300 MiB of /dev/shm fit in 128 MiB"

# Processes: fork fails past the limit, and the record counts it.
agent processes 'i=0; while [ $i -lt 40 ]; do sleep 5 & i=$((i + 1)); done 2>/dev/null; echo "started"; exit 0'
run processes --time_limit_s 30 --pids 16 || fail "processes: run_agent exited $?"
expect_field processes processes_limit 16
grep -q '"processes_limit_hits": [1-9]' "$tmp/processes/record.json" ||
  fail "processes: no hit recorded: $(cat "$tmp/processes/record.json")"

# Time: the deadline ends it, and the record says so.
agent sleeper 'sleep 30'
run sleeper --time_limit_s 1 --grace_s 0.5 || fail "sleeper: run_agent exited $?"
expect_field sleeper ended_by '"time_limit"'
expect_field sleeper timed_out true

# CPU time and peak memory are measured.
agent busy 'python3 -c "
b = bytearray(64 << 20)
x = 0
for i in range(3_000_000): x += i
print(x)"'
run busy --time_limit_s 60 --cpus 1 || fail "busy: run_agent exited $?"
python3 - "$tmp/busy/record.json" <<'PY' || fail "busy: usage not recorded"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["cpu_seconds"] > 0.05, r
assert r["memory_peak_bytes"] > 64 << 20, r
assert r["ended_by"] == "agent", r
PY

# GPUs: only the granted device node (and the driver's control node) exists
# inside, CUDA_VISIBLE_DEVICES names it, and more GPUs than the machine has
# is an error. The nodes are /dev/null's numbers, made here.
dev="$tmp/dev"
mkdir -p "$dev"
for node in nvidia0 nvidia1 nvidiactl; do mknod "$dev/$node" c 1 3; done
agent gpus 'ls /dev | grep nvidia | tr "\n" " "; echo; echo "cuda=$CUDA_VISIBLE_DEVICES gpus=$MLEBENCH_GPUS"'
run gpus --time_limit_s 30 --gpus 1 --device_dir "$dev" || fail "gpus: run_agent exited $?"
log_has gpus "nvidia0 nvidiactl "
log_has gpus "cuda=0 gpus=1"
expect_field gpus gpu_ids '"0"'
run gpus --time_limit_s 30 --device_dir "$dev" || fail "gpus: run_agent exited $?"
log_has gpus "cuda= gpus=0"
grep -q nvidia "$tmp/gpus/agent.log" && fail "gpus: a GPU node without a grant"
if run gpus --time_limit_s 30 --gpus 3 --device_dir "$dev"; then
  fail "gpus: 3 GPUs granted on a machine of 2"
fi
grep -q "more than this machine has" "$tmp/gpus.stderr" || fail "gpus: $(cat "$tmp/gpus.stderr")"

# Admission: two runs that each want every CPU do not overlap.
agent overlap 'date +%s.%N > "$MLEBENCH_LOGS_DIR/../submission/start"; sleep 1; date +%s.%N > "$MLEBENCH_LOGS_DIR/../submission/end"; cp "$MLEBENCH_LOGS_DIR/../submission/start" "$MLEBENCH_LOGS_DIR/../submission/submission.csv"'
mkdir -p "$tmp/overlap2"
cp "$agents/overlap" "$agents/overlap2"
run overlap --time_limit_s 30 --cpus "$(nproc)" & first=$!
run overlap2 --time_limit_s 30 --cpus "$(nproc)" & second=$!
wait "$first" || fail "overlap: run_agent exited $?"
wait "$second" || fail "overlap2: run_agent exited $?"
python3 - "$tmp/overlap/record.json" "$tmp/overlap2/record.json" <<'PY' || fail "admission: the runs overlapped"
import json, sys
waits = [json.load(open(p))["admission_wait_s"] for p in sys.argv[1:]]
assert max(waits) >= 0.9, waits
PY
cat "$tmp/overlap.stderr" "$tmp/overlap2.stderr" | grep -q "waiting for" ||
  fail "admission: the waiting run did not say so"
[[ -s "$ledger" ]] && fail "admission: the ledger keeps entries of finished runs: $(cat "$ledger")"

# The environment: mounted read-only at its mount point, its bin/ on PATH.
mkdir -p "$env/bin"
printf '#!/bin/sh\necho "hello from the environment"\n' > "$env/bin/hello"
chmod 0755 "$env/bin/hello"
echo "0123456789abcdef" > "$env/digest"
agent envuser 'hello; touch /opt/mlebench/test-env/bin/x 2>/dev/null && echo "env writable"; echo "path=$PATH"'
run envuser --time_limit_s 30 --environment "$env" --environment_mount /opt/mlebench/test-env \
  --environment_path bin --environment_digest_file "$env/digest" || fail "envuser: exited $?"
log_has envuser "hello from the environment"
log_has envuser "path=/opt/mlebench/test-env/bin:/usr/bin:/bin"
grep -q "env writable" "$tmp/envuser/agent.log" && fail "envuser: the environment is writable"
expect_field envuser environment_digest '"0123456789abcdef"'
# An environment that holds what the agent must not see is refused.
if run envuser --time_limit_s 30 --environment "$tmp" --environment_mount /opt/mlebench/test-env; then
  fail "envuser: an environment holding the public dir was mounted"
fi
grep -q "the agent's environment" "$tmp/envuser.stderr" || fail "envuser: $(cat "$tmp/envuser.stderr")"
# So is one holding what looks like a competition's data (or an output base,
# a disk cache, ...) anywhere inside it.
mkdir -p "$env/share/kaggle/prepared/private"
if run envuser --time_limit_s 30 --environment "$env" --environment_mount /opt/mlebench/test-env; then
  fail "envuser: an environment holding prepared/private was mounted"
fi
grep -q "looks like a competition's data directory" "$tmp/envuser.stderr" ||
  fail "envuser: $(cat "$tmp/envuser.stderr")"
rm -rf "$env/share"
# Mounted under /opt/mlebench only: never over /etc (an ld.so.preload there
# would run in the sandbox entry before it drops root), /usr, /tmp, ...
for mount in /etc /usr/lib /opt/mlebench /opt/mlebench/a/b /opt/mlebench/../etc /tmp/x; do
  if run envuser --time_limit_s 30 --environment "$env" --environment_mount "$mount"; then
    fail "envuser: an environment was mounted at $mount"
  fi
  grep -q "mount point must be /opt/mlebench/<name>" "$tmp/envuser.stderr" ||
    fail "envuser: $mount: $(cat "$tmp/envuser.stderr")"
done
# An environment resolving outside the allowed roots (a link to a data dir's
# answers) is refused, as a runfile there would be.
mkdir -p "$tmp/olddata/comp/prepared/private"
echo "id,answer" > "$tmp/olddata/comp/prepared/private/answers.csv"
ln -s "$tmp/olddata/comp/prepared/private" "$env/answers"
if run envuser --time_limit_s 30 --environment "$env/answers" --environment_mount /opt/mlebench/x; then
  fail "envuser: an environment linking to answers was mounted"
fi
grep -q "lies outside every allowed root" "$tmp/envuser.stderr" ||
  fail "envuser: $(cat "$tmp/envuser.stderr")"
rm "$env/answers"
# A FIFO or socket inside (a host service the bind would expose) is refused.
mkfifo "$env/service"
if run envuser --time_limit_s 30 --environment "$env" --environment_mount /opt/mlebench/x; then
  fail "envuser: an environment holding a FIFO was mounted"
fi
grep -q "socket, FIFO or device node" "$tmp/envuser.stderr" || fail "envuser: $(cat "$tmp/envuser.stderr")"
rm "$env/service"
# A digest file is one line of hexadecimal, read at most 129 bytes of.
head -c 10000000 /dev/zero | tr '\0' 'a' > "$env/huge_digest"
if run envuser --time_limit_s 30 --environment "$env" --environment_mount /opt/mlebench/x \
    --environment_digest_file "$env/huge_digest"; then
  fail "envuser: a 10 MB digest was accepted"
fi
grep -q "cannot read a digest" "$tmp/envuser.stderr" || fail "envuser: $(cat "$tmp/envuser.stderr")"
rm "$env/huge_digest"

# A real locked environment: its python3 first on PATH, its packages
# importable with the network denied, and joblib's processes (loky, on
# /dev/shm) and threads as many as the granted CPUs.
agent python 'python3 - <<PY
import os, sys
import joblib, numpy, pandas, sklearn
print("prefix", sys.prefix)
print("joblib cpus", joblib.cpu_count(), "os", os.cpu_count())
import time
def work(_):
    time.sleep(0.3)
    return os.getpid()
pids = joblib.Parallel(n_jobs=2, backend="loky")(joblib.delayed(work)(i) for i in range(6))
print("workers", len(set(pids)))
from threadpoolctl import threadpool_info
print("blas threads", max(p["num_threads"] for p in threadpool_info()))
PY'
run python --time_limit_s 120 --cpus 2 --environment "$real_env" \
  --environment_mount /opt/mlebench/python --environment_path bin || fail "python: exited $?"
log_has python "prefix /opt/mlebench/python"
log_has python "joblib cpus 2 os 2"
log_has python "workers 2"
log_has python "blas threads 2"
cp "$agents/python" "$agents/python1"
run python1 --time_limit_s 120 --cpus 1 --environment "$real_env" \
  --environment_mount /opt/mlebench/python --environment_path bin || fail "python1: exited $?"
log_has python1 "joblib cpus 1 os 1"
log_has python1 "blas threads 1"

if [[ "$failures" != 0 ]]; then
  echo "$failures failure(s)"
  exit 1
fi
echo PASS
