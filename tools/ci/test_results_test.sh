#!/usr/bin/env bash
# tools/ci/test_results.sh on build events recorded from a real Bazel run
# (testdata/events.json, trimmed): a passing test, a failing one, one that
# failed to build (no testSummary at all), and a failing "liar" whose output,
# shown on the console, holds lines that look like passing results - the
# console-scraping count took those for real.
set -euo pipefail
script="tools/ci/test_results.sh"
events="tools/ci/testdata/events.json"
fail() { echo "FAIL: $*" >&2; exit 1; }
# The forged lines are really in the events (inside a JSON string).
grep -qF '//x:y    PASSED in 1s' "$events" || fail "the fixture lost the forged lines"
got="$("$script" "$events")"
[ "$got" = "1 passed, 3 failed" ] || fail "got '$got', expected '1 passed, 3 failed'"
# No events (Bazel stopped before writing any): nothing counted.
got="$("$script" /nonexistent 2>/dev/null)"
[ "$got" = "0 passed, 0 failed" ] || fail "got '$got' for a missing file"
echo PASS
