#!/usr/bin/env bash
# Starts one slot's bb_runner confined: what every remote action of that slot
# (a compile, an agent's own genrule, a grade, an agent run) can reach.
#
#   confined_runner.sh UID_BASE BB_RUNNER CONFIG SLOT_DIR [DEVICE...]
#
# Run by cluster.sh as root, after it has moved this process into the slot's
# own cgroups (delegated to UID_BASE) and given SLOT_DIR/run to UID_BASE.
#
# - a user namespace (slot_userns.py) whose uids 0-65535 are the host's
#   UID_BASE.. range: root inside, an unprivileged stranger outside. Host root
#   is not mapped: the kernel checks every host file, sysctl and cgroup
#   against UID_BASE, so the worker's cached input files, /etc/shadow,
#   /proc/sys and every cgroup but the slot's own are out of reach, and the
#   capabilities of root inside hold only over the namespace's own mounts,
#   network and processes (no device nodes, no real file systems, no modules);
# - a mount namespace showing the system read-only (/usr, /etc), /tmp of its
#   own, /proc of its own pid namespace, a minimal /dev (plus DEVICE..., the
#   GPUs of a gpu pool, at /dev/<name>), the cgroup file system (writable only
#   in the slot's delegated cgroups, where the agent runner makes the agents'),
#   MLEBENCH_WORKER_PATHS read-only (colon-separated: what a worker image
#   would hold besides the system, such as the Python reference environment
#   of the code tests), and of the cluster only SLOT_DIR/{build,run}: not the
#   host's home (output bases, disk caches), not the storage's files, not the
#   other slots' build directories;
# - network, pid, IPC and UTS namespaces of its own: loopback only, so no
#   action reaches the storage or the scheduler (they listen on the host's
#   loopback), and no action sees another's processes.
# The agent runner sets up its own sandbox inside this one (bubblewrap in a
# further user namespace, an unprivileged uid, cgroups, seccomp), as on a
# workstation.
#
# MLEBENCH_EGRESS_SOCKET (set by cluster.sh when it runs an egress gateway):
# that socket, and nothing else of the host's network, at
# /run/mlebench-egress/egress.sock, where agent runs with network allowlist
# send their requests (--//agent_runner:egress_gateway).
set -euo pipefail
uid_base="$1" runner="$2" config="$3" slot="$4"
shift 4
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# Stage 1, as root, in a mount namespace of its own: every host path the slot
# gets is bound under a directory its unprivileged uids can traverse (the
# originals may lie under /root, which they cannot), and shown from there at
# its own path in stage 2.
if [[ "${MLEBENCH_SLOT_STAGED:-}" != "$uid_base" ]]; then
  export MLEBENCH_SLOT_STAGED="$uid_base"
  exec unshare --mount --propagation private -- "$0" "$uid_base" "$runner" "$config" "$slot" "$@"
fi
# One per slot (each has a uid range of its own); what an earlier runner of
# this slot left is only empty mount points.
stage="/run/mlebench-slots/$uid_base"
mkdir -p /run/mlebench-slots
chmod 755 /run/mlebench-slots
rm -rf "$stage"
mkdir -m 755 "$stage"
binds=()
staged=0
stage_path() {  # bind option, host path, path inside
  local target="$stage/$staged"
  staged=$((staged + 1))
  if [[ -d "$2" ]]; then mkdir -p "$target"; else : >"$target"; fi
  mount --bind "$2" "$target"
  binds+=("$1" "$target" "$3")
}
for device in "$@"; do
  stage_path --dev-bind "$device" "/dev/$(basename "$device")"
done
IFS=: read -r -a paths <<<"${MLEBENCH_WORKER_PATHS:-}"
for path in "${paths[@]}"; do
  [[ -n "$path" ]] && stage_path --ro-bind "$path" "$path"
done
stage_path --bind "$slot/build" "$slot/build"
stage_path --bind "$slot/run" "$slot/run"
if [[ -f "$slot/secrets/secrets.env" ]]; then
  binds+=(--perms 0755 --dir /run/mlebench-worker)
  stage_path --ro-bind "$slot/secrets/secrets.env" /run/mlebench-worker/secrets.env
fi
stage_path --ro-bind "$runner" /opt/buildbarn/bb_runner
stage_path --ro-bind "$config" /opt/buildbarn/runner.jsonnet

# --- egress gateway (MLEBENCH_EGRESS_SOCKET) ---------------------------------
# What Squid needs in a slot, run as the proxy user by an agent run with
# network allowlist: the slot directory's ancestors, which bwrap would make
# 0700 (root's alone), open to the slot's other users (Squid works in the
# action's /tmp, under the build directory), first, before any bind makes
# them; and a /dev/shm it may write, as on any host (its shared memory): a
# plain directory, which bb_runner replaces with a link into each action's own
# temporary directory (runner.jsonnet), like /tmp and /run/lock.
binds=(--perms 0755 --dir "$slot" --perms 1777 --dir /dev/shm "${binds[@]}")
# The gateway's socket itself (the link resolved on the host), read-only
# (connecting needs no write access), in a directory the proxy user can
# enter; never the gateway's private directory with its configuration and log.
if [[ -n "${MLEBENCH_EGRESS_SOCKET:-}" ]]; then
  egress_target="$(readlink -f "$MLEBENCH_EGRESS_SOCKET")"
  [[ -S "$egress_target" ]] || { echo "confined_runner.sh: $MLEBENCH_EGRESS_SOCKET is not a socket" >&2; exit 1; }
  binds+=(--perms 0755 --dir /run/mlebench-egress)
  stage_path --ro-bind "$egress_target" /run/mlebench-egress/egress.sock
fi
# --- end egress gateway ------------------------------------------------------

# Stage 2: the slot's user namespace, and bubblewrap in it.
exec "$here/slot_userns.py" "$uid_base" \
  bwrap \
  --unshare-net --unshare-pid --unshare-ipc --unshare-uts --hostname mlebench-worker \
  --die-with-parent \
  --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/sbin /sbin \
  --symlink usr/lib /lib --symlink usr/lib64 /lib64 \
  --ro-bind /etc /etc \
  --proc /proc --dev /dev \
  --perms 1777 --dir /tmp --tmpfs /run --dir /run/lock \
  --ro-bind /sys /sys --bind /sys/fs/cgroup /sys/fs/cgroup \
  "${binds[@]}" \
  --clearenv --setenv PATH /usr/bin:/bin \
  --setenv MLEBENCH_SLOT_DIR "$slot" --setenv MLEBENCH_ACTION_UID "$MLEBENCH_ACTION_UID" --chdir / \
  /opt/buildbarn/bb_runner /opt/buildbarn/runner.jsonnet
