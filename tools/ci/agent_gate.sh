#!/bin/bash
# The CI job of docs/ci.md: runs an agent on the lite split against a
# baseline and makes the split's report.
#
#   tools/ci/agent_gate.sh AGENT BASELINE [MAX_REGRESSION] [BAZEL OPTIONS...]
#
# AGENT is the agent's label, BASELINE a label of a committed grading report
# or summary ("" for none), MAX_REGRESSION the points the split's any-medal
# share may fall (default 0). The Bazel command is ./bazelw unless $BAZEL
# names another (one word). Exit status: that of the test command (0 when
# every competition and the split hold); the report is made either way:
# bazel-bin/competitions/low_summary/report.md and report.html.
set -uo pipefail
agent="$1"; baseline="$2"; max_regression="${3:-0}"
shift $(( $# < 3 ? $# : 3 ))
bazel=("${BAZEL:-./bazelw}")
flags=(--//agent_runner:agent="$agent" --//competitions:max_regression="$max_regression" "$@")
[[ -n "$baseline" ]] && flags+=(--//competitions:baseline="$baseline")
"${bazel[@]}" test //competitions:lite //competitions:lite_regression_test "${flags[@]}"
status=$?
"${bazel[@]}" build //competitions:lite_summary "${flags[@]}" || exit 1
exit "$status"
