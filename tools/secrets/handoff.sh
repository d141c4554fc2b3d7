#!/bin/bash
# Hands the secrets an invocation names to the agent runner (run by ./bazelw):
#
#   handoff.sh DIR RC_FILE... -- BAZEL_ARGS...
#
# Every variable named by --//agent_runner:secret=A,B in BAZEL_ARGS or in the
# RC_FILEs (.bazelrc, user.bazelrc; missing ones are skipped) that is set in
# this environment is written to DIR/NAME (mode 600; DIR mode 700, made if
# missing; ./bazelw uses /dev/shm/mlebench-secrets-<uid>, a tmpfs), where
# agent_runner/secrets.h reads it when an agent starts. Never into Bazel's
# command line, an action's key, a log or a cache. What an earlier invocation
# left is removed first. A DIR that is a symlink, not a directory or not the
# caller's is refused (exit 1): another user could read or plant values.
set -euo pipefail

dir="$1"; shift
rc_files=()
while (( $# > 0 )) && [[ "$1" != -- ]]; do rc_files+=("$1"); shift; done
(( $# > 0 )) && shift

if [[ -e "$dir" || -L "$dir" ]] && [[ -L "$dir" || ! -d "$dir" || ! -O "$dir" ]]; then
  echo "bazelw: $dir is not a directory of yours; refusing to put secrets there" >&2
  exit 1
fi
(umask 077 && mkdir -p "$dir")
chmod 700 "$dir"
find "$dir" -mindepth 1 -maxdepth 1 -delete

names="$( { printf '%s\n' "$@"; for rc in "${rc_files[@]}"; do [[ -f "$rc" ]] && cat "$rc"; done; } |
  grep -o -- '--//agent_runner:secret=[A-Za-z0-9_,]*' | cut -d= -f2 | tr ',' '\n' |
  grep -E '^[A-Za-z_][A-Za-z0-9_]*$' | sort -u || true)"
for name in $names; do
  if [[ -n "${!name:-}" ]]; then
    (umask 077 && printf '%s' "${!name}" > "$dir/.$name.tmp")
    mv -f "$dir/.$name.tmp" "$dir/$name"
  fi
done
