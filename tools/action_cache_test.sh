#!/usr/bin/env bash
# Integration test: grading is never repeated for an unchanged submission.
#
# Copies this workspace into $TEST_TMPDIR and drives a nested Bazel (its own
# output root, batch mode) through `bazel test` of three competitions (the same
# actions as `//competitions/...`, at a size that stays quick) four times,
# reading Bazel's execution log (the spawns that actually ran) after each:
#   1. cold:                       every competition is prepared, run, graded;
#   2. nothing changed:            no prepare, agent or grade spawn at all;
#   3. agent seed changed:         every agent reruns, but the dummy agent's
#                                  submissions are identical, so nothing is regraded;
#   4. one competition's raw data changed (synthetic seed): only that one is
#                                  prepared, run and graded again.
# Before that, agents whose dependencies reach the answers must fail the
# analysis (agent_runner/testing/cheating). Then two end-to-end checks of the
# agent step with agents written here:
#   5. an agent that writes nothing: reports say submission_exists false; the
#      tests fail under the default gate and pass under --//competitions:gate=none;
#   6. an agent that overstays its time limit: it is stopped, the run record
#      says timed_out, and the submission it wrote before the deadline is graded;
#   7. the adversary agent (agent_runner/testing) on a real competition: every
#      attempt fails, its submission is graded, the summary shows the isolation.
set -euo pipefail

source bazel/nested_bazel.sh
nested_workspace "$TEST_TMPDIR/ws"

logs="$TEST_TMPDIR/logs"
mkdir -p "$logs"
nested_bazel() {  # name, bazel test args...; returns Bazel's exit status
  local name="$1"; shift
  "${NESTED_BAZEL[@]}" --batch test "${NESTED_BUILD_OPTIONS[@]}" \
    --execution_log_json_file="$logs/$name.json" "$@" >"$logs/$name.out" 2>&1
}
bazel_run() {  # name, extra bazel args...: every competition test, must pass
  local name="$1"; shift
  nested_bazel "$name" "${TARGETS[@]}" "$@" || {
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

TARGETS=(//competitions/spaceship-titanic //competitions/aerial-cactus-identification
         //competitions/spooky-author-identification)
n="${#TARGETS[@]}"

# A mistyped build setting is an error at analysis time, never a silent default.
if "${NESTED_BAZEL[@]}" --batch build --nobuild \
    //competitions/spaceship-titanic --//competitions:gate=platinum \
    --//agent_runner:agent=//agent_runner/agents:dummy >"$logs/0-bad-gate.out" 2>&1; then
  echo "FAIL: --//competitions:gate=platinum was accepted" >&2; exit 1
fi
grep -q "must be one of none, valid, sample, median, bronze, silver, gold" "$logs/0-bad-gate.out" || {
  cat "$logs/0-bad-gate.out"; echo "FAIL: no clear message for a bad gate" >&2; exit 1; }
echo "ok: step 0: a bad gating policy fails the build with a clear message"

# An agent whose dependencies reach the answers fails the analysis: through
# visibility (prepared data, raw data, a grader) or, for agents declared where
# visibility allows it (//tools), the aspect on the agent (anything under
# //competitions or //synthetic, however indirect).
for refused in "cheating:uses_prepared_data:is not visible from target" \
               "cheating:uses_raw_data:is not visible from target" \
               "cheating:uses_grader:is not visible from target" \
               "tools:uses_grader:is in the dependencies of the agent" \
               "tools:uses_generator_indirectly:is in the dependencies of the agent" \
               "cheating:environment_over_etc:mount_point must be /opt/mlebench/<name>" \
               "cheating:routes_itself_to_gpus:may not choose where their actions run"; do
  where="${refused%%:*}"
  refused="${refused#*:}"
  package=//agent_runner/testing/cheating
  [ "$where" = tools ] && package=//tools/testing/cheating
  agent="${refused%%:*}"
  if "${NESTED_BAZEL[@]}" --batch build --nobuild //competitions/spaceship-titanic \
      --//agent_runner:agent="$package:$agent" \
      >"$logs/0-$where-$agent.out" 2>&1; then
    echo "FAIL: the cheating agent $agent was accepted" >&2; exit 1
  fi
  grep -qF "${refused#*:}" "$logs/0-$where-$agent.out" || {
    cat "$logs/0-$where-$agent.out"; echo "FAIL: no clear message for $agent" >&2; exit 1; }
  echo "ok: step 0: the cheating agent $agent fails the analysis"
done

# Each competition runs the chosen agent and, once, the sample submission (the
# dummy), and grades both.
bazel_run 1-cold
expect 1-cold "Preparing synthetic data for" "$n"
expect 1-cold "Running agent" "$((2 * n))"
expect 1-cold "Running agent //agent_runner/agents:dummy on spaceship-titanic (seed 0)" 2
expect 1-cold "Grading" "$((2 * n))"

bazel_run 2-unchanged
expect 2-unchanged "Preparing" 0
expect 2-unchanged "Running agent" 0
expect 2-unchanged "Grading" 0

bazel_run 3-new-agent-seed --//agent_runner:seed=7
expect 3-new-agent-seed "Running agent" "$n"
expect 3-new-agent-seed "Grading" 0

# Seeds in one build: 1 -> 3 -> 5 runs only the new seeds (each graded), and
# the JUnit XML has one testcase per seed.
bazel_run 3-seeds-3 --//agent_runner:seed=7 --//agent_runner:seeds=3
expect 3-seeds-3 "Running agent" "$((2 * n))"
expect 3-seeds-3 "Running agent //agent_runner/agents:dummy on spaceship-titanic (seed 7)" 0
expect 3-seeds-3 "Running agent //agent_runner/agents:dummy on spaceship-titanic (seed 8)" 1
expect 3-seeds-3 "Grading" "$((2 * n))"
bazel_run 3-seeds-5 --//agent_runner:seed=7 --//agent_runner:seeds=5
expect 3-seeds-5 "Running agent" "$((2 * n))"
expect 3-seeds-5 "Running agent //agent_runner/agents:dummy on spaceship-titanic (seed 9)" 0
expect 3-seeds-5 "Running agent //agent_runner/agents:dummy on spaceship-titanic (seed 11)" 1
expect 3-seeds-5 "Grading" "$((2 * n))"
xml=bazel-testlogs/competitions/spaceship-titanic/spaceship-titanic/test.xml
[[ "$(grep -c '<testcase name="spaceship-titanic seed \(7\|8\|9\|10\|11\)"' "$xml")" == 5 ]] || {
  cat "$xml"; echo "FAIL: the JUnit XML does not have one testcase per seed" >&2; exit 1; }
for run in 0 1 2 3 4; do
  [[ -f "bazel-bin/competitions/spaceship-titanic/spaceship-titanic_report/run-$run.json" ]] || {
    echo "FAIL: no report for run $run" >&2; exit 1; }
done
echo "ok: seeds 1 -> 3 -> 5 ran only the new seeds"

sed -i 's/^mle_competition($/mle_competition(\n    synthetic_seed = 1,/' \
  competitions/spaceship-titanic/BUILD.bazel
grep -q 'synthetic_seed = 1' competitions/spaceship-titanic/BUILD.bazel
bazel_run 4-one-dataset-changed --//agent_runner:seed=7
expect 4-one-dataset-changed "Preparing synthetic data for spaceship-titanic" 1
expect 4-one-dataset-changed "Preparing" 1
expect 4-one-dataset-changed "Grading spaceship-titanic" 2  # the agent's and the sample's
expect 4-one-dataset-changed "Grading" 2
echo "ok: unchanged submissions were never regraded"

mkdir -p e2e_agents
cat > e2e_agents/BUILD.bazel <<'BUILD'
sh_binary(name = "silent", srcs = ["silent.sh"])
sh_binary(name = "overstayer", srcs = ["overstayer.sh"])
BUILD
printf '#!/bin/sh\necho "writing nothing"\n' > e2e_agents/silent.sh
cat > e2e_agents/overstayer.sh <<'AGENT'
#!/bin/sh
trap '' TERM
cp data/sample_submission.csv submission/submission.csv
while :; do sleep 1; done
AGENT
chmod +x e2e_agents/*.sh
report() { cat "bazel-bin/competitions/$1/$1_report/run-0.json"; }
record() { cat "bazel-bin/competitions/$1/$1_run/run-0/run_record.json"; }

if nested_bazel 5-silent-gated "${TARGETS[@]}" --//agent_runner:agent=//e2e_agents:silent; then
  echo "FAIL: step 5: tests passed although no agent wrote a submission" >&2; exit 1
fi
grep -q "FAIL (the agent produced no submission.csv)" \
  bazel-testlogs/competitions/spaceship-titanic/spaceship-titanic/test.log
bazel_run 5-silent-ungated --//agent_runner:agent=//e2e_agents:silent --//competitions:gate=none
expect 5-silent-ungated "Grading" 0  # the same empty submissions were graded in 5-silent-gated
for id in spaceship-titanic aerial-cactus-identification spooky-author-identification; do
  report "$id" | grep -q '"submission_exists": false' || {
    report "$id"; echo "FAIL: step 5: $id report claims a submission" >&2; exit 1; }
  report "$id" | grep -q '"score": null'
done
echo "ok: step 5: no submission gives submission_exists false; gate none passes, valid fails"

nested_bazel 6-overstayer //competitions/spaceship-titanic \
  --//agent_runner:agent=//e2e_agents:overstayer --//agent_runner:time_limit_s=1 || {
    cat "$logs/6-overstayer.out"; echo "FAIL: step 6: bazel test failed" >&2; exit 1; }
record spaceship-titanic | grep -q '"timed_out": true' || {
  record spaceship-titanic; echo "FAIL: step 6: the run did not time out" >&2; exit 1; }
report spaceship-titanic | grep -q '"valid_submission": true' || {
  report spaceship-titanic; echo "FAIL: step 6: the submission written before the deadline was lost" >&2; exit 1; }
echo "ok: step 6: the agent was stopped at its deadline and its submission graded"

# The adversary as the agent of a real competition: every attempt fails, the
# run is graded, the test passes, and the records say what the run had.
nested_bazel 7-adversary //competitions/spaceship-titanic \
  --//agent_runner:agent=//agent_runner/testing:adversary || {
    cat "$logs/7-adversary.out"; echo "FAIL: step 7: bazel test failed" >&2; exit 1; }
log="bazel-bin/competitions/spaceship-titanic/spaceship-titanic_run/run-0/agent.log"
grep -q "^adversary: [0-9]* attempts, 0 escaped$" "$log" || {
  cat "$log"; echo "FAIL: step 7: the adversary got out" >&2; exit 1; }
record spaceship-titanic | grep -q '"isolation": "bwrap", "network": "deny"' || {
  record spaceship-titanic; echo "FAIL: step 7: the record does not say bwrap and deny" >&2; exit 1; }
report spaceship-titanic | grep -q '"valid_submission": true' || {
  report spaceship-titanic; echo "FAIL: step 7: the adversary's submission was not graded" >&2; exit 1; }
grep -qE "isolation bwrap network deny sample [0-9.]+ beaten (yes|no) gate valid: PASS" \
  bazel-testlogs/competitions/spaceship-titanic/spaceship-titanic/test.log || {
    cat bazel-testlogs/competitions/spaceship-titanic/spaceship-titanic/test.log
    echo "FAIL: step 7: the summary does not show the isolation" >&2; exit 1; }
echo "ok: step 7: the adversary was contained, its submission graded, the summary says how it ran"
echo "PASS"
