#!/bin/bash
# split_regression on a fixture: a split of four competitions whose baseline
# had two medals (50%): the current run improves, equals, and regresses
# (within and beyond --max_regression); no baseline passes saying so; broken
# inputs exit 2.
set -uo pipefail
readonly TOOL="$PWD/competitions/split_regression"
readonly T="$TEST_TMPDIR"
cd "$T"
fail() { echo "FAIL: $*" >&2; exit 1; }

report() {  # ID MEDAL(gold|none) SEED
  local gold=false any=false
  [[ "$2" == gold ]] && gold=true any=true
  printf '{"competition_id": "%s", "score": 1, "gold_threshold": 1, "silver_threshold": 1, "bronze_threshold": 1, "median_threshold": 1, "any_medal": %s, "gold_medal": %s, "silver_medal": false, "bronze_medal": false, "above_median": true, "submission_exists": true, "valid_submission": true, "is_lower_better": false, "created_at": "", "submission_path": "", "seed": %s}' \
    "$1" "$any" "$gold" "$3"
}
printf '{"competition_reports": [%s, %s, %s]}\n' "$(report a gold 0)" "$(report b gold 0)" \
  "$(report z gold 0)" >baseline.json  # z is not in the split
summary() {  # MEAN
  printf '{"agents": [{"splits": [{"split": "low", "aggregate": {"metrics": {"any_medal_percentage": {"mean": %s}}}}]}]}\n' "$1" >summary.json
}
mkdir -p reports
printf '{"competition_reports": [%s, %s, %s, %s]}\n' "$(report a gold 0)" "$(report b none 0)" \
  "$(report c none 0)" "$(report d none 0)" >reports/seed-0_grading_report.json
check() {  # WANT MEAN [FLAGS...]
  local want="$1" rc=0
  summary "$2"; shift 2
  "$TOOL" --split low --competitions a,b,c,d --summary summary.json --reports reports "$@" \
    >out 2>err || rc=$?
  [[ "$rc" == "$want" ]] || fail "exit status $rc, expected $want: $* ($(cat out err))"
}
check 0 75 --baseline baseline.json
grep -q "low: any medal 75.00%, baseline 50.00% (2 of 4 competitions in the baseline)" out || fail "$(cat out)"
check 0 50 --baseline baseline.json
check 1 25 --baseline baseline.json
grep -q "fell 25.00 points below the baseline's, more than the 0 allowed" out || fail "$(cat out)"
grep -q "medals dropped: b seed 0 (gold -> none)" out || fail "the drop is not named: $(cat out)"
check 0 25 --baseline baseline.json --max_regression 25
check 1 25 --baseline baseline.json --max_regression 24
check 0 10
grep -q "no baseline" out || fail "$(cat out)"
# A summary as the baseline: its mean with one seed, the lower end of its
# interval with several.
printf '{"agents": [{"splits": [{"split": "low", "aggregate": {"num_seeds_averaged": %s, "metrics": {"any_medal_percentage": {"mean": 50, "ci_lower": 40}}}}]}]}\n' 1 >one_seed.json
printf '{"agents": [{"splits": [{"split": "low", "aggregate": {"num_seeds_averaged": %s, "metrics": {"any_medal_percentage": {"mean": 50, "ci_lower": 40}}}}]}]}\n' 3 >seeds.json
check 0 50 --baseline one_seed.json
check 1 45 --baseline one_seed.json
grep -q "fell to 45.00%, below 50.00% (the baseline's mean less the 0 points" out || fail "$(cat out)"
check 0 45 --baseline seeds.json
check 1 35 --baseline seeds.json
grep -q "below 40.00% (the baseline's interval" out || fail "$(cat out)"
check 0 35 --baseline seeds.json --max_regression 5
echo '{' >broken.json
check 2 10 --baseline broken.json
summary 10; echo '{"agents": []}' >summary.json
"$TOOL" --split low --competitions a --summary summary.json --reports reports 2>/dev/null
[[ $? == 2 ]] || fail "a summary without an agent was accepted"
echo PASS
