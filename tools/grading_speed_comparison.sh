#!/usr/bin/env bash
# Side-by-side speed of `mlebench grade-sample` and upstream's Python grader on
# the same large submissions (docs/performance.md shows a run).
#
#   tools/grading_speed_comparison.sh UPSTREAM_SRC [ROWS]
#
# UPSTREAM_SRC is a local copy of openai/mle-bench's source (never committed
# here); its graders run in the Python reference environment (upstream's pinned
# pandas, scikit-learn, ...: tools/python/requirements.lock, made by ./bazelw),
# with an empty stand-in for tqdm, which they import but never call. Both sides read the same CSV files and do the whole job
# upstream's `grade_csv` does up to the score: read submission and answers
# (pandas read_csv, float_precision="round_trip"), check, grade, round to 5
# places. Each run is a fresh process; the best of 3 wall-clock times counts.
set -euo pipefail
upstream="$(readlink -f "${1:?usage: $0 UPSTREAM_SRC [ROWS]}")"
rows="${2:-1000000}"
[[ -d "$upstream/mlebench/competitions" ]] || { echo "$upstream is not mle-bench's source" >&2; exit 2; }
cd "$(dirname "$0")/.."
./bazelw build -c opt //tools:mlebench >/dev/null 2>&1
mlebench="$(./bazelw info -c opt bazel-bin 2>/dev/null)/tools/mlebench"
# The reference environment ./bazelw just made or found (system_packages.bazelrc).
python="$(sed -n 's/^test --test_env=MLEBENCH_PYTHON=//p' system_packages.bazelrc)"
[[ -x "$python" ]] || { echo "no Python reference environment (run ./bazelw first)" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/stubs/tqdm"
echo 'def tqdm(x=None, *a, **k): return x' >"$work/stubs/tqdm/__init__.py"
echo 'from . import tqdm' >"$work/stubs/tqdm/auto.py"

# Answers and a submission per competition, written by pandas.
"$python" - "$work/data" "$work/sub" "$rows" <<'PY'
import os, sys
import numpy as np, pandas as pd
data, sub, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = np.random.default_rng(0)
def put(cid, answers, submission):
    d = f"{data}/{cid}/prepared/private"
    os.makedirs(d, exist_ok=True)
    answers.to_csv(f"{d}/test.csv", index=False)
    os.makedirs(sub, exist_ok=True)
    submission.to_csv(f"{sub}/{cid}.csv", index=False)
ids = [f"{i:08x}.jpg" for i in range(n)]
y = rng.integers(0, 2, n)
put("aerial-cactus-identification",
    pd.DataFrame({"id": ids, "has_cactus": y}),
    pd.DataFrame({"id": ids, "has_cactus": np.clip(y * 0.3 + rng.random(n) * 0.7, 0, 1)}))
authors = np.array(["EAP", "HPL", "MWS"])
label = rng.integers(0, 3, n)
onehot = np.eye(3, dtype=int)[label]
p = rng.random((n, 3)) + onehot
p /= p.sum(axis=1, keepdims=True)
tid = [f"id{i:07d}" for i in range(n)]
put("spooky-author-identification",
    pd.DataFrame({"id": tid, "EAP": onehot[:, 0], "HPL": onehot[:, 1], "MWS": onehot[:, 2]}),
    pd.DataFrame({"id": tid, "EAP": p[:, 0], "HPL": p[:, 1], "MWS": p[:, 2]}))
whales = np.array([f"w_{i:07x}" for i in range(5000)] + ["new_whale"])
truth = whales[rng.integers(0, len(whales), n)]
guesses = whales[rng.integers(0, len(whales), (n, 5))]
hit = rng.random(n) < 0.4
guesses[hit, rng.integers(0, 5, hit.sum())] = truth[hit]
put("whale-categorization-playground",
    pd.DataFrame({"Image": ids, "Id": truth}),
    pd.DataFrame({"Image": ids, "Id": [" ".join(g) for g in guesses]}))
PY

cat >"$work/upstream_grade.py" <<'PY'
import importlib, sys
cid, submission, answers = sys.argv[1:4]
from mlebench.utils import read_csv
from mlebench.grade_helpers import Grader
grade = importlib.import_module(f"mlebench.competitions.{cid}.grade").grade
score = Grader(name="x", grade_fn=f"mlebench.competitions.{cid}.grade:grade")(
    read_csv(submission), read_csv(answers))
print(score)
PY

best_of_3() {  # command...: prints the best wall time; stdout of the last run in $work/out
  # Timed with bash's own clock: starting a process to read the time would
  # add its start-up to every run.
  local best="" start end
  for _ in 1 2 3; do
    start="$EPOCHREALTIME"
    "$@" >"$work/out" 2>/dev/null
    end="$EPOCHREALTIME"
    best="$(/usr/bin/python3 -c "t = $end - $start; b = '$best'; print(min(t, float(b)) if b else t)")"
  done
  echo "$best"
}

echo "| competition | metric | rows | upstream (s) | mlebench (s) | speed-up | upstream score | our score |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for cid in aerial-cactus-identification spooky-author-identification whale-categorization-playground; do
  metric="$(awk -F'\t' -v c="$cid" '$1 == c {print $3}' competitions/competitions.tsv)"
  up_s="$(cd "$upstream" && PYTHONPATH="$work/stubs:$upstream" best_of_3 "$python" \
      "$work/upstream_grade.py" "$cid" "$work/sub/$cid.csv" "$work/data/$cid/prepared/private/test.csv")"
  up_score="$(tail -1 "$work/out")"
  our_s="$(best_of_3 "$mlebench" grade-sample "$work/sub/$cid.csv" "$cid" --data-dir "$work/data")"
  our_score="$(sed -n 's/^ *"score": \([^,]*\),$/\1/p' "$work/out")"
  /usr/bin/python3 -c "print('| %s | %s | %d | %.3f | %.3f | %.1fx | %s | %s |' % ('$cid', '$metric', $rows, $up_s, $our_s, $up_s / $our_s, '$up_score', '$our_score'))"
done
