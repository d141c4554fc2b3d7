#!/usr/bin/env bash
# Integration test: grading is never repeated for an unchanged submission.
#
# Copies this workspace into $TEST_TMPDIR and drives a nested Bazel (its own
# output root, batch mode) through `bazel test //competitions/...` four times,
# reading Bazel's execution log (the spawns that actually ran) after each:
#   1. cold:                       every competition is prepared, run, graded;
#   2. nothing changed:            no prepare, agent or grade spawn at all;
#   3. agent seed changed:         every agent reruns, but the dummy agent's
#                                  submissions are identical, so nothing is regraded;
#   4. one competition's raw data changed (synthetic seed): only that one is
#                                  prepared, run and graded again.
set -euo pipefail

src="$(dirname "$(readlink -f WORKSPACE)")"
work="$TEST_TMPDIR/ws"
mkdir -p "$work"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
  (cd "$src" && git ls-files -z --cached --others --exclude-standard |
    xargs -0 -I{} cp --parents {} "$work/")
else
  (cd "$src" && tar --exclude='./bazel-*' -cf - .) | tar -C "$work" -xf -
fi
cd "$work"
rm -f user.bazelrc

logs="$TEST_TMPDIR/logs"
mkdir -p "$logs"
bazel_run() {  # name, extra bazel args...
  local name="$1"; shift
  /usr/bin/bazel --batch --nohome_rc --output_user_root="$TEST_TMPDIR/root" \
    test //competitions/... --test_tag_filters=mlebench --build_tests_only \
    --execution_log_json_file="$logs/$name.json" "$@" >"$logs/$name.out" 2>&1 || {
      cat "$logs/$name.out"; echo "FAIL: bazel test failed in step $name" >&2; exit 1; }
}
# Number of spawns in a log whose progress message starts with $2.
count() { grep -c "\"progressMessage\": \"$2" "$logs/$1.json" || true; }
expect() {  # step, message prefix, expected count
  local got; got="$(count "$1" "$2")"
  if [[ "$got" != "$3" ]]; then
    echo "FAIL: step $1: expected $3 spawns '$2', got $got" >&2
    grep "\"progressMessage\"" "$logs/$1.json" >&2 || true
    exit 1
  fi
  echo "ok: step $1: $3 x '$2'"
}

n="$(sed -n '/^REGISTERED = \[/,/^\]/p' competitions/registered.bzl | grep -c '^    "')"
echo "registered competitions: $n"

bazel_run 1-cold
expect 1-cold "Preparing synthetic data for" "$n"
expect 1-cold "Running agent" "$n"
expect 1-cold "Grading" "$n"

bazel_run 2-unchanged
expect 2-unchanged "Preparing" 0
expect 2-unchanged "Running agent" 0
expect 2-unchanged "Grading" 0

bazel_run 3-new-agent-seed --//agent_runner:seed=7
expect 3-new-agent-seed "Running agent" "$n"
expect 3-new-agent-seed "Grading" 0

sed -i 's/competition_id = "spaceship-titanic",/competition_id = "spaceship-titanic",\n    seed = 1,/' \
  testdata/spaceship-titanic/BUILD.bazel
grep -q 'seed = 1' testdata/spaceship-titanic/BUILD.bazel
bazel_run 4-one-dataset-changed --//agent_runner:seed=7
expect 4-one-dataset-changed "Preparing synthetic data for spaceship-titanic" 1
expect 4-one-dataset-changed "Preparing" 1
expect 4-one-dataset-changed "Grading spaceship-titanic" 1
expect 4-one-dataset-changed "Grading" 1
echo "PASS: unchanged submissions were never regraded"
