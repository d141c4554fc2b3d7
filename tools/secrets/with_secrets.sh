#!/bin/bash
# Runs Bazel with the secrets its command names handed to the agent runner,
# and without them in Bazel's own environment (./bazelw runs every command
# through it; docs/agents.md, "Secrets"):
#
#   with_secrets.sh RC_FILE... -- BAZEL [STARTUP_OPTIONS...] COMMAND [ARGS...]
#
# For a build, test, run or coverage command that names secrets with
# --//agent_runner:secret=A,B (in ARGS or in the RC_FILEs: .bazelrc,
# user.bazelrc; missing ones are skipped):
#  - each named variable set in this environment is written to
#    /dev/shm/mlebench-secrets-<uid>/ob-<dev>-<inode of the output base>/NAME
#    (directories mode 700, files 600, on a tmpfs), where the runner of that
#    output base reads it (agent_runner/secrets.h) - one directory per output
#    base, so that commands of other checkouts never touch this one's;
#  - the named variables are removed from the environment Bazel gets: its
#    client and server log their environment (java.log) and keep it in
#    /proc/<pid>/environ;
#  - the values are removed when the command ends, unless another command of
#    the same output base is still running (a shared lock; the last one out
#    removes them).
# Giving --//agent_runner:secret or --//agent_runner:allowed_hosts twice in
# ARGS is an error: Bazel 4.2 would keep only the last.
# MLEBENCH_SECRETS_ROOT replaces /dev/shm/mlebench-secrets-<uid> (tests).
set -uo pipefail

rc_files=()
while (( $# > 0 )) && [[ "$1" != -- ]]; do rc_files+=("$1"); shift; done
(( $# > 0 )) && shift
bazel=("$1"); shift
while (( $# > 0 )) && [[ "$1" == -* ]]; do bazel+=("$1"); shift; done
command="${1:-}"

for flag in secret allowed_hosts; do
  if (( $(printf '%s\n' "$@" | grep -c -- "^--//agent_runner:$flag=") > 1 )); then
    echo "bazelw: --//agent_runner:$flag is given more than once; Bazel 4.2 keeps only the" \
      "last. Give one comma-separated list: --//agent_runner:$flag=A,B" >&2
    exit 2
  fi
done

names=()
if [[ "$command" =~ ^(build|test|run|coverage)$ ]]; then
  mapfile -t names < <( { printf '%s\n' "$@"
      for rc in "${rc_files[@]}"; do [[ -f "$rc" ]] && cat "$rc"; done; } |
    grep -o -- '--//agent_runner:secret=[A-Za-z0-9_,]*' | cut -d= -f2 | tr ',' '\n' |
    grep -E '^[A-Za-z_][A-Za-z0-9_]*$' | sort -u)
fi
if (( ${#names[@]} == 0 )); then
  exec "${bazel[@]}" "$@"
fi

# The values leave the environment before Bazel runs at all (`info` below
# starts a server too).
declare -A values=()
for name in "${names[@]}"; do
  if [[ -n "${!name:-}" ]]; then values[$name]="${!name}"; fi
  unset "$name"
done

root="${MLEBENCH_SECRETS_ROOT:-/dev/shm/mlebench-secrets-$(id -u)}"
private_dir() {  # DIR: made if missing; refused unless it is the caller's own, 700
  if [[ -e "$1" || -L "$1" ]] && [[ -L "$1" || ! -d "$1" || ! -O "$1" ]]; then
    echo "bazelw: $1 is not a directory of yours; refusing to put secrets there" >&2
    exit 1
  fi
  (umask 077 && mkdir -p "$1") && chmod 700 "$1" || exit 1
}
output_base="$("${bazel[@]}" info output_base 2>/dev/null)"
if [[ -z "$output_base" || ! -d "$output_base" ]]; then
  echo "bazelw: cannot find the output base to hand secrets to (bazel info output_base)" >&2
  exit 1
fi
private_dir "$root"
dir="$root/ob-$(stat -c '%d-%i' "$output_base")"
private_dir "$dir"
exec 9>>"$dir.lock"
flock -s 9
for name in "${names[@]}"; do
  if [[ -n "${values[$name]+set}" ]]; then
    (umask 077 && printf '%s' "${values[$name]}" > "$dir/.$name.tmp") &&
      mv -f "$dir/.$name.tmp" "$dir/$name" || exit 1
  else
    rm -f "$dir/$name"  # not an earlier command's value
  fi
done
"${bazel[@]}" "$@"
status=$?
if flock -n -x 9; then
  find "$dir" -mindepth 1 -maxdepth 1 -delete
fi
exit "$status"
