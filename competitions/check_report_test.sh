#!/bin/bash
# Runs the real check_report binary on small reports and run records in
# $TEST_TMPDIR: isolation and network taken from the run record into the
# summary line, JUnit XML and copied report; the gate's isolation check and
# --isolation_requested; broken run records and flags are exit status 2.
set -euo pipefail

readonly CHECK="$PWD/competitions/check_report"
readonly T="$TEST_TMPDIR"
cd "$T"

fail() {
  echo "FAIL: $*" >&2
  echo "--- stdout:" >&2
  cat "$T/out" >&2 2>/dev/null || true
  echo "--- stderr:" >&2
  cat "$T/err" >&2 2>/dev/null || true
  exit 1
}

# A report as the grade action writes it: isolation and network empty.
cat >report.json <<'EOF'
{
  "competition_id": "comp",
  "score": 0.75,
  "gold_threshold": 0.9,
  "silver_threshold": 0.8,
  "bronze_threshold": 0.7,
  "median_threshold": 0.5,
  "any_medal": true,
  "gold_medal": false,
  "silver_medal": false,
  "bronze_medal": true,
  "above_median": true,
  "submission_exists": true,
  "valid_submission": true,
  "is_lower_better": false,
  "created_at": "",
  "submission_path": "comp/submission.csv",
  "invalid_reason": "",
  "agent": "",
  "seed": 0,
  "dataset": "synthetic",
  "thresholds_source": "embedded",
  "isolation": "",
  "network": ""
}
EOF
record() {  # ISOLATION NETWORK: a run record as agent_runner writes it
  printf '{"competition_id": "comp", "agent": "dummy", "seed": 1, "exit_code": 0, "signal": null, "timed_out": false, "duration_s": 0.010, "time_limit_s": 60, "submission_exists": true, "submission_bytes": 9, "isolation": "%s", "network": "%s"}\n' "$1" "$2"
}
record bwrap deny >bwrap.json
record none allow >none.json
printf '{"isolation": "bwrap", "network": ' >truncated.json
printf '{"competition_id": "comp", "exit_code": 0}\n' >nokeys.json
printf 'not json\n' >garbage.json
echo "agent log" >agent.log

# check WANT_EXIT_STATUS GATE [FLAGS...]: runs check_report on report.json with
# its JUnit XML and undeclared outputs in fresh places under $T.
check() {
  local want="$1" gate="$2" rc=0
  shift 2
  rm -rf "$T/outputs" "$T/test.xml"
  mkdir "$T/outputs"
  XML_OUTPUT_FILE="$T/test.xml" TEST_UNDECLARED_OUTPUTS_DIR="$T/outputs" \
    "$CHECK" --competition comp --report report.json --agent dummy --seed 1 --gate "$gate" \
    "$@" >"$T/out" 2>"$T/err" || rc=$?
  [ "$rc" = "$want" ] || fail "exit status $rc, expected $want: --gate $gate $*"
}
expect_out() { grep -qF -- "$1" "$T/out" || fail "stdout lacks '$1'"; }
expect_err() { grep -qF -- "$1" "$T/err" || fail "stderr lacks '$1'"; }
expect_xml() { grep -qF -- "$1" "$T/test.xml" || fail "JUnit XML lacks '$1'"; }
expect_report() { grep -qF -- "$1" "$T/outputs/comp.report.json" || fail "report lacks '$1'"; }

# No run record (a report checked by hand): isolation unknown, not checked.
check 0 valid
expect_out "median 0.5] gate valid: PASS"
grep -qF "isolation" "$T/out" && fail "unknown isolation in the summary"
expect_xml '<property name="isolation" value=""/>'
expect_report '"isolation": "",'

# An isolated run passes, and says how it ran everywhere.
for requested in "" bwrap none; do
  check 0 valid --run_record bwrap.json --agent_log agent.log \
    ${requested:+--isolation_requested "$requested"}
  expect_out "median 0.5] isolation bwrap network deny gate valid: PASS"
  expect_xml '<property name="isolation" value="bwrap"/>'
  expect_xml '<property name="network" value="deny"/>'
  expect_xml "<property name=\"isolation_requested\" value=\"$requested\"/>"
  expect_report '"isolation": "bwrap",'
  expect_report '"network": "deny"'
  cmp -s bwrap.json "$T/outputs/comp.run_record.json" || fail "run record not copied"
done

# An unisolated run fails every gate, none included, unless none was asked for.
for gate in none valid gold; do
  check 1 "$gate" --run_record none.json
  expect_out "isolation none network unconfined gate $gate: FAIL (the agent ran without isolation"
  expect_out "pass --//agent_runner:isolation=none to accept unisolated runs)"
  expect_xml '<failure message="the agent ran without isolation'
  expect_report '"isolation": "none",'
done
check 0 valid --run_record none.json --isolation_requested none
expect_out "isolation none (requested) network unconfined gate valid: PASS"
expect_xml '<property name="isolation_requested" value="none"/>'
# A run with the host's whole network (an older record's "allow" reads as
# unconfined) fails unless --network_requested unconfined asked for it.
sed 's/"isolation": "none"/"isolation": "bwrap"/' none.json > open.json
check 1 valid --run_record open.json
expect_out "isolation bwrap network unconfined gate valid: FAIL (the agent ran with the host's whole network"
check 0 valid --run_record open.json --network_requested unconfined
expect_out "isolation bwrap network unconfined gate valid: PASS"
check 2 valid --run_record open.json --network_requested allow
# Accepted isolation leaves the policy to decide.
check 1 gold --run_record none.json --isolation_requested none
expect_out "gate gold: FAIL (medal bronze: score 0.75, gold needs 0.9)"

# bwrap asked for and not applied.
check 1 none --run_record none.json --isolation_requested bwrap
expect_out "FAIL (the requested isolation bwrap was not applied: the agent ran with isolation none)"

# Broken run records are broken inputs, never a pass, whatever the gate.
for bad in truncated.json nokeys.json garbage.json missing.json; do
  check 2 valid --run_record "$bad"
  expect_err "cannot tell what isolation the agent ran under"
  [ -s "$T/out" ] && fail "a summary for a broken run record"
done
check 2 valid --run_record nokeys.json
expect_err 'run record lacks "isolation"'
check 2 none --run_record garbage.json
expect_err "cannot tell what isolation the agent ran under"

# An invalid reason quoting what an agent wrote in a cell: carriage returns,
# line breaks and escape sequences that would forge lines of a passing gate
# and test, and U+FFFF, which XML 1.0 cannot hold.
sed -e 's/"score": 0.75/"score": null/' -e 's/"valid_submission": true/"valid_submission": false/' \
  -e 's|"invalid_reason": ""|"invalid_reason": "unknown id \\u001b[2K\\rx\\ngate valid: PASS\\n//competitions/evil:evil   PASSED in 1.0s\\uffff"|' \
  report.json >forged.json
cp report.json honest.json
cp forged.json report.json
check 1 valid --run_record bwrap.json
[ "$(wc -l <"$T/out")" = 1 ] || fail "the summary is not one line"
grep -q "$(printf '[\r\033]')" "$T/out" && fail "control characters in the summary"
grep -q '^gate valid: PASS' "$T/out" && fail "a forged gate line"
grep -q '^//competitions/evil' "$T/out" && fail "a forged test line"
expect_out 'FAIL (invalid submission: unknown id \x1b[2K\rx\ngate valid: PASS\n//competitions/evil:evil   PASSED in 1.0s\uffff)'
python3 -c 'import sys, xml.etree.ElementTree as ET; ET.parse(sys.argv[1])' "$T/test.xml" ||
  fail "test.xml does not parse"
expect_xml 'message="invalid submission: unknown id \x1b[2K&#13;x&#10;gate valid: PASS'
cp honest.json report.json

# A --runs manifest with the kept code and the submission: the outputs hold
# the submission, an upstream-shaped grading report and the artifacts; a seed
# without a valid submission says how the agent ended (here: its time limit).
mkdir -p sub/ artifacts/code
printf 'id,label\n1,a\n' >sub/submission.csv
echo "print(1)" >artifacts/code/solution.py
sed 's/"timed_out": false/"timed_out": true, "ended_by": "time_limit"/' bwrap.json >timeout.json
printf '3\treport.json\ttimeout.json\tagent.log\tartifacts\tsub\n' >runs.tsv
runs_check() {  # WANT_EXIT_STATUS: check_report on runs.tsv
  local rc=0
  rm -rf "$T/outputs" "$T/test.xml"
  mkdir "$T/outputs"
  XML_OUTPUT_FILE="$T/test.xml" TEST_UNDECLARED_OUTPUTS_DIR="$T/outputs" \
    "$CHECK" --competition comp --runs runs.tsv --agent dummy --gate valid >"$T/out" 2>"$T/err" ||
    rc=$?
  [ "$rc" = "$1" ] || fail "exit status $rc, expected $1: --runs runs.tsv"
}
runs_check 0
cmp -s sub/submission.csv "$T/outputs/comp.seed-3.submission.csv" || fail "submission not kept"
[ -f "$T/outputs/comp.seed-3.artifacts/code/solution.py" ] || fail "code not kept"
python3 - "$T/outputs/comp.seed-3.grading_report.json" <<'PY' || fail "no upstream-shaped grading report"
import json, sys
report = json.load(open(sys.argv[1]))
assert report["total_runs"] == 1 and report["total_valid_submissions"] == 1, report
assert [r["competition_id"] for r in report["competition_reports"]] == ["comp"], report
PY
cp forged.json report.json
runs_check 1
expect_out "the agent timed out after 60 s (its time limit) and was stopped; its log: bazel-bin/agent.log"
cp honest.json report.json

# A baseline (an earlier run's grading report): a medal below the baseline's
# fails, an equal or better one passes, a competition the baseline lacks
# passes, and a broken baseline is a broken input.
baseline() {  # MEDAL: a grading report holding comp with that medal
  python3 - "$1" <<'PY' >baseline.json
import json, sys
medal = sys.argv[1]
r = json.load(open("report.json"))
r["score"] = {"gold": 0.95, "silver": 0.85, "bronze": 0.75, "none": 0.6}[medal]
for m in ("gold", "silver", "bronze"):
    r[m + "_medal"] = m == medal
r["any_medal"] = medal != "none"
print(json.dumps({"competition_reports": [r, dict(r, competition_id="other")]}))
PY
}
baseline silver
check 1 valid --run_record bwrap.json --baseline baseline.json
expect_out "FAIL (medal dropped from silver in the baseline to bronze (score 0.75, baseline 0.85))"
expect_xml '<failure message="medal dropped from silver in the baseline to bronze'
for medal in bronze none; do
  baseline $medal
  check 0 valid --run_record bwrap.json --baseline baseline.json
done
sed 's/"comp"/"elsewhere"/' baseline.json >other.json
check 0 valid --run_record bwrap.json --baseline other.json
# A summary as the baseline holds no competition's medal: nothing to hold to.
echo '{"agents": [{"splits": []}]}' >summary_baseline.json
check 0 valid --run_record bwrap.json --baseline summary_baseline.json
echo '{"competition_reports": 3}' >broken.json
check 2 valid --run_record bwrap.json --baseline broken.json
expect_err "the baseline broken.json"

# Broken flags.
for bad in docker auto ""; do
  check 2 valid --run_record bwrap.json --isolation_requested "$bad"
  expect_err "unknown isolation '$bad'"
done
check 2 valid --isolation_requested bwrap
expect_err "--isolation_requested needs --run_record"

echo PASS
