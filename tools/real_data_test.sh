#!/usr/bin/env bash
# Integration test of the real-data path (--repo_env=MLEBENCH_DATA_DIR and
# MLEBENCH_REPO_DIR; see docs/architecture.md, "Real data").
#
# Copies this workspace into $TEST_TMPDIR and drives a nested Bazel against a
# data dir in upstream's layout holding:
#   spaceship-titanic            prepared/ only, written by pandas + sklearn
#                                (a different tool, as upstream's own prepare
#                                would leave it: no marker, no raw/);
#   aerial-cactus-identification raw/ only (a Kaggle-layout download);
# and a fake upstream checkout whose spaceship-titanic has leaderboard.csv,
# description.md and checksums.yaml (md5s of the pandas-written files). Steps:
#   1. cold: both pass; spaceship's prepared/ is taken as is (bytes and mtimes
#      unchanged), aerial's is prepared from raw/ in place; reports say
#      dataset kaggle, spaceship's thresholds come from the leaderboard;
#   2. nothing changed: no prepare, agent or grade spawn (the tests themselves
#      rerun: they re-check the data in place);
#   3. a tampered answers file: the test fails, asking for a sync, since the
#      build has not looked at the data since; after `bazel sync`, prepare
#      fails with upstream's checksum message; restored and synced, it passes;
#   4. a competition without data fails with a clear message naming the dir.
set -euo pipefail

source bazel/nested_bazel.sh
source tools/testing/real_data_fixture.sh
nested_workspace "$TEST_TMPDIR/ws"

logs="$TEST_TMPDIR/logs"
data="$TEST_TMPDIR/data"
repo="$TEST_TMPDIR/upstream"
mkdir -p "$logs" "$data" "$repo"
# A Bazel server (not --batch, which refetches local repositories on every
# command) with its own output root, as users run it; shut down at exit.
BAZEL=("${NESTED_BAZEL[@]}")
trap '"${BAZEL[@]}" shutdown >/dev/null 2>&1 || true' EXIT
bazel_cmd() {  # command, name, args...
  local cmd="$1" name="$2"; shift 2
  local log=()
  [[ "$cmd" != sync ]] && log=("${NESTED_BUILD_OPTIONS[@]}" --execution_log_json_file="$logs/$name.json")
  "${BAZEL[@]}" "$cmd" "${log[@]}" "$@" >"$logs/$name.out" 2>&1
}
REAL=(--repo_env=MLEBENCH_DATA_DIR="$data" --repo_env=MLEBENCH_REPO_DIR="$repo")
TARGETS=(//competitions/spaceship-titanic //competitions/aerial-cactus-identification)
must_pass() {
  local name="$1"; shift
  bazel_cmd test "$name" "$@" || {
    cat "$logs/$name.out"; echo "FAIL: bazel test failed in step $name" >&2; exit 1; }
}
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
fail() { echo "FAIL: $*" >&2; exit 1; }

# The synthetic raw downloads stand in for Kaggle's.
bazel_cmd build 0-raw //competitions/spaceship-titanic:raw //competitions/aerial-cactus-identification:raw ||
  { cat "$logs/0-raw.out"; fail "cannot build the synthetic raw data"; }
bin="$("${BAZEL[@]}" info bazel-bin 2>/dev/null)"
real_data_fixture "$data" "$repo" "$bin"
ship="$data/spaceship-titanic/prepared"
before="$(cd "$ship" && find . -type f -printf '%p %s %T@\n' | sort)"

must_pass 1-cold "${REAL[@]}" "${TARGETS[@]}"
expect 1-cold "Preparing real data" 2
# Each competition runs and grades the chosen agent and the sample submission.
expect 1-cold "Running agent" 4
expect 1-cold "Grading" 4
[[ "$(cd "$ship" && find . -type f -printf '%p %s %T@\n' | sort)" == "$before" ]] ||
  fail "step 1: prepared data in upstream's layout was modified"
[[ -d "$data/aerial-cactus-identification/prepared/public" ]] ||
  fail "step 1: aerial-cactus-identification was not prepared into the data dir"
grep -q "checksums match" "$logs/1-cold.out" || fail "step 1: checksums were not verified"
for c in spaceship-titanic aerial-cactus-identification; do
  report="$bin/competitions/$c/${c}_report/run-0.json"
  grep -q '"dataset": "kaggle"' "$report" || { cat "$report"; fail "step 1: $c report is not kaggle"; }
done
grep -q '"thresholds_source": "leaderboard"' "$bin/competitions/spaceship-titanic/spaceship-titanic_report/run-0.json" ||
  fail "step 1: spaceship-titanic's thresholds do not come from the upstream leaderboard"
echo "ok: step 1: prepared data taken as is, raw data prepared in place, reports say kaggle"

must_pass 2-unchanged "${REAL[@]}" "${TARGETS[@]}"
expect 2-unchanged "Preparing" 0
expect 2-unchanged "Running agent" 0
expect 2-unchanged "Grading" 0
grep -q "2 tests pass" "$logs/2-unchanged.out" || { cat "$logs/2-unchanged.out"; fail "step 2: tests did not rerun"; }
grep -q "(cached) PASSED" "$logs/2-unchanged.out" && fail "step 2: a real-data test result came from the cache"

cp -p "$ship/private/test.csv" "$TEST_TMPDIR/answers.bak"
echo "tampered" >>"$ship/private/test.csv"
if bazel_cmd test 3-tampered "${REAL[@]}" //competitions/spaceship-titanic; then
  fail "step 3: tampered prepared data passed"
fi
grep -q "changed after the build last scanned it (private/test.csv).*bazel sync --only=mlebench_data" \
  "$logs/3-tampered.out" || { cat "$logs/3-tampered.out"; fail "step 3: no clear stale-data message"; }
bazel_cmd sync 3-sync "${REAL[@]}" --only=mlebench_data || { cat "$logs/3-sync.out"; fail "step 3: sync failed"; }
if bazel_cmd test 3-synced "${REAL[@]}" //competitions/spaceship-titanic; then
  fail "step 3: a tampered answers file was accepted"
fi
grep -q "does not match upstream's checksums.yaml: private/test.csv has md5" "$logs/3-synced.out" ||
  { cat "$logs/3-synced.out"; fail "step 3: no clear checksum message"; }
cp "$TEST_TMPDIR/answers.bak" "$ship/private/test.csv"
bazel_cmd sync 3-sync2 "${REAL[@]}" --only=mlebench_data || { cat "$logs/3-sync2.out"; fail "step 3: sync failed"; }
must_pass 3-restored "${REAL[@]}" //competitions/spaceship-titanic
expect 3-restored "Preparing real data" 1
echo "ok: step 3: changed data is never graded silently; tampered data fails its checksums"

if bazel_cmd test 4-missing "${REAL[@]}" //competitions/spooky-author-identification; then
  fail "step 4: a competition without data passed"
fi
grep -q "no data for spooky-author-identification in $data: expected $data/spooky-author-identification/prepared" "$logs/4-missing.out" ||
  { cat "$logs/4-missing.out"; fail "step 4: no clear message for missing data"; }
echo "ok: step 4: a competition without data fails, naming where data was expected"
echo "PASS"
