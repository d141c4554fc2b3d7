# Sourced by the integration tests that drive a nested Bazel on a copy of this
# workspace (action_cache_test.sh, real_data_test.sh, real_data_content_test.sh,
# real_data_remote_test.sh, ...). After
#   source bazel/nested_bazel.sh; nested_workspace "$TEST_TMPDIR/ws"
# the shell is in the copy, and "${NESTED_BAZEL[@]}" is the Bazel to run there.

# Copies this workspace (git's tracked and untracked files, or all of it when
# it is no git checkout) into $1 and changes to it. The user's own rc is left
# out; ./bazelw's generated rc files are kept, so that the copy's actions
# have the outer build's keys and run where the outer build's do.
nested_workspace() {
  local src work="$1"
  src="$(dirname "$(readlink -f WORKSPACE)")"
  mkdir -p "$work"
  if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$src" && git ls-files -z --cached --others --exclude-standard |
      xargs -0 -I{} cp --parents {} "$work/")
  else
    (cd "$src" && tar --exclude='./bazel-*' -cf - .) | tar -C "$work" -xf -
  fi
  local rc
  for rc in system_packages.bazelrc machine.bazelrc; do  # written by ./bazelw
    [[ -f "$src/$rc" ]] && cp "$src/$rc" "$work/"
  done
  cd "$work"
  rm -f user.bazelrc
}

# The disk cache the outer build uses by default (.bazelrc: ~/.cache/...; a
# test's HOME is its temporary directory, so the user's home comes from the
# password database). The nested build takes every compile and link from it,
# so that it costs what an incremental build does. The steps under test -
# synthetic data, prepare, agent, grade - never come from it: each test
# checks which of them Bazel's own action cache reruns, and a disk cache hit
# would hide that. MLEBENCH_NESTED_DISK_CACHE overrides the place.
nested_disk_cache="${MLEBENCH_NESTED_DISK_CACHE:-$(getent passwd "$(id -u)" | cut -d: -f6)/.cache/mlebench/bazel-disk-cache}"

# Debian's Bazel on Debian's JDK (as ./bazelw runs it), no user rc; as
# NESTED_BAZEL, with an output root of its own.
NESTED_BAZEL_COMMAND=(/usr/bin/bazel-4 --server_javabase=/usr/lib/jvm/default-java --nohome_rc)
NESTED_BAZEL=("${NESTED_BAZEL_COMMAND[@]}" --output_user_root="$TEST_TMPDIR/root")

# Options for every nested build and test command. The agent is the dummy
# unless a step says otherwise: these tests count actions, whatever the
# default agent is. Agent environments come from the user's cache, as in the
# outer build (python_environment reads XDG_CACHE_HOME).
NESTED_BUILD_OPTIONS=(--disk_cache="$nested_disk_cache"
  '--modify_execution_info=^(SyntheticRaw|MlePrepare|MleAgent|MleGrade)$=+no-remote-cache'
  --//agent_runner:agent=//agent_runner/agents:dummy
  --repo_env=XDG_CACHE_HOME="$(getent passwd "$(id -u)" | cut -d: -f6)/.cache")
