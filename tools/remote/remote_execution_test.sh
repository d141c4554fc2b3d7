#!/usr/bin/env bash
# Integration test: the lite split on this project's own Buildbarn cluster.
#
# Starts the cluster (tools/remote/cluster.sh: storage, scheduler, a cpu pool
# of two slots and a gpu pool of one whose slot gets a device node made here,
# /dev/nvidia0), then drives a nested Bazel on copies of this workspace:
#   L. local:   //competitions:lite with the dummy agent, as a user without a
#               cluster runs it: the reference for what follows;
#   A. remote:  the same with --config=remote from a fresh output base, every
#               synthetic-data, prepare, agent, grade and test step executed
#               (no cache lookup): each ran remotely, on the cpu pool (the
#               execution log's platform, the scheduler's per-pool counts), and
#               the reports and JUnit XML equal L's (less measured times);
#   G. GPU:     an agent that asks for a GPU (testing/gpu_probe_agent) on one
#               competition: its run went to the gpu pool and saw the device;
#               the sample run beside it, and every other step, to the cpu pool.
#               The agent, and a build action of its own target, found none of
#               the cluster's ports, the host's paths, the answers' paths in a
#               local output base or the answers' bytes in the cluster's files;
#               run here on the host, the same probe finds them (a control);
#   X. a build action tagged `local` (which would run next to the output
#               base): refused under --config=remote, never run here;
#   Y. an action whose output is a symbolic link (which this client would
#               resolve in its own output tree): refused by the workers;
#   I. the adversary agent (agent_runner/testing) on a worker: contained, with
#               the same isolation and limits as on a workstation;
#   N. network allowlist on a worker, through the run's proxy and the
#               cluster's egress gateway (which allows one of two origins);
#   S. shared cache: a second clone with a fresh output base runs A's command:
#               nothing executes; the agent changed: only agent, grade and test
#               steps run; one grader changed: only that competition is graded
#               again;
#   C. --config=remote-cache from a fresh output base: nothing executes, and
#               the reports equal L's.
# The cluster's storage is kept in the user's cache between runs (a team's
# cache): the first run on a machine compiles remotely (several minutes),
# later runs take the compiles from it. Changes made by S are salted with a
# fresh nonce, so that they are new to that cache in every run.
set -euo pipefail

source bazel/nested_bazel.sh
here="$(pwd)"
home="$(getent passwd "$(id -u)" | cut -d: -f6)"
logs="$TEST_TMPDIR/logs"
mkdir -p "$logs"
fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }

[[ "$(id -u)" == 0 ]] || fail "the cluster's runners need root (tools/remote/slot_userns.py)"

# --- the cluster -------------------------------------------------------------
export XDG_CACHE_HOME="$home/.cache"  # Buildbarn's binaries, built once per machine
export MLEBENCH_CLUSTER_DIR="${MLEBENCH_TEST_CLUSTER_DIR:-$home/.cache/mlebench/remote-test-cluster}"
export MLEBENCH_CAS_SIZE=$((4 * 1024 * 1024 * 1024))
export MLEBENCH_CPU_SLOTS=2 MLEBENCH_GPU_SLOTS=1
mkdir -p "$(dirname "$MLEBENCH_CLUSTER_DIR")"
# One test at a time on that directory.
exec 7>"$MLEBENCH_CLUSTER_DIR.lock"
flock 7
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port=27980
while ! { port_free $port && port_free $((port + 1)) && port_free $((port + 2)) &&
          port_free $((port + 3)) && port_free $((port + 4)) && port_free $((port + 5)); }; do
  port=$((port + 10))
  ((port < 28980)) || fail "no six free loopback ports from 27980"
done
export MLEBENCH_CLUSTER_PORT=$port
mkdir -p "$TEST_TMPDIR/dev"
mknod "$TEST_TMPDIR/dev/nvidia0" c 195 0
export MLEBENCH_GPU_DEVICES="$TEST_TMPDIR/dev/nvidia0"
# Two web servers on the host for the allow-list step: the gateway lets
# agents reach the first only.
mkdir -p "$TEST_TMPDIR/origin"
echo "hello from the origin" >"$TEST_TMPDIR/origin/index.html"
origins=()
origin_pids=()
for o in 0 1; do
  p=28400
  while ! port_free $p || [[ " ${origins[*]} " == *" $p "* ]]; do p=$((p + 1)); done
  python3 -I -m http.server "$p" --bind 127.0.0.1 --directory "$TEST_TMPDIR/origin" \
    >"$TEST_TMPDIR/origin-$o.log" 2>&1 &
  origin_pids+=($!)
  origins+=("$p")
done
export MLEBENCH_EGRESS_HOSTS="127.0.0.1:${origins[0]}"
export MLEBENCH_EGRESS_GATEWAY="$here/tools/remote/egress_gateway"
tools/remote/cluster.sh stop >/dev/null 2>&1 || true
trap 'tools/remote/cluster.sh stop >/dev/null 2>&1 || true; kill "${origin_pids[@]}" 2>/dev/null || true' EXIT
tools/remote/cluster.sh start
metrics() { curl -fsS "http://127.0.0.1:$((port + 4))/metrics"; }
# Actions the scheduler has handed to workers of pool $1 so far.
scheduled() {
  metrics | grep '^buildbarn_builder_in_memory_build_queue_tasks_scheduled_total{' |
    grep -F "\\\"value\\\":\\\"$1\\\"" | awk '{s += $NF} END {print s + 0}'
}

# --- nested Bazel ------------------------------------------------------------
nested_workspace "$TEST_TMPDIR/ws1"
ws1="$(pwd)"
TARGETS=(//competitions:lite)
AGENT=(--//agent_runner:agent=//agent_runner/agents:dummy
       --repo_env=XDG_CACHE_HOME="$home/.cache")
REMOTE=(--config=remote --remote_executor=grpc://127.0.0.1:$port)
STEPS='^(SyntheticRaw|MlePrepare|MleAgent|MleGrade|TestRunner)$'
# bazel NAME OUTPUT_ROOT COMMAND ARGS...: in the current directory, execution
# log in $logs/NAME.json, console in $logs/NAME.out.
bazel() {
  local name="$1" root="$2" command="$3"
  shift 3
  /usr/bin/bazel-4 --server_javabase=/usr/lib/jvm/default-java --nohome_rc \
    --output_user_root="$TEST_TMPDIR/$root" --batch "$command" \
    --execution_log_json_file="$logs/$name.json" "$@" >"$logs/$name.out" 2>&1 ||
    { tail -n 60 "$logs/$name.out"; fail "step $name: bazel $command failed"; }
}
# The spawns of a step's execution log, one JSON object per line.
spawns() {
  python3 -I - "$logs/$1.json" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
decoder, i = json.JSONDecoder(), 0
while i < len(text):
    while i < len(text) and text[i].isspace():
        i += 1
    if i == len(text):
        break
    spawn, i = decoder.raw_decode(text, i)
    pool = {p["name"]: p["value"] for p in spawn.get("platform", {}).get("properties", [])}.get("Pool", "")
    print(json.dumps({"mnemonic": spawn.get("mnemonic", ""), "runner": spawn.get("runner", ""),
                      "hit": bool(spawn.get("remoteCacheHit")), "pool": pool,
                      "message": spawn.get("progressMessage", "")}))
PY
}
# Spawns of step $1 that executed (not taken from a cache), as "mnemonic pool runner message".
executed() {
  spawns "$1" | python3 -I -c '
import json, sys
for line in sys.stdin:
    s = json.loads(line)
    if not s["hit"]:
        print(s["mnemonic"], s["pool"] or "-", s["runner"], s["message"])'
}
# Reports and JUnit XML of every test under a testlogs dir, measured values
# (times, memory, admission waits) left out, into $2.
normalize() {
  python3 -I - "$1" "$2" <<'PY'
import json, os, re, sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
measured = re.compile(r"(wall_seconds|cpu_seconds|memory_peak_bytes|duration_s|admission_wait_s)")
def scrub(value):
    if isinstance(value, dict):
        return {k: scrub(v) for k, v in value.items() if not measured.fullmatch(k)}
    if isinstance(value, list):
        return [scrub(v) for v in value]
    return value
os.makedirs(dst, exist_ok=True)
for root, _, files in os.walk(src):
    rel = os.path.relpath(root, src)
    for name in files:
        path = os.path.join(root, name)
        if name == "test.xml":
            xml = open(path).read()
            xml = re.sub(r' time="[^"]*"', "", xml)
            xml = re.sub(r'<property name="%s" value="[^"]*"/>' % measured.pattern, "", xml)
            out = os.path.join(dst, rel.replace("/", "__") + ".xml")
            open(out, "w").write(xml)
        elif name == "outputs.zip":
            with zipfile.ZipFile(path) as z:
                for member in sorted(z.namelist()):
                    if member.endswith(".json") and "report" in member:
                        data = scrub(json.loads(z.read(member)))
                        out = os.path.join(dst, rel.replace("/", "__") + "__" + member.replace("/", "__"))
                        open(out, "w").write(json.dumps(data, indent=1, sort_keys=True))
PY
}

# L: local reference (compiles from the outer build's disk cache).
bazel L local test "${NESTED_BUILD_OPTIONS[@]}" "${AGENT[@]}" "${TARGETS[@]}"
testlogs_of() { echo "$(cd "$1" && /usr/bin/bazel-4 --server_javabase=/usr/lib/jvm/default-java --nohome_rc --output_user_root="$TEST_TMPDIR/$2" --batch info bazel-testlogs 2>/dev/null)"; }
normalize "$(testlogs_of "$ws1" local)" "$TEST_TMPDIR/reports-L"
n_reports="$(ls "$TEST_TMPDIR/reports-L" | grep -c 'report' || true)"
((n_reports >= 22)) || fail "step L: expected the lite split's 22 reports at least, got $n_reports"
ok "L: local run of ${TARGETS[*]}: $n_reports reports"

# A: remote, every step executed.
cpu_before="$(scheduled cpu)" gpu_before="$(scheduled gpu)"
bazel A remote-a test "${REMOTE[@]}" "${AGENT[@]}" \
  "--modify_execution_info=$STEPS=+no-remote-cache" "${TARGETS[@]}"
executed A >"$logs/A.executed"
if grep -v ' remote ' "$logs/A.executed" >&2; then fail "step A: spawns above did not run remotely"; fi
for step in SyntheticRaw MlePrepare MleAgent MleGrade TestRunner; do
  count="$(grep -c "^$step cpu remote" "$logs/A.executed" || true)"
  ((count >= 22)) || fail "step A: expected >= 22 $step spawns executed on the cpu pool, got $count"
done
if grep -v '^[A-Za-z]* cpu ' "$logs/A.executed" >&2; then fail "step A: spawns above were not on the cpu pool"; fi
cpu_ran=$(($(scheduled cpu) - cpu_before)) gpu_ran=$(($(scheduled gpu) - gpu_before))
executed_count="$(wc -l <"$logs/A.executed")"
[[ "$gpu_ran" == 0 ]] || fail "step A: the gpu pool ran $gpu_ran actions; none asked for a GPU"
((cpu_ran == executed_count)) ||
  fail "step A: the scheduler handed $cpu_ran actions to the cpu pool, the execution log lists $executed_count"
normalize "$(testlogs_of "$ws1" remote-a)" "$TEST_TMPDIR/reports-A"
diff -r "$TEST_TMPDIR/reports-L" "$TEST_TMPDIR/reports-A" >"$logs/A.diff" ||
  { head -n 40 "$logs/A.diff"; fail "step A: reports or JUnit XML differ from the local run's"; }
ok "A: $executed_count spawns executed remotely, all on the cpu pool (scheduler: $cpu_ran cpu, 0 gpu); reports and JUnit XML equal L's"

# G: an agent that asks for a GPU, and what it and its build action reach.
competition=aerial-cactus-identification  # in the lite split
answers_dir="$(cd "$ws1" && echo "$(testlogs_of "$ws1" local)" | sed 's|/testlogs$|/bin|')/competitions/$competition/${competition}_data/private"
answers="$(ls "$answers_dir"/* | head -n 1)"
[[ -f "$answers" ]] || fail "step G: no answers file in $answers_dir (local run)"
# The root of the memory cgroup hierarchy (v1), else of the unified one (v2).
cgroup_root="$(awk '{for (i = 7; i < NF; i++) if ($i == "-") break
  if ($(i + 1) == "cgroup" && $5 ~ /\/memory$/) {print $5; exit}}' /proc/self/mountinfo)"
[[ -n "$cgroup_root" ]] || cgroup_root="$(awk '{for (i = 7; i < NF; i++) if ($i == "-") break
  if ($(i + 1) == "cgroup2") {print $5; exit}}' /proc/self/mountinfo)"
local_output_base="$(cd "$ws1" && /usr/bin/bazel-4 --server_javabase=/usr/lib/jvm/default-java --nohome_rc --output_user_root="$TEST_TMPDIR/local" --batch info output_base 2>/dev/null)"
{
  for p in 0 1 2 3 4 5; do echo "port 127.0.0.1:$((port + p))"; done
  echo "path $answers"
  echo "path $MLEBENCH_CLUSTER_DIR/storage/cas-blocks"
  echo "path $home/.cache/mlebench/bazel-disk-cache"
  echo "path $local_output_base/execroot"
  echo "path /etc/shadow"
  # Host privileges: a sysctl that runs a program as root on a crash, and the
  # root of a cgroup hierarchy (only the slot's own cgroups are its to write).
  echo "writable /proc/sys/kernel/core_pattern"
  echo "writable $cgroup_root/cgroup.procs"
  echo "content $(xxd -p "$answers" | tr -d '\n') $MLEBENCH_CLUSTER_DIR/storage $MLEBENCH_CLUSTER_DIR/pools $local_output_base/execroot"
} >"$TEST_TMPDIR/targets.txt"
cp "$TEST_TMPDIR/targets.txt" tools/remote/testing/targets.txt
# The control: on the host, the probe reaches all of it.
sh tools/remote/testing/probe.sh "$TEST_TMPDIR/targets.txt" >"$logs/G.control"
if grep -E ' (unreachable|absent|refused)$' "$logs/G.control" >&2; then
  fail "step G: the control probe on the host missed the targets above (the probe is broken)"
fi
cpu_before="$(scheduled cpu)" gpu_before="$(scheduled gpu)"
bazel G remote-g test "${REMOTE[@]}" --//agent_runner:agent=//tools/remote/testing:gpu_probe_agent \
  --repo_env=XDG_CACHE_HOME="$home/.cache" "--modify_execution_info=$STEPS=+no-remote-cache" \
  "//competitions/$competition"
executed G >"$logs/G.executed"
if grep -v ' remote ' "$logs/G.executed" >&2; then fail "step G: spawns above did not run remotely"; fi
grep -q "^MleAgent gpu remote Running agent //tools/remote/testing:gpu_probe_agent" "$logs/G.executed" ||
  fail "step G: the GPU agent's run did not execute on the gpu pool: $(grep MleAgent "$logs/G.executed")"
grep -q "^MleAgent cpu remote Running agent //agent_runner/agents:dummy" "$logs/G.executed" ||
  fail "step G: the sample run did not execute on the cpu pool: $(grep MleAgent "$logs/G.executed")"
if grep -v '^MleAgent gpu ' "$logs/G.executed" | grep -v '^[A-Za-z]* cpu ' >&2; then
  fail "step G: spawns above ran on the gpu pool without asking for a GPU"
fi
gpu_ran=$(($(scheduled gpu) - gpu_before))
[[ "$gpu_ran" == 1 ]] || fail "step G: the gpu pool ran $gpu_ran actions, expected the one agent run"
grep -q "build_time_probe.txt" "$logs/G.out" || grep -q "Genrule" "$logs/G.executed" ||
  fail "step G: the build-time probe did not run: $(cat "$logs/G.executed")"
grep -q '^Genrule cpu remote' "$logs/G.executed" || fail "step G: the build-time probe did not run remotely"
bin_g="$(cd "$ws1" && /usr/bin/bazel-4 --server_javabase=/usr/lib/jvm/default-java --nohome_rc --output_user_root="$TEST_TMPDIR/remote-g" --batch info bazel-bin 2>/dev/null)"
agent_log="$bin_g/competitions/$competition/${competition}_run/run-0/agent.log"
grep -q '^probe: gpu devices: nvidia0 $' "$agent_log" || fail "step G: the agent saw no /dev/nvidia0: $(grep 'gpu devices' "$agent_log")"
grep -q '^probe: CUDA_VISIBLE_DEVICES=0$' "$agent_log" || fail "step G: CUDA_VISIBLE_DEVICES: $(grep CUDA "$agent_log")"
for when in "run time" "build time"; do
  n="$(grep -c "^probe: $when: " "$agent_log" || true)"
  [[ "$n" == "$(grep -c . "$TEST_TMPDIR/targets.txt")" ]] ||
    fail "step G: $when probe printed $n lines: $(grep "probe: $when" "$agent_log")"
  if grep "^probe: $when: " "$agent_log" | grep -E ' (reached|readable|writable|found .*)$' >&2; then
    fail "step G: at $when, a remote agent reached the targets above"
  fi
done
ok "G: the GPU agent ran on the gpu pool (1 action) with /dev/nvidia0, everything else on the cpu pool; neither it nor its build action reached the cluster's ports, the answers' paths or bytes, /etc/shadow, a host sysctl or a host cgroup (the host's control reached all)"
printf '# What probe.sh tries to reach.\n' >tools/remote/testing/targets.txt

# X: a build action that asks to run locally (tags = ["local"]) is refused by
# --config=remote, never run on this machine.
marker="$TEST_TMPDIR/local-probe-ran"
printf '# local marker %s\n' "$marker" >tools/remote/testing/targets.txt
if /usr/bin/bazel-4 --server_javabase=/usr/lib/jvm/default-java --nohome_rc \
    --output_user_root="$TEST_TMPDIR/remote-g" --batch build "${REMOTE[@]}" \
    //tools/remote/testing:local_probe >"$logs/X.out" 2>&1; then
  fail "step X: a genrule tagged local was built under --config=remote"
fi
grep -q "No usable spawn strategy found for spawn with mnemonic Genrule" "$logs/X.out" ||
  { tail -n 20 "$logs/X.out"; fail "step X: the build failed for another reason"; }
[[ ! -e "$marker" ]] || fail "step X: the local genrule ran on this machine"
printf '# What probe.sh tries to reach.\n' >tools/remote/testing/targets.txt
ok "X: a build action tagged local is refused under --config=remote, not run here"

# Y: an output that is a symbolic link (which this client would resolve in
# its own output tree, and upload what it names) is refused by the workers.
if /usr/bin/bazel-4 --server_javabase=/usr/lib/jvm/default-java --nohome_rc \
    --output_user_root="$TEST_TMPDIR/remote-g" --batch build "${REMOTE[@]}" \
    //tools/remote/testing:symlink_output >"$logs/Y.out" 2>&1; then
  fail "step Y: an action whose output is a symbolic link was built remotely"
fi
grep -q "is a symbolic link: this cluster refuses symbolic links among an action's outputs" "$logs/Y.out" ||
  { tail -n 20 "$logs/Y.out"; fail "step Y: the build failed for another reason"; }
ok "Y: an output that is a symbolic link is refused by the workers"

# I: the adversary agent (agent_runner/testing) on a worker: every attempt to
# leave the sandbox fails there as on a workstation, under the same budget.
bazel I remote-g test "${REMOTE[@]}" --//agent_runner:agent=//agent_runner/testing:adversary \
  --repo_env=XDG_CACHE_HOME="$home/.cache" "--modify_execution_info=$STEPS=+no-remote-cache" \
  "//competitions/$competition"
grep -q "^MleAgent cpu remote Running agent //agent_runner/testing:adversary" <(executed I) ||
  fail "step I: the adversary's run did not execute remotely on the cpu pool"
adversary_log="$bin_g/competitions/$competition/${competition}_run/run-0/agent.log"
grep -q "^adversary: [0-9]* attempts, 0 escaped$" "$adversary_log" ||
  { cat "$adversary_log"; fail "step I: the adversary got out on a worker"; }
record="$bin_g/competitions/$competition/${competition}_run/run-0/run_record.json"
grep -q '"isolation": "bwrap", "network": "deny"' "$record" ||
  fail "step I: the record does not say bwrap and deny: $(cat "$record")"
grep -q '"memory_limit_bytes": [1-9]' "$record" || fail "step I: no memory limit on the worker: $(cat "$record")"
ok "I: the adversary ran on a worker: $(grep -o '[0-9]* attempts, 0 escaped' "$adversary_log"), bwrap, network deny, memory limit"

# N: network allowlist on a worker: the run's proxy, then the cluster's
# egress gateway. Both origins are on the run's list; the gateway lets
# through only the first. No direct connection gets out.
bazel N remote-g test "${REMOTE[@]}" --//agent_runner:agent=//tools/remote/testing:allowlist_agent \
  "--//agent_runner:allowed_hosts=127.0.0.1:${origins[0]},127.0.0.1:${origins[1]}" \
  --repo_env=XDG_CACHE_HOME="$home/.cache" "--modify_execution_info=$STEPS=+no-remote-cache" \
  "//competitions/$competition"
grep -q "^MleAgent cpu remote Running agent //tools/remote/testing:allowlist_agent" <(executed N) ||
  fail "step N: the allowlist agent's run did not execute remotely on the cpu pool"
net_log="$bin_g/competitions/$competition/${competition}_run/run-0/agent.log"
net_record="$bin_g/competitions/$competition/${competition}_run/run-0/run_record.json"
grep -q "^fetch 127.0.0.1:${origins[0]} 200 hello from the origin$" "$net_log" ||
  { cat "$net_log"; fail "step N: the allowed origin was not reached through the gateway"; }
grep -q "^fetch 127.0.0.1:${origins[1]} 403$" "$net_log" ||
  { cat "$net_log"; fail "step N: the origin the gateway does not allow was not refused"; }
[[ "$(grep -c '^direct .* unreachable$' "$net_log")" == 2 ]] ||
  { cat "$net_log"; fail "step N: a direct connection got out"; }
grep -q '"network": "allowlist"' "$net_record" && grep -q '"egress_gateway": "/run/mlebench-egress/egress.sock"' "$net_record" &&
  grep -q '"connections_refused_upstream": 1' "$net_record" ||
  fail "step N: the record does not show the gateway and its refusal: $(cat "$net_record")"
ok "N: allowlist on a worker: the gateway's host answered 200, the other was refused upstream (403), no direct connection"

# S: a second clone, fresh output bases.
nested_workspace "$TEST_TMPDIR/ws2"
bazel S1 remote-s1 test "${REMOTE[@]}" "${AGENT[@]}" "${TARGETS[@]}"
bazel S2 remote-s2 test "${REMOTE[@]}" "${AGENT[@]}" "${TARGETS[@]}"
executed S2 >"$logs/S2.executed"
[[ ! -s "$logs/S2.executed" ]] || { cat "$logs/S2.executed" >&2; fail "step S2: a fresh output base executed the spawns above"; }
ok "S2: a second clone with a fresh output base executed nothing ($(spawns S2 | wc -l) spawns from the cache)"

nonce="$(od -An -tx8 -N8 /dev/urandom | tr -d ' ')"
echo "# nonce $nonce" >>agent_runner/agents/dummy.sh
bazel S3 remote-s2 test "${REMOTE[@]}" "${AGENT[@]}" "${TARGETS[@]}"
executed S3 >"$logs/S3.executed"
if grep -v -E '^(MleAgent|MleAgentDigest|MleGrade|TestRunner) ' "$logs/S3.executed" >&2; then
  fail "step S3: changing the agent executed more than agent, grade and test steps (above)"
fi
agents="$(grep -c '^MleAgent ' "$logs/S3.executed" || true)"
((agents >= 22)) || fail "step S3: expected every agent run again, got $agents"
ok "S3: the agent changed: $(wc -l <"$logs/S3.executed") spawns, only agent, grade and test steps ($agents agent runs)"

printf '\n// Remote-execution test nonce %s.\n__attribute__((used)) static const char kRemoteTestNonce[] = "%s";\n' \
  "$nonce" "$nonce" >>"competitions/$competition/grade.cc"
bazel S4 remote-s2 test "${REMOTE[@]}" "${AGENT[@]}" "${TARGETS[@]}"
executed S4 >"$logs/S4.executed"
grades="$(grep -c '^MleGrade ' "$logs/S4.executed" || true)"
((grades >= 1)) || fail "step S4: the changed grader graded nothing"
if grep '^MleGrade ' "$logs/S4.executed" | grep -v "Grading $competition\b" >&2; then
  fail "step S4: a grader change regraded other competitions (above)"
fi
if grep -E '^(SyntheticRaw|MlePrepare) ' "$logs/S4.executed" >&2; then
  fail "step S4: a grader change reran data steps (above)"
fi
# The competition's validator (validate_submission.sh, built on its grader) is
# an input of its agent runs: they run again too, and no other competition's.
if grep '^MleAgent ' "$logs/S4.executed" | grep -v " on $competition (" >&2; then
  fail "step S4: a grader change reran other competitions' agents (above)"
fi
if grep '^TestRunner ' "$logs/S4.executed" | grep -v "//competitions/$competition:" >&2; then
  fail "step S4: a grader change reran other competitions' tests (above)"
fi
ok "S4: one grader changed: only $competition graded again ($grades grade spawns; $(wc -l <"$logs/S4.executed") spawns in all)"

# C: cache only, fresh output base of the first clone.
cd "$ws1"
bazel C remote-c test --config=remote-cache --remote_cache=grpc://127.0.0.1:$port "${AGENT[@]}" "${TARGETS[@]}"
executed C >"$logs/C.executed"
[[ ! -s "$logs/C.executed" ]] || { cat "$logs/C.executed" >&2; fail "step C: --config=remote-cache executed the spawns above"; }
normalize "$(testlogs_of "$ws1" remote-c)" "$TEST_TMPDIR/reports-C"
diff -r "$TEST_TMPDIR/reports-L" "$TEST_TMPDIR/reports-C" >"$logs/C.diff" ||
  { head -n 40 "$logs/C.diff"; fail "step C: reports differ from the local run's"; }
ok "C: --config=remote-cache from a fresh output base executed nothing; reports equal L's"
echo "PASS"
