#!/usr/bin/env bash
# Starts one slot's bb_runner confined: what every remote action of that slot
# (a compile, an agent's own genrule, a grade, an agent run) can reach.
#
#   confined_runner.sh BB_RUNNER CONFIG SLOT_DIR [DEVICE...]
#
# MLEBENCH_WORKER_PATHS (colon-separated) are shown read-only at their own
# paths: what a worker image would hold besides the system, such as the
# Python reference environment the code tests compare with.
#
# - a user namespace that maps host uids 0-65535 to themselves: the runner and
#   its actions keep their uids (root stays root for the files it owns), but
#   their capabilities hold only inside that namespace: no device nodes, no
#   mounts of real file systems, no module loading, no host sysctls;
# - a mount namespace showing the system read-only (/usr, /etc), a private
#   /tmp, /proc of its own pid namespace, a minimal /dev (plus DEVICE..., the
#   GPUs of a gpu pool), the cgroup file system (the agent runner makes the
#   agent's cgroups), and of the cluster only SLOT_DIR/{build,run}: not the
#   host's home (output bases, disk caches), not the storage's files, not the
#   other slots' build directories;
# - network, pid, IPC and UTS namespaces of its own: loopback only, so no
#   action reaches the storage or the scheduler (they listen on the host's
#   loopback), and no action sees another's processes.
# The agent runner sets up its own sandbox inside this one (bubblewrap in a
# further user namespace, cgroups, seccomp), as on a local machine.
set -euo pipefail
runner="$1" config="$2" slot="$3"
shift 3
devices=()
for device in "$@"; do
  # At /dev/<name> whatever their path outside (a test makes its own).
  devices+=(--dev-bind "$device" "/dev/$(basename "$device")")
done

extra=()
IFS=: read -r -a paths <<<"${MLEBENCH_WORKER_PATHS:-}"
for path in "${paths[@]}"; do
  [[ -n "$path" ]] && extra+=(--ro-bind "$path" "$path")
done

exec "$(dirname "${BASH_SOURCE[0]}")/identity_userns.py" \
  bwrap \
  --unshare-net --unshare-pid --unshare-ipc --unshare-uts --hostname mlebench-worker \
  --die-with-parent \
  --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/sbin /sbin \
  --symlink usr/lib /lib --symlink usr/lib64 /lib64 \
  --ro-bind /etc /etc \
  --proc /proc --dev /dev "${devices[@]}" "${extra[@]}" \
  --perms 1777 --dir /tmp --tmpfs /run --dir /run/lock \
  --ro-bind /sys /sys --bind /sys/fs/cgroup /sys/fs/cgroup \
  --bind "$slot/build" "$slot/build" --bind "$slot/run" "$slot/run" \
  --ro-bind "$runner" /opt/buildbarn/bb_runner --ro-bind "$config" /opt/buildbarn/runner.jsonnet \
  --setenv MLEBENCH_SLOT_DIR "$slot" --chdir / \
  /opt/buildbarn/bb_runner /opt/buildbarn/runner.jsonnet
