#!/bin/bash
# //competitions:lite_summary as the build makes it: upstream's figures over
# the low split's 22 competitions for the agent the build ran, with the
# synthetic-data note, and the reports it was made from.
set -euo pipefail
/usr/bin/python3 - competitions/low_summary/summary.json competitions/low_reports <<'PY'
import json, os, sys
summary = json.load(open(sys.argv[1]))
assert len(summary["agents"]) == 1, summary["agents"]
agent = summary["agents"][0]
assert agent["dataset"] == "synthetic" and "mean nothing about Kaggle" in agent["dataset_note"], agent
split = agent["splits"][0]
assert split["split"] == "low", split
aggregate = split["aggregate"]
assert aggregate["num_competitions_per_seed"] == 22, aggregate
medal = aggregate["metrics"]["any_medal_percentage"]
assert 0 <= medal["mean"] <= 100 and medal["ci_lower"] <= medal["mean"] <= medal["ci_upper"], medal
seeds = sorted(os.listdir(sys.argv[2]))
assert seeds == ["seed-%d_grading_report.json" % i for i in range(len(seeds))], seeds
reports = json.load(open(os.path.join(sys.argv[2], seeds[0])))["competition_reports"]
assert len(reports) == 22 and all(r["agent"] == agent["agent"] for r in reports), len(reports)
print("PASS: low any medal %.2f%%" % medal["mean"])
PY
