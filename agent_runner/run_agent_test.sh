#!/bin/bash
# Tests run_agent's command line: flags, outputs, exit status, isolation
# flags, and that processes which leave the agent's process group are killed
# too.
set -uo pipefail

runner=agent_runner/run_agent
dummy=agent_runner/agents/dummy_sh
tmp="${TEST_TMPDIR:?}/run_agent_test"
# What the sandbox needs: its entry program, and where the agents' files may
# resolve (the test agents' source directory and the test's own files).
# A ledger of its own (admission.h): runs of other tests on the machine never
# make these wait, which would add a line to stderr.
sandbox=(--sandbox_entry agent_runner/sandbox_entry
         --allowed_roots "$(dirname "$(readlink -f "$dummy")"):$TEST_TMPDIR"
         --admission_ledger "$TEST_TMPDIR/admission_ledger")
# Root must get cgroups; an ordinary user without a delegated cgroup runs the
# agents without limits (the runner refuses otherwise).
limits=()
[[ "$(id -u)" == 0 ]] || limits=(--resource_limits off)
rm -rf "$tmp"
mkdir -p "$tmp/public/sub"
printf 'id,label\n0,a\n' > "$tmp/public/sample_submission.csv"
printf 'x\n' > "$tmp/public/sub/file.txt"
printf '# Toy\n' > "$tmp/description.md"

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# Runs run_agent with the common flags for run "$1", then the remaining args.
run() {
  local name="$1"; shift
  "$runner" --competition toy --public "$tmp/public" --description "$tmp/description.md" \
    --submission_out "$tmp/$name/submission" --log_out "$tmp/$name/agent.log" \
    --record_out "$tmp/$name/record.json" "${sandbox[@]}" "${limits[@]}" "$@" \
    2> "$tmp/$name.stderr"
}

# Dummy agent, both flag spellings.
mkdir -p "$tmp/dummy"
run dummy --agent "$dummy" --time_limit_s=5 --seed 3 || fail "dummy run exited $?"
cmp -s "$tmp/public/sample_submission.csv" "$tmp/dummy/submission/submission.csv" \
  || fail "dummy submission differs from the sample"
record="$(cat "$tmp/dummy/record.json")"
# The defaults: bwrap (./bazelw installs it), no network.
expected='^\{"competition_id": "toy", "agent": "dummy_sh", "seed": 3, "exit_code": 0, "signal": null, "timed_out": false, "duration_s": [0-9]+\.[0-9]{3}, "time_limit_s": 5, "submission_exists": true, "submission_bytes": 13, "isolation": "bwrap", "network": "deny", "quota_exceeded": false, "out_of_memory": false, "log_truncated": false, "agent_label": "agent_runner/agents/dummy_sh", "agent_digest": "", "environment_digest": "", "cpus": [0-9]+, "cpu_ids": "", "memory_limit_bytes": [0-9]+, "processes_limit": 4096, "gpu_ids": "", "admission_wait_s": [0-9.]+, "cpu_seconds": [0-9.]+, "memory_peak_bytes": [0-9]+, "processes_limit_hits": 0, "ended_by": "agent", "kept_files": 0, "kept_bytes": 0, "kept_skipped": 0, "allowed_hosts": \[\], "egress_gateway": "", "connections_total": 0, "connections_refused": 0, "connections_failed": 0, "connections_refused_upstream": 0, "connections_truncated": false, "connections": \[\], "secrets": \[\]\}$'
[[ "$record" =~ $expected ]] || fail "unexpected record: $record"
grep -q "dummy: copied" "$tmp/dummy/agent.log" || fail "dummy log lacks its message"

# Isolation flags: bwrap with the network; none (which shares the host's).
mkdir -p "$tmp/allow" "$tmp/none" "$tmp/nolimits"
run allow --agent "$dummy" --time_limit_s 5 --seed 0 --isolation bwrap --network unconfined \
  || fail "allow run exited $?"
grep -q '"isolation": "bwrap", "network": "unconfined", ' "$tmp/allow/record.json" \
  || fail "allow record: $(cat "$tmp/allow/record.json")"
run none --agent "$dummy" --time_limit_s 5 --seed 0 --isolation none --network unconfined \
  || fail "none run exited $?"
grep -q '"isolation": "none", "network": "unconfined", ' "$tmp/none/record.json" \
  || fail "none record: $(cat "$tmp/none/record.json")"
if [[ "$(id -u)" == 0 ]]; then
  run nolimits --agent "$dummy" --time_limit_s 5 --seed 0 --resource_limits off \
    || fail "run without limits exited $?"
fi

# Extra args after --, an explicit kept workspace, and a daemon that escapes
# the process group with setsid: run_agent must still kill it.
cat > "$tmp/escape.sh" <<'AGENT'
#!/bin/sh
setsid sleep 1000 &
echo $! > "$1"
echo "extra: $*"
exit 0
AGENT
chmod +x "$tmp/escape.sh"
mkdir -p "$tmp/escape"
# Unisolated, so that the agent can write the pid file outside its workspace
# (under bwrap the pid namespace ends such daemons: see runner_test).
run escape --agent "$tmp/escape.sh" --time_limit_s 5 --seed 0 --workspace "$tmp/ws" \
  --keep_workspace --isolation none --network unconfined -- "$tmp/escaped.pid" second \
  || fail "escape run exited $?"
grep -q "^extra: $tmp/escaped.pid second$" "$tmp/escape/agent.log" || fail "extra args not passed"
[[ -f "$tmp/ws/instructions.txt" && -f "$tmp/ws/data/sub/file.txt" ]] || fail "workspace not kept"
[[ -d "$tmp/escape/submission" && -z "$(ls -A "$tmp/escape/submission")" ]] \
  || fail "submission dir should exist and be empty"
pid="$(cat "$tmp/escaped.pid")"
if kill -0 "$pid" 2>/dev/null && ! grep -q '^[^)]*) Z' "/proc/$pid/stat" 2>/dev/null; then
  fail "escaped daemon $pid still runs"
  kill -9 "$pid"
fi

# A run killed with SIGKILL (how Bazel ends an action on an interrupt or a
# timeout) leaves its workspace - 10,000 directories deep, deeper than Bazel's
# own deletion survives - to the janitor: gone within seconds, lock file and
# agent too.
cat > "$tmp/deep.py" <<'AGENT'
#!/usr/bin/python3
# Chains within the quota walk's depth, joined at once (as hostile agents do).
import os, time
os.chdir("code")
ends = []
for i in range(50):
    fd = os.open(".", os.O_RDONLY)
    for step in range(200):
        name = "c%d" % i if step == 0 else "d"
        os.mkdir(name, dir_fd=fd)
        deeper = os.open(name, os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = deeper
    ends.append(fd)
for i in range(1, 50):
    os.rename("c%d" % i, "c%d" % i, dst_dir_fd=ends[i - 1])
print("deep enough", flush=True)
time.sleep(1000)
AGENT
chmod +x "$tmp/deep.py"
mkdir -p "$tmp/killed"
( exec "$runner" --competition toy --public "$tmp/public" --description "$tmp/description.md" \
    --submission_out "$tmp/killed/submission" --log_out "$tmp/killed/agent.log" \
    --record_out "$tmp/killed/record.json" "${sandbox[@]}" "${limits[@]}" \
    --agent "$tmp/deep.py" --time_limit_s 120 --seed 0 --workspace "$tmp/ws_killed" \
    2> "$tmp/killed.stderr" ) &
runner_pid=$!
# (Minutes, not seconds, on a loaded machine.)
for _ in $(seq 1200); do
  grep -q "deep enough" "$tmp/killed/agent.log" 2>/dev/null && break
  sleep 0.1
done
grep -q "deep enough" "$tmp/killed/agent.log" || fail "the deep agent did not start: $(cat "$tmp/killed.stderr")"
kill -9 "$runner_pid"
wait "$runner_pid" 2>/dev/null
for _ in $(seq 1200); do
  [[ -e "$tmp/ws_killed" || -e "$tmp/ws_killed.lock" || -e "$tmp/ws_killed.sandbox" ]] || break
  sleep 0.1
done
[[ -e "$tmp/killed/record.json" ]] && fail "the runner finished: the janitor was not tested"
[[ -e "$tmp/ws_killed" ]] && fail "the janitor left the killed run's workspace"
[[ -e "$tmp/ws_killed.lock" ]] && fail "the janitor left the killed run's lock file"
pgrep -f "$tmp/deep.py" > /dev/null && fail "the killed run's agent still runs"

# A workspace left with its lock file by a run that died with its janitor
# (a host crash) is removed by the next run; one without a lock file the
# runner did not make, and is not touched.
mkdir -p "$tmp/ws_stale/code" "$tmp/stale"
( cd "$tmp/ws_stale/code" && python3 -c '
import os
for _ in range(20000):
    os.mkdir("d")
    os.chdir("d")' )
chmod 0500 "$tmp/ws_stale/code"
touch "$tmp/ws_stale.lock"
run stale --agent "$dummy" --time_limit_s 5 --seed 0 --workspace "$tmp/ws_stale" \
  || fail "a run after a dead one exited $?: $(cat "$tmp/stale.stderr")"
[[ -s "$tmp/stale/submission/submission.csv" ]] || fail "no submission after a dead run"
[[ -e "$tmp/ws_stale" || -e "$tmp/ws_stale.lock" ]] && fail "the dead run's workspace stayed"
mkdir -p "$tmp/ws_theirs/keep" "$tmp/theirs"
run theirs --agent "$dummy" --time_limit_s 5 --seed 0 --workspace "$tmp/ws_theirs" \
  && fail "a run replaced a workspace it did not make"
grep -q "must be absent or an empty directory" "$tmp/theirs.stderr" \
  || fail "no reason for refusing a foreign workspace: $(cat "$tmp/theirs.stderr")"
[[ -d "$tmp/ws_theirs/keep" && ! -e "$tmp/ws_theirs.lock" ]] || fail "a foreign workspace was touched"

# In an execroot, --workspace_outside_execroot puts the workspace beside it,
# in the output base, where `bazel clean` never goes.
mkdir -p "$tmp/output_base/execroot/main" "$tmp/outside"
( cd "$tmp/output_base/execroot/main" &&
  "$OLDPWD/$runner" --competition toy --public "$tmp/public" --description "$tmp/description.md" \
    --submission_out "$tmp/outside/submission" --log_out "$tmp/outside/agent.log" \
    --record_out "$tmp/outside/record.json" --sandbox_entry "$OLDPWD/agent_runner/sandbox_entry" \
    --allowed_roots "$(dirname "$(readlink -f "$OLDPWD/$dummy")"):$TEST_TMPDIR" "${limits[@]}" \
    --agent "$OLDPWD/$dummy" --time_limit_s 5 --seed 0 --workspace bazel-out/x/workspace \
    --workspace_outside_execroot --keep_workspace 2> "$tmp/outside.stderr" ) \
  || fail "run outside the execroot exited $?: $(cat "$tmp/outside.stderr")"
[[ -f "$tmp/output_base/mlebench-workspaces/main/bazel-out/x/workspace/instructions.txt" ]] \
  || fail "the workspace is not beside the execroot"
[[ -e "$tmp/output_base/execroot/main/bazel-out" ]] && fail "the workspace is in the execroot"

# Timeout through the binary, with a short grace period.
mkdir -p "$tmp/sleeper"
run sleeper --agent agent_runner/agents/sleeper --time_limit_s 1 --grace_s 0.2 --seed 0 \
  || fail "sleeper run exited $?"
grep -q '"signal": 9, "timed_out": true' "$tmp/sleeper/record.json" \
  || fail "sleeper record: $(cat "$tmp/sleeper/record.json")"
[[ -s "$tmp/sleeper/submission/submission.csv" ]] || fail "sleeper submission not kept"

# Runner errors: non-zero exit and a message saying what is wrong.
expect_error() {
  local message="$1"; shift
  mkdir -p "$tmp/err"
  rm -rf "$tmp/err/"*
  if "$runner" "$@" > /dev/null 2> "$tmp/err.stderr"; then
    fail "expected failure for: $*"
  elif ! grep -qF -- "$message" "$tmp/err.stderr"; then
    fail "expected '$message' for: $* -- got: $(cat "$tmp/err.stderr")"
  fi
}
unsandboxed=(--competition toy --public "$tmp/public" --description "$tmp/description.md"
             --agent "$dummy" --submission_out "$tmp/err/sub" --log_out "$tmp/err/log"
             --record_out "$tmp/err/record.json")
common=("${unsandboxed[@]}" "${sandbox[@]}")
unsandboxed+=(--admission_ledger "$TEST_TMPDIR/admission_ledger")
expect_error "missing flag --time_limit_s" "${common[@]}" --seed 0
expect_error "usage: run_agent" "${common[@]}" --seed 0
expect_error "unknown flag --bogus" "${common[@]}" --seed 0 --time_limit_s 1 --bogus 1
expect_error "--time_limit_s must be an integer" "${common[@]}" --seed 0 --time_limit_s 1.5
expect_error "--seed must be an integer" "${common[@]}" --seed x --time_limit_s 1
expect_error "--grace_s must be a number" "${common[@]}" --seed 0 --time_limit_s 1 --grace_s nan
expect_error "flag --seed given twice" "${common[@]}" --seed 0 --seed 1 --time_limit_s 1
expect_error "flag --seed needs a value" "${common[@]}" --time_limit_s 1 --seed
expect_error "unexpected argument 'stray'" "${common[@]}" --seed 0 --time_limit_s 1 stray
expect_error "--isolation must be bwrap or none, got 'sandbox'" "${common[@]}" --seed 0 \
  --time_limit_s 1 --isolation sandbox
expect_error "auto, which ran the agent unconfined wherever bwrap failed, is gone" \
  "${common[@]}" --seed 0 --time_limit_s 1 --isolation auto
expect_error "--network must be deny, allowlist or unconfined, got 'off'" "${common[@]}" --seed 0 \
  --time_limit_s 1 --network off
expect_error "network deny needs isolation" "${common[@]}" --seed 0 --time_limit_s 1 \
  --isolation none --network deny
expect_error "isolation bwrap is unavailable: cannot execute $tmp/no/bwrap" "${common[@]}" \
  --seed 0 --time_limit_s 1 --isolation bwrap --bwrap "$tmp/no/bwrap"
expect_error "isolation bwrap is unavailable" "${common[@]}" --seed 0 \
  --time_limit_s 1 --network unconfined --bwrap "$tmp/no/bwrap"
expect_error "--resource_limits must be on or off, got 'maybe'" "${common[@]}" --seed 0 \
  --time_limit_s 1 --resource_limits maybe
expect_error "--pids needs --resource_limits on" "${common[@]}" --seed 0 \
  --time_limit_s 1 --resource_limits off --pids 10
expect_error "--memory_bytes must be a non-negative integer, got '-1'" "${common[@]}" --seed 0 \
  --time_limit_s 1 --memory_bytes -1
expect_error "--cpus must be a non-negative whole number, got 'lots'" "${common[@]}" --seed 0 \
  --time_limit_s 1 --cpus lots
expect_error "the source tree marker" "${common[@]}" --seed 0 \
  --time_limit_s 1 --source_tree_marker "$tmp/absent_marker"
# The dummy agent lives in the source tree, which these roots leave out.
expect_error "the agent cannot be sandboxed" "${unsandboxed[@]}" --seed 0 --time_limit_s 1 \
  --sandbox_entry agent_runner/sandbox_entry --allowed_roots "$tmp/public"
expect_error "isolation bwrap needs the allowed roots" "${unsandboxed[@]}" --seed 0 \
  --time_limit_s 1 --sandbox_entry agent_runner/sandbox_entry
expect_error "cannot read public dir" "${common[@]/#$tmp\/public/$tmp/absent}" --seed 0 \
  --time_limit_s 1
[[ ! -e "$tmp/err/record.json" ]] || fail "a failed run must not write a record"

# An error that quotes a name the agent's files chose (a runfile named to
# forge console lines) is one escaped line: Bazel shows this stderr.
mkdir -p "$tmp/forger.sh.runfiles"
cp "$dummy" "$tmp/forger.sh"
ln -s / "$tmp/forger.sh.runfiles/$(printf 'x\ngate valid: PASS\033[2K')"
mkdir -p "$tmp/forger"
run forger --agent "$tmp/forger.sh" --time_limit_s 5 --seed 0 && fail "a runfile linking to / was staged"
[[ "$(wc -l < "$tmp/forger.stderr")" == 1 ]] || fail "the error is not one line: $(cat "$tmp/forger.stderr")"
grep -q "$(printf '\033')" "$tmp/forger.stderr" && fail "an escape sequence reached stderr"
grep -qF 'x\ngate valid: PASS\x1b[2K' "$tmp/forger.stderr" \
  || fail "the name is not shown escaped: $(cat "$tmp/forger.stderr")"

if (( failures )); then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo "PASS"
