#!/usr/bin/env bash
# Grading speed side by side with upstream, one representative competition per
# grader family, on the same files, on this machine, in one run
# (docs/performance.md, "Side by side, 1,000,000 rows").
#
#   tools/grading_speed_comparison.sh UPSTREAM_SRC [ROWS] [UPSTREAM_REPEATS]
#
# UPSTREAM_SRC is a local copy of openai/mle-bench's source (never committed
# here); its grade code runs in the Python reference environment (upstream's
# pinned pandas, scikit-learn, ...: tools/python/requirements.lock, made by
# ./bazelw), with an empty stand-in for tqdm, which it imports but never calls.
# tools/grading_speed/make_data.py writes the answers and a submission per
# competition once (ROWS rows, default 1,000,000; the vision family ROWS/50;
# detection, siim-covid19-detection, ROWS).
# Each side is timed two ways, the best of several runs counting (ours 5,
# upstream's UPSTREAM_REPEATS, default 3: its runs take seconds each):
#  - in process: ours, //tools/grading_speed:grading_benchmark (Google
#    Benchmark, -c opt: read answers and submission, check, grade, round);
#    upstream's, tools/grading_speed/upstream_timing.py (read_csv of both
#    files as grade_csv does, its Grader: grade() and rounding), after imports;
#  - whole process: `mlebench grade-sample` (process start, report written to
#    stdout, exit) against upstream_timing.py for one competition (interpreter
#    start, imports, exit), timed with bash's $EPOCHREALTIME.
set -euo pipefail
upstream="$(readlink -f "${1:?usage: $0 UPSTREAM_SRC [ROWS] [UPSTREAM_REPEATS]}")"
rows="${2:-1000000}"
upstream_repeats="${3:-3}"
our_repeats=5
[[ -d "$upstream/mlebench/competitions" ]] || { echo "$upstream is not mle-bench's source" >&2; exit 2; }
cd "$(dirname "$0")/.."
./bazelw build -c opt //tools:mlebench //tools/grading_speed:grading_benchmark >/dev/null 2>&1
bin="$(./bazelw info -c opt bazel-bin 2>/dev/null)"
mlebench="$bin/tools/mlebench"
benchmark="$bin/tools/grading_speed/grading_benchmark"
# The reference environment ./bazelw just made or found (system_packages.bazelrc).
python="$(sed -n 's/^test --test_env=MLEBENCH_PYTHON=//p' system_packages.bazelrc)"
[[ -x "$python" ]] || { echo "no Python reference environment (run ./bazelw first)" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/stubs/tqdm"
echo 'def tqdm(x=None, *a, **k): return x' >"$work/stubs/tqdm/__init__.py"
echo 'from . import tqdm' >"$work/stubs/tqdm/auto.py"
"$python" tools/grading_speed/make_data.py "$work/data" "$work/sub" "$rows"

# Family of each representative, in the table's order.
families=(
  "AUC, one column:aerial-cactus-identification"
  "AUC, mean over columns:plant-pathology-2020-fgvc7"
  "log loss, multi-class:spooky-author-identification"
  "log loss, binary:dogs-vs-cats-redux-kernels-edition"
  "MAP@k:whale-categorization-playground"
  "accuracy:tabular-playground-series-dec-2021"
  "regression (RMSE):new-york-city-taxi-fare-prediction"
  "quadratic weighted kappa:aptos2019-blindness-detection"
  "correlation:us-patent-phrase-to-phrase-matching"
  "F1 over labels:plant-seedlings-classification"
  "text, Levenshtein:bms-molecular-translation"
  "text, word Jaccard:tweet-sentiment-extraction"
  "vision, RLE masks (rows / 50):tgs-salt-identification-challenge"
  "detection, box mAP:siim-covid19-detection"
)
ids=()
for f in "${families[@]}"; do ids+=("${f#*:}"); done

# Ours in process: the best repetition of each benchmark (real time, ms).
"$benchmark" --benchmark_repetitions="$our_repeats" --benchmark_min_time=0.3 \
    --benchmark_format=json competitions/competitions.tsv "$work/data" "$work/sub" \
    >"$work/ours.json" 2>/dev/null
# Upstream in process: one interpreter for all.
(cd "$upstream" && PYTHONPATH="$work/stubs:$upstream" "$python" \
    "$OLDPWD/tools/grading_speed/upstream_timing.py" "$work/data" "$work/sub" "$upstream_repeats" \
    "${ids[@]}" >"$work/upstream.txt" 2>/dev/null)

best_of() {  # runs command...: prints the best wall time; stdout of the last run in $work/out
  # Timed with bash's own clock: starting a process to read the time would
  # add its start-up to every run.
  local runs="$1" best="" start end
  shift
  for _ in $(seq "$runs"); do
    start="$EPOCHREALTIME"
    "$@" >"$work/out" 2>/dev/null
    end="$EPOCHREALTIME"
    best="$(awk -v s="$start" -v e="$end" -v b="$best" 'BEGIN {
        t = e - s; print (b == "" || t < b) ? t : b }')"
  done
  echo "$best"
}

echo "| family | competition | rows | upstream in process (s) | ours in process (s) | ratio | upstream process (s) | ours process (s) | **ratio** | upstream score | our score |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for f in "${families[@]}"; do
  family="${f%%:*}" cid="${f#*:}"
  n="$(($(wc -l <"$work/sub/$cid.csv") - 1))"
  up_in="$(awk -v c="$cid" '$1 == c { print $2 }' "$work/upstream.txt")"
  up_score="$(awk -v c="$cid" '$1 == c { print $3 }' "$work/upstream.txt")"
  ours_in="$("$python" -c '
import json, sys
runs = [b for b in json.load(open(sys.argv[1]))["benchmarks"]
        if b.get("run_type") == "iteration" and b["run_name"].split("/")[0] == sys.argv[2]]
print(min(b["real_time"] for b in runs) / 1000 if runs else "nan")' "$work/ours.json" "$cid")"
  up_proc="$(cd "$upstream" && PYTHONPATH="$work/stubs:$upstream" best_of "$upstream_repeats" "$python" \
      "$OLDPWD/tools/grading_speed/upstream_timing.py" "$work/data" "$work/sub" 1 "$cid")"
  ours_proc="$(best_of "$our_repeats" "$mlebench" grade-sample "$work/sub/$cid.csv" "$cid" --data-dir "$work/data")"
  our_score="$(sed -n 's/^ *"score": \([^,]*\),$/\1/p' "$work/out")"
  awk -v f="$family" -v c="$cid" -v n="$n" -v ui="$up_in" -v oi="$ours_in" -v up="$up_proc" \
      -v op="$ours_proc" -v us="$up_score" -v os="$our_score" 'BEGIN {
    printf "| %s | %s | %d | %.3f | %.4f | %.1fx | %.3f | %.3f | **%.1fx** | %s | %s |\n",
        f, c, n, ui, oi, ui / oi, up, op, up / op, us, os }'
done
