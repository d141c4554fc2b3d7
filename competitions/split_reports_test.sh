#!/bin/bash
# split_reports on small graded reports and run records: one upstream-shaped
# grading report per seed, completed from the run records and the sample,
# ordered by competition, the same bytes twice; broken inputs exit 2.
set -euo pipefail
readonly TOOL="$PWD/competitions/split_reports"
readonly T="$TEST_TMPDIR"
cd "$T"
fail() { echo "FAIL: $*" >&2; exit 1; }

report() {  # ID SCORE VALID: a report as the grade action writes it
  printf '{"competition_id": "%s", "score": %s, "gold_threshold": 0.9, "silver_threshold": 0.8, "bronze_threshold": 0.7, "median_threshold": 0.5, "any_medal": false, "gold_medal": false, "silver_medal": false, "bronze_medal": false, "above_median": %s, "submission_exists": true, "valid_submission": %s, "is_lower_better": false, "created_at": "", "submission_path": "s.csv", "dataset": "synthetic"}\n' \
    "$1" "$2" "$3" "$3"
}
report b 0.6 true >b0.json
report b 0.4 true >b1.json
report a null false >a0.json
report a 0.55 true >a1.json
report a 0.1 true >sample_a.json
report b 0.1 true >sample_b.json
printf '{"isolation": "bwrap", "network": "deny", "cpus": 2, "ended_by": "agent"}\n' >rec.json
printf 'b\t0\tb0.json\trec.json\tsample_b.json\nb\t1\tb1.json\trec.json\tsample_b.json\n' >m.tsv
printf 'a\t0\ta0.json\trec.json\tsample_a.json\na\t1\ta1.json\trec.json\tsample_a.json\n' >>m.tsv

"$TOOL" --agent //my:agent --manifest m.tsv --out out || fail "exit status $?"
[ "$(ls out)" = "$(printf 'seed-0_grading_report.json\nseed-1_grading_report.json')" ] ||
  fail "files: $(ls out)"
python3 - out <<'PY' || fail "wrong reports"
import json, os, sys
s0 = json.load(open(os.path.join(sys.argv[1], "seed-0_grading_report.json")))
s1 = json.load(open(os.path.join(sys.argv[1], "seed-1_grading_report.json")))
assert [r["competition_id"] for r in s0["competition_reports"]] == ["a", "b"], s0
assert (s0["total_runs"], s0["total_valid_submissions"], s0["total_above_median"]) == (2, 1, 1), s0
assert (s1["total_valid_submissions"], s1["total_above_median"]) == (2, 2), s1
for r in s0["competition_reports"] + s1["competition_reports"]:
    assert r["agent"] == "//my:agent" and r["isolation"] == "bwrap" and r["cpus"] == 2, r
assert s1["competition_reports"][0]["seed"] == 1
assert s1["competition_reports"][0]["beats_sample"] is True
PY
"$TOOL" --agent //my:agent --manifest m.tsv --out again
diff -r out again >/dev/null || fail "not deterministic"

printf 'a\t0\ta0.json\tmissing.json\tsample_a.json\n' >bad.tsv
if "$TOOL" --agent x --manifest bad.tsv --out bad 2>err; then fail "a missing record was accepted"; fi
grep -q "missing.json" err || fail "the error does not name the record: $(cat err)"
echo PASS
