# Sourced by the integration tests of the `mlebench` binary
# (mlebench_cli_test.sh, mlebench_audit_test.sh): runs it the way a user runs
# bazel-bin/tools/mlebench - a copy beside a `mlebench.runfiles` tree (the
# test's runfiles, which hold the binary's data files), invoked by path from
# $T/work, with the test's runfiles variables removed - and gives the
# helpers below. Expects T (a scratch directory) to be set; sets MLEBENCH
# and PY, and changes to $T/work.

readonly PY=/usr/bin/python3
mkdir -p "$T/bazel-bin/tools" "$T/work"
cp tools/mlebench "$T/bazel-bin/tools/mlebench"
ln -s "$(cd .. && pwd)" "$T/bazel-bin/tools/mlebench.runfiles"  # the test runs in <runfiles>/mlebench
readonly MLEBENCH="$T/bazel-bin/tools/mlebench"
unset RUNFILES_DIR RUNFILES_MANIFEST_FILE RUNFILES_MANIFEST_ONLY TEST_SRCDIR JAVA_RUNFILES \
  PYTHON_RUNFILES BUILD_WORKING_DIRECTORY 2>/dev/null || true
cd "$T/work"

fail() {
  echo "FAIL: $*" >&2
  echo "--- stdout:" >&2
  cat "$T/out" >&2 2>/dev/null || true
  echo "--- stderr:" >&2
  cat "$T/err" >&2 2>/dev/null || true
  exit 1
}

# run WANT_EXIT_STATUS COMMAND...: stdout to $T/out, stderr to $T/err.
run() {
  local want="$1" rc=0
  shift
  "$@" >"$T/out" 2>"$T/err" || rc=$?
  [ "$rc" = "$want" ] || fail "exit status $rc, expected $want: $*"
}

expect_stderr() { grep -qF -- "$1" "$T/err" || fail "stderr lacks '$1'"; }

# py SCRIPT_ARGS... < script: a python check; its failure fails the test.
py() { "$PY" - "$@" || fail "python check failed (args: $*)"; }
