#!/usr/bin/env bash
# docs/ci.md's job, as its workflow runs it (tools/ci/agent_gate.sh), on a
# nested Bazel with the dummy agent on the lite split: without a baseline it
# passes and makes the report; with its own reports as the baseline it holds;
# with a baseline in which a competition had gold (the baseline agent's,
# //competitions/baselines) it fails, naming the drop, and still makes the
# report.
set -euo pipefail
source bazel/nested_bazel.sh
nested_workspace "$TEST_TMPDIR/ws"
out="$TEST_TMPDIR/out"
mkdir -p "$out"
cat > "$out/bazel" <<EOS
#!/bin/bash
exec ${NESTED_BAZEL[*]} --batch "\$@"
EOS
chmod +x "$out/bazel"
gate() {  # NAME BASELINE: the job; its exit status
  local name="$1" rc=0
  BAZEL="$out/bazel" bash tools/ci/agent_gate.sh //agent_runner/agents:dummy "$2" 0 \
    "${NESTED_BUILD_OPTIONS[@]}" >"$out/$name.txt" 2>&1 || rc=$?
  return $rc
}
fail() { echo "FAIL: $*" >&2; exit 1; }
bin="$("$out/bazel" info bazel-bin 2>/dev/null)"

gate none "" || { cat "$out/none.txt"; fail "the job failed without a baseline"; }
testlogs="$("$out/bazel" info bazel-testlogs 2>/dev/null)"
grep -q "low: any medal .*; no baseline" "$testlogs/competitions/low_regression_test/test.log" ||
  fail "no split line: $(cat "$testlogs/competitions/low_regression_test/test.log")"
for f in report.md report.html summary.json; do
  [[ -s "$bin/competitions/low_summary/$f" ]] || fail "no $f"
done
grep -q '| Low (%) |' "$bin/competitions/low_summary/report.md" || fail "report.md lacks the table"

mkdir -p ci && cp "$bin/competitions/low_reports/seed-0_grading_report.json" ci/baseline.json
printf 'exports_files(["baseline.json"])\n' > ci/BUILD.bazel
gate own //ci:baseline.json || { tail -40 "$out/own.txt"; fail "the job failed against its own reports"; }

if gate drop //competitions/baselines:baseline_agent_seed-0_grading_report.json; then
  fail "the job passed against a baseline with a gold it lost"
fi
grep -q "medal dropped from gold in the baseline to none" "$out/drop.txt" ||
  fail "the drop is not named: $(grep -i fail "$out/drop.txt" | head)"
[[ -s "$bin/competitions/low_summary/report.md" ]] || fail "no report after a failing run"
echo PASS
