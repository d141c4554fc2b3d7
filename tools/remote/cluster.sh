#!/usr/bin/env bash
# A Buildbarn cluster on this machine's loopback: one bb_storage (CAS and
# action cache, the endpoint Bazel talks to), one bb_scheduler, and one
# bb_worker per pool (`cpu`, `gpu`) whose slots each run a confined bb_runner.
#
#   tools/remote/cluster.sh start   # builds Buildbarn once, starts, waits until ready
#   tools/remote/cluster.sh stop
#   tools/remote/cluster.sh status
#   tools/remote/cluster.sh env     # the settings, as shell assignments
#
# Settings (environment variables):
#   MLEBENCH_CLUSTER_DIR   state: storage files (kept across restarts), logs,
#                          build directories (default ~/.cache/mlebench/cluster)
#   MLEBENCH_CLUSTER_PORT  first of six loopback ports: storage (Bazel's
#                          endpoint), scheduler clients, scheduler workers,
#                          scheduler web UI, scheduler and storage metrics
#                          (Prometheus, /metrics) (default 8980)
#   MLEBENCH_CPU_SLOTS     actions the cpu pool runs at once (default: nproc)
#   MLEBENCH_GPU_SLOTS     actions the gpu pool runs at once (default 1)
#   MLEBENCH_GPU_DEVICES   device nodes the gpu pool's slots get, at
#                          /dev/<name> (default: the /dev/nvidia* present; none
#                          means a pool that only advertises the property, where
#                          an agent that asks for a GPU fails)
#   MLEBENCH_CAS_SIZE      CAS size in bytes (default 16 GiB, a sparse file)
#   MLEBENCH_SLOT_UID_BASE first host uid of the slots' user namespaces: slot i
#                          of the cluster on port P maps 65,536 uids from
#                          BASE + ((P % 256) * 64 + i) * 65536 on (default
#                          1,000,000,000: no host user may own files there)
#   MLEBENCH_WORKER_SECRETS_FILE  NAME=value lines (the format of
#                          --//agent_runner:secrets_file): each slot gets a
#                          copy of its own at /run/mlebench-worker/secrets.env
#                          (docs/remote.md, "Agents that call model APIs")
#   MLEBENCH_WORKER_PATHS  directories the runners see read-only besides the
#                          system, colon-separated (default: the Python
#                          reference environments, ~/.cache/mlebench/python,
#                          which the competitions' code tests run)
#   MLEBENCH_EGRESS_HOSTS  set: the hosts (host[:port],..., the syntax of
#                          --//agent_runner:allowed_hosts) that agent runs with
#                          network allowlist may reach, through the egress
#                          gateway started before the workers; unset: no
#                          gateway, and such runs fail (docs/remote.md)
#   MLEBENCH_EGRESS_GATEWAY  the gateway binary (default: built with ./bazelw)
#
# docs/remote.md has the recipe: `--config=remote` runs the build here.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir="${MLEBENCH_CLUSTER_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mlebench/cluster}"
port="${MLEBENCH_CLUSTER_PORT:-8980}"
cpu_slots="${MLEBENCH_CPU_SLOTS:-$(nproc)}"
gpu_slots="${MLEBENCH_GPU_SLOTS:-1}"
cas_size="${MLEBENCH_CAS_SIZE:-$((16 * 1024 * 1024 * 1024))}"
if [[ -z "${MLEBENCH_GPU_DEVICES+set}" ]]; then
  MLEBENCH_GPU_DEVICES="$(ls /dev/nvidia* 2>/dev/null | tr '\n' ' ' || true)"
fi
pools=(cpu gpu)
MLEBENCH_SLOT_UID_BASE="${MLEBENCH_SLOT_UID_BASE:-1000000000}"
# The uid (and gid) inside each slot's namespace that actions run as
# (runner.jsonnet's runCommandsAs): not root, which holds the slot's mount
# namespace, /run, /dev and bb_runner. The slot's cgroups are delegated to it.
MLEBENCH_ACTION_UID=1000
export MLEBENCH_ACTION_UID
if [[ -z "${MLEBENCH_WORKER_PATHS+set}" ]]; then
  MLEBENCH_WORKER_PATHS=""
  reference="${XDG_CACHE_HOME:-$HOME/.cache}/mlebench/python"
  [[ -d "$reference" ]] && MLEBENCH_WORKER_PATHS="$reference"
fi
export MLEBENCH_WORKER_PATHS

die() { echo "cluster.sh: $*" >&2; exit 1; }
log() { echo "cluster.sh: $*" >&2; }

export MLEBENCH_CLUSTER_DIR="$dir" \
  MLEBENCH_STORAGE_PORT="$port" \
  MLEBENCH_SCHEDULER_CLIENT_PORT="$((port + 1))" \
  MLEBENCH_SCHEDULER_WORKER_PORT="$((port + 2))" \
  MLEBENCH_SCHEDULER_ADMIN_PORT="$((port + 3))" \
  MLEBENCH_SCHEDULER_METRICS_PORT="$((port + 4))" \
  MLEBENCH_STORAGE_METRICS_PORT="$((port + 5))" \
  MLEBENCH_CAS_SIZE_BYTES="$cas_size" \
  MLEBENCH_POOLS="$(IFS=,; echo "${pools[*]}")"

slots_of() { if [[ "$1" == gpu ]]; then echo "$gpu_slots"; else echo "$cpu_slots"; fi; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Waits for a condition, or fails naming the log to read.
wait_for() {  # what, log, command...
  local what="$1" logfile="$2" i
  shift 2
  for ((i = 0; i < 300; i++)); do
    "$@" && return 0
    sleep 0.1
  done
  tail -n 20 "$logfile" >&2 || true
  die "$what did not come up (log: $logfile)"
}

# Starts a process in the background, detached from this shell, with its pid
# in $dir/pids/NAME and its output in $dir/logs/NAME.out.
launch() {  # name, command...
  local name="$1"
  shift
  setsid "$@" </dev/null >"$dir/logs/$name.out" 2>&1 &
  echo $! >"$dir/pids/$name"
}

running() { [[ -f "$dir/pids/$1" ]] && kill -0 "$(cat "$dir/pids/$1")" 2>/dev/null; }

stop_one() {
  local name="$1" pid i
  [[ -f "$dir/pids/$name" ]] || return 0
  pid="$(cat "$dir/pids/$name")"
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$dir/pids/$name"
}

# This process's cgroup in each cgroup hierarchy mounted here, as a directory
# (one per line): where the slots' cgroups are made.
own_cgroup_dirs() {
  python3 -I - <<'PY'
import os
own = {}
for line in open("/proc/self/cgroup"):
    _, controllers, path = line.rstrip("\n").split(":", 2)
    own[controllers] = path
for line in open("/proc/self/mountinfo"):
    fields = line.split()
    sep = fields.index("-")
    root, mountpoint, fstype = fields[3], fields[4], fields[sep + 1]
    options = set(fields[sep + 3].split(","))
    if fstype == "cgroup2":
        key = ""
    elif fstype == "cgroup":
        key = next((k for k in own if k and set(k.split(",")) <= options), None)
    else:
        continue
    if key is None or key not in own or not (own[key] + "/").startswith(root.rstrip("/") + "/"):
        continue
    print(os.path.normpath(os.path.join(mountpoint, os.path.relpath(own[key], root))))
PY
}

# Makes the slot's cgroups (one per hierarchy), delegated to the uid its
# actions run as, and prints them: the runner starts in them, and the agent runner inside makes
# the agents' cgroups below them (the only cgroups it may write).
slot_cgroups() {  # name, uid base
  local name="$1" base="$2" own cg level parent
  while read -r own; do
    cg="$own/mlebench-cluster-$port/$name"
    parent="$own"
    for level in "mlebench-cluster-$port" "$name"; do
      if [[ ! -d "$parent/$level" ]]; then
        mkdir "$parent/$level"
        # A v1 cpuset takes processes only once it has CPUs and memory nodes.
        if [[ -f "$parent/cpuset.cpus" ]]; then
          cat "$parent/cpuset.cpus" >"$parent/$level/cpuset.cpus"
          cat "$parent/cpuset.mems" >"$parent/$level/cpuset.mems"
        fi
      fi
      parent="$parent/$level"
    done
    grep -qxF "$own/mlebench-cluster-$port" "$dir/cgroups" 2>/dev/null ||
      echo "$own/mlebench-cluster-$port" >>"$dir/cgroups"
    # To the actions' uid (where the agent runner makes the agents'
    # cgroups), not to the slot's root: bb_runner needs none of it.
    local owner=$((base + MLEBENCH_ACTION_UID))
    chown "$owner:$owner" "$cg"
    for f in cgroup.procs tasks cgroup.subtree_control cgroup.threads; do
      [[ -e "$cg/$f" ]] && chown "$owner:$owner" "$cg/$f"
    done
    echo "$cg"
  done < <(own_cgroup_dirs)
}

# The cgroups cluster.sh start made (listed in <dir>/cgroups), with whatever
# the agent runners left below them.
remove_slot_cgroups() {
  local top
  [[ -f "$dir/cgroups" ]] || return 0
  while read -r top; do
    [[ -d "$top" ]] && find "$top" -depth -type d -exec rmdir {} \; 2>/dev/null
  done <"$dir/cgroups"
  rm -f "$dir/cgroups"
}

# --- egress gateway (MLEBENCH_EGRESS_HOSTS) ---------------------------------
# The slots' only way out, for agent runs with network allowlist: an HTTP
# proxy with the administrator's allow-list (tools/remote:egress_gateway),
# whose socket confined_runner.sh binds into every slot at
# /run/mlebench-egress/egress.sock (--//agent_runner:egress_gateway in
# .bazelrc's --config=remote). It never lets anything reach the cluster's own
# ports. Its access log is written to $dir/logs/egress-access.log when it
# stops.
egress_socket_dir="$dir/egress"

egress_start() {
  unset MLEBENCH_EGRESS_SOCKET
  [[ -n "${MLEBENCH_EGRESS_HOSTS:-}" ]] || return 0
  local gateway="${MLEBENCH_EGRESS_GATEWAY:-}"
  if [[ -z "$gateway" ]]; then
    local repo_root bazel_bin
    repo_root="$(cd "$here/../.." && pwd)"
    log "building the egress gateway (//tools/remote:egress_gateway)"
    (cd "$repo_root" && ./bazelw build //tools/remote:egress_gateway >&2) ||
      die "cannot build //tools/remote:egress_gateway (or set MLEBENCH_EGRESS_GATEWAY)"
    bazel_bin="$(cd "$repo_root" && ./bazelw info bazel-bin 2>/dev/null)"
    mkdir -p "$dir/bin"
    install -m 755 "$bazel_bin/tools/remote/egress_gateway" "$dir/bin/egress_gateway"
    gateway="$dir/bin/egress_gateway"
  fi
  [[ -x "$gateway" ]] || die "the egress gateway $gateway is not an executable"
  # A link left by a gateway that was killed may still lead to its dead
  # socket: ready means this gateway's link.
  rm -f "$egress_socket_dir/egress.sock"
  launch egress-gateway "$gateway" --allowed_hosts "$MLEBENCH_EGRESS_HOSTS" \
    --socket_dir "$egress_socket_dir" --access_log "$dir/logs/egress-access.log" \
    --forbidden_ports "$MLEBENCH_STORAGE_PORT-$MLEBENCH_STORAGE_METRICS_PORT"
  wait_for "the egress gateway" "$dir/logs/egress-gateway.out" egress_ready
  export MLEBENCH_EGRESS_SOCKET="$egress_socket_dir/egress.sock"
  log "egress gateway for $MLEBENCH_EGRESS_HOSTS at $MLEBENCH_EGRESS_SOCKET"
}

egress_ready() {
  running egress-gateway || die "the egress gateway exited: $(tail -n 5 "$dir/logs/egress-gateway.out")"
  [[ -S "$egress_socket_dir/egress.sock" ]]
}
# --- end egress gateway ------------------------------------------------------

cmd_stop() {
  [[ -d "$dir/pids" ]] || return 0
  # Workers before the scheduler: a worker waits for a last check-in with it.
  local pool slot
  for pool in "${pools[@]}"; do stop_one "worker-$pool"; done
  for f in "$dir"/pids/runner-*; do [[ -e "$f" ]] && stop_one "$(basename "$f")"; done
  stop_one egress-gateway  # egress gateway: after the workers and runners
  stop_one scheduler
  stop_one storage
  remove_slot_cgroups
  log "stopped (state kept in $dir)"
}

cmd_start() {
  if [[ -n "${MLEBENCH_WORKER_SECRETS_FILE:-}" && ! -f "$MLEBENCH_WORKER_SECRETS_FILE" ]]; then
    die "MLEBENCH_WORKER_SECRETS_FILE=$MLEBENCH_WORKER_SECRETS_FILE is not a file"
  fi
  local path
  IFS=: read -r -a paths <<<"$MLEBENCH_WORKER_PATHS"
  for path in "${paths[@]}"; do
    [[ -z "$path" || -e "$path" ]] || die "MLEBENCH_WORKER_PATHS names $path, which does not exist"
  done
  command -v bwrap >/dev/null || die "bubblewrap is not installed (apt-get install bubblewrap)"
  command -v unshare >/dev/null || die "unshare (util-linux) is not installed"
  case "$dir/" in
    /tmp/*) die "MLEBENCH_CLUSTER_DIR must not be under /tmp: each runner has a /tmp of its own, and the build directories keep their paths inside it" ;;
    /*) ;;
    *) die "MLEBENCH_CLUSTER_DIR must be an absolute path, got $dir" ;;
  esac
  local bin
  bin="$("$here/build_buildbarn.sh")"
  mkdir -p "$dir"/{logs,pids,config} "$dir"/storage/{cas,ac}-state
  chmod 700 "$dir"
  # One cluster per directory.
  exec 8>"$dir/.lock"
  flock -n 8 || die "another cluster.sh is starting or stopping $dir"
  if running storage; then die "a cluster is already running in $dir (cluster.sh stop first)"; fi
  local p
  for p in "$MLEBENCH_STORAGE_PORT" "$MLEBENCH_SCHEDULER_CLIENT_PORT" \
    "$MLEBENCH_SCHEDULER_WORKER_PORT" "$MLEBENCH_SCHEDULER_ADMIN_PORT" \
    "$MLEBENCH_SCHEDULER_METRICS_PORT" "$MLEBENCH_STORAGE_METRICS_PORT"; do
    port_open "$p" && die "port $p is in use (set MLEBENCH_CLUSTER_PORT)"
  done
  # Whatever started is stopped again if the start fails half-way.
  trap '[[ $? == 0 ]] || { log "start failed: stopping what started"; cmd_stop >/dev/null 2>&1; }' EXIT
  egress_start  # egress gateway: before the workers (their slots bind its socket)
  cp "$here"/config/*.jsonnet "$here"/config/*.libsonnet "$dir/config/"
  : >"$dir/logs/storage.log"
  launch storage "$bin/bb_storage" "$dir/config/storage.jsonnet"
  wait_for "bb_storage" "$dir/logs/storage.out" port_open "$MLEBENCH_STORAGE_PORT"
  launch scheduler "$bin/bb_scheduler" "$dir/config/scheduler.jsonnet"
  wait_for "bb_scheduler" "$dir/logs/scheduler.out" port_open "$MLEBENCH_SCHEDULER_WORKER_PORT"

  (( cpu_slots + gpu_slots <= 64 )) || die "at most 64 slots per cluster (MLEBENCH_CPU_SLOTS + MLEBENCH_GPU_SLOTS)"
  local pool slot slots slot_dir devices uid_base cgroups index=0
  for pool in "${pools[@]}"; do
    slots="$(slots_of "$pool")"
    ((slots > 0)) || continue  # a cluster without that pool: its actions fail at once
    devices=()
    [[ "$pool" == gpu ]] && read -r -a devices <<<"$MLEBENCH_GPU_DEVICES"
    for ((slot = 0; slot < slots; slot++)); do
      slot_dir="$dir/pools/$pool/slot-$slot"
      # Each slot's uids are a range of their own, far above the host's users
      # and apart from other clusters' (by port: 64 slots each).
      uid_base=$((MLEBENCH_SLOT_UID_BASE + ((port % 256) * 64 + index) * 65536))
      index=$((index + 1))
      # A build directory left by an earlier cluster holds stale actions.
      rm -rf "$slot_dir/build" "$slot_dir/run"
      mkdir -p "$slot_dir"/{build,cache,run}
      chown "$uid_base:$uid_base" "$slot_dir/run"
      # The secrets of LLM agents, one copy per slot, its actions' uid's
      # alone (the runner refuses a secrets file of another owner or mode).
      rm -rf "$slot_dir/secrets"
      if [[ -n "${MLEBENCH_WORKER_SECRETS_FILE:-}" ]]; then
        local owner=$((uid_base + MLEBENCH_ACTION_UID))
        install -d -m 700 -o "$owner" -g "$owner" "$slot_dir/secrets"
        install -m 600 -o "$owner" -g "$owner" "$MLEBENCH_WORKER_SECRETS_FILE" \
          "$slot_dir/secrets/secrets.env"
      fi
      cgroups="$(slot_cgroups "$pool-$slot" "$uid_base" | tr '\n' ' ')"
      # shellcheck disable=SC2016
      launch "runner-$pool-$slot" bash -c \
        'for d in $1; do echo $$ >"$d/cgroup.procs"; done; shift; exec "$@"' \
        move-into-cgroups "$cgroups" "$here/confined_runner.sh" "$uid_base" "$bin/bb_runner" \
        "$dir/config/runner.jsonnet" "$slot_dir" "${devices[@]}"
      wait_for "bb_runner ($pool slot $slot)" "$dir/logs/runner-$pool-$slot.out" \
        test -S "$slot_dir/run/runner.sock"
    done
    MLEBENCH_POOL="$pool" MLEBENCH_POOL_SLOTS="$slots" \
      launch "worker-$pool" "$bin/bb_worker" "$dir/config/worker.jsonnet"
  done
  # Ready when the scheduler lists a worker of each pool.
  for pool in "${pools[@]}"; do
    (($(slots_of "$pool") > 0)) || continue
    wait_for "bb_worker ($pool)" "$dir/logs/worker-$pool.out" pool_ready "$pool"
  done
  log "running: --remote_executor=grpc://127.0.0.1:$MLEBENCH_STORAGE_PORT" \
    "(pools ${pools[*]}: ${cpu_slots} cpu and ${gpu_slots} gpu slots; web UI http://127.0.0.1:$MLEBENCH_SCHEDULER_ADMIN_PORT)"
}

# Whether the scheduler has a worker whose platform is Pool=$1 (its metrics).
pool_ready() {
  running "worker-$1" || die "bb_worker ($1) exited: $(tail -n 5 "$dir/logs/worker-$1.out")"
  curl -fsS "http://127.0.0.1:$MLEBENCH_SCHEDULER_METRICS_PORT/metrics" 2>/dev/null |
    grep '^buildbarn_builder_in_memory_build_queue_workers_created_total{' |
    grep -F "\\\"value\\\":\\\"$1\\\"" | grep -q ' [1-9][0-9]*$'
}

cmd_status() {
  local name f
  for f in "$dir"/pids/*; do
    [[ -e "$f" ]] || { echo "not running ($dir)"; return 1; }
    name="$(basename "$f")"
    if running "$name"; then echo "$name running (pid $(cat "$f"))"; else echo "$name DEAD"; fi
  done
}

cmd_env() {
  echo "MLEBENCH_CLUSTER_DIR=$dir"
  echo "MLEBENCH_REMOTE_ENDPOINT=grpc://127.0.0.1:$MLEBENCH_STORAGE_PORT"
  echo "MLEBENCH_SCHEDULER_ENDPOINT=127.0.0.1:$MLEBENCH_SCHEDULER_CLIENT_PORT"
  echo "MLEBENCH_SCHEDULER_WORKER_ENDPOINT=127.0.0.1:$MLEBENCH_SCHEDULER_WORKER_PORT"
  echo "MLEBENCH_SCHEDULER_UI=http://127.0.0.1:$MLEBENCH_SCHEDULER_ADMIN_PORT"
  echo "MLEBENCH_SCHEDULER_METRICS=http://127.0.0.1:$MLEBENCH_SCHEDULER_METRICS_PORT/metrics"
  echo "MLEBENCH_STORAGE_METRICS=http://127.0.0.1:$MLEBENCH_STORAGE_METRICS_PORT/metrics"
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  env) cmd_env ;;
  *) die "usage: cluster.sh start|stop|status|env" ;;
esac
