#!/usr/bin/env bash
# The per-competition table of an agent against the sample submission, in
# Markdown, as README.md shows it for the baseline:
#
#   tools/agent_table.sh [BAZEL FLAGS...]     # e.g. --//agent_runner:agent=//my:agent
#
# runs every competition test with the given flags and the gate `none` (a
# table wants every row, passing or not), summarizes bazel-testlogs, and
# prints one row per competition and seed - lite (the low split) or not, the
# sample submission's score, the agent's, whether it beats the sample, the
# medal - then the totals and the agent's CPU time. The default agent is the
# baseline.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
./bazelw test //competitions/... --//competitions:gate=none "$@" >&2
json="$(mktemp)"
trap 'rm -f "$json"' EXIT
./bazelw run //tools:mlebench -- summarize "$root/bazel-testlogs/competitions" --json "$json" >/dev/null
lite="$(awk -F'\t' 'NR > 1 && $2 ~ /(^|,)low(,|$)/ {print $1}' competitions/competitions.tsv)"
cpu="$(find -L bazel-testlogs/competitions -name outputs.zip -print0 |
  xargs -0 -n1 sh -c 'bsdtar -xOf "$0" "*.run_record.json" 2>/dev/null' |
  jq -s '[.[].cpu_seconds] | add')"
jq -r --arg lite "$lite" --arg cpu "$cpu" '
  ($lite | split("\n")) as $low
  | .agents[] | select(.agent != "")
  | "Agent `\(.agent)` (digest `\(.agent_digest[0:12])`), \(.num_seeds) seed(s), \(.competitions | length) competitions:\n",
    "| competition | lite | sample score | score | beats sample | medal |",
    "| --- | --- | --- | --- | --- | --- |",
    (.competitions[] as $c | $c.outcomes[] |
      "| \($c.competition_id)\(if .seed != 0 then " (seed \(.seed))" else "" end) | \(if ($low | index($c.competition_id)) then "yes" else "" end) | \($c.sample_score // "") | \(if .score == "" then "(none)" else .score end) | \(if .beats_sample then "yes" else "no" end) | \(.outcome) |"),
    "",
    (.seeds[] | "Seed \(.seed): \(.valid_submissions) of \(.total_competitions) valid, \(.beats_sample) beat the sample submission, \(.any_medals) medal(s)."),
    "Agent CPU time, all runs together: \($cpu | tonumber | . * 10 | round / 10) s."
' "$json"
