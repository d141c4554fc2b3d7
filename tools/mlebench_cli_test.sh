#!/bin/bash
# Integration test of the `mlebench` command-line tool: runs the real binary
# (list, prepare, grade-sample, grade, summarize, aggregate, thresholds) on the registered
# competitions' synthetic data in $TEST_TMPDIR and checks files, exit
# statuses, messages and JSON (with Debian's /usr/bin/python3).
#
# The binary is run the way a user runs bazel-bin/tools/mlebench: a copy of
# it beside a `mlebench.runfiles` tree (this test's runfiles, which hold the
# binary's data files because it is a data dependency), invoked by path from
# another directory, with the test's runfiles variables removed.
set -euo pipefail

readonly T="$TEST_TMPDIR"
readonly TSV="$PWD/competitions/competitions.tsv"
readonly THRESHOLDS_CSV="$PWD/grading/medal_thresholds.csv"
mkdir -p "$T/elsewhere"
source tools/testing/mlebench_cli.sh

# A listing of every file under a directory with its checksum.
tree_sums() { (cd "$1" && find . -type f | LC_ALL=C sort | xargs sha256sum); }

readonly SPACESHIP=spaceship-titanic
readonly CACTUS=aerial-cactus-identification
readonly SPOOKY=spooky-author-identification

# Files that `prepare` must write for each competition (as upstream's prepare.py).
expect_prepared() {  # DATA_DIR ID
  local dir="$1/$2" f
  case "$2" in
    "$SPACESHIP") set -- raw/train.csv raw/test.csv raw/sample_submission.csv \
      prepared/public/train.csv prepared/public/test.csv prepared/public/sample_submission.csv \
      prepared/private/test.csv ;;
    "$CACTUS") set -- raw/train.zip raw/train.csv raw/test.zip raw/sample_submission.csv \
      prepared/public/train.zip prepared/public/train.csv prepared/public/test.zip \
      prepared/public/sample_submission.csv prepared/private/test.csv ;;
    "$SPOOKY") set -- raw/train.zip raw/test.zip raw/sample_submission.zip \
      prepared/public/train.csv prepared/public/test.csv prepared/public/sample_submission.csv \
      prepared/private/test.csv ;;
  esac
  for f in "$@"; do
    [ -s "$dir/$f" ] || fail "prepare did not write $dir/$f"
  done
}

expect_competition_dirs() {  # DATA_DIR ID...
  local dir="$1"
  shift
  local want got
  want="$(printf '%s\n' "$@" | LC_ALL=C sort)"
  got="$(cd "$dir" && ls | LC_ALL=C sort)"
  [ "$want" = "$got" ] || fail "$dir holds [$got], expected [$want]"
}

# ---------------------------------------------------------------- list
run 0 "$MLEBENCH" list
py "$T/out" "$TSV" "$SPACESHIP" "$CACTUS" "$SPOOKY" <<'EOF'
import sys
out, tsv, *registered = sys.argv[1:]
lines = open(out).read().splitlines()
rows = open(tsv).read().splitlines()[1:]
# Upstream's 82, and any competition added to the table since.
assert len(lines) == len(rows) >= 82, (len(lines), len(rows))
status = {}
for line in lines:
    fields = line.split("\t")
    assert len(fields) == 4, line
    assert fields[3] in ("registered", "not-yet-registered"), line
    status[fields[0]] = fields[3]
assert sorted(status) == sorted(r.split("\t")[0] for r in rows)
for cid in registered:
    assert status[cid] == "registered", cid
EOF
cp "$T/out" list.tsv
# What the build registers, from `list` itself: the expectations below follow it.
registered_ids() { awk -F'\t' '$4 == "registered" && ($2 ~ /(^|,)'"$1"'(,|$)/) {print $1}' list.tsv; }
UNREGISTERED="$(awk -F'\t' '$4 == "not-yet-registered" {print $1; exit}' list.tsv)"
# The low split's size (upstream's 22, and any competition added to it).
N_LOW="$(registered_ids low | wc -l)"

# ---------------------------------------------------------------- prepare
run 0 "$MLEBENCH" prepare -c "$SPACESHIP" --data-dir data --synthetic
expect_prepared data "$SPACESHIP"
[ "$(cat data/$SPACESHIP/prepared/.mlebench-dataset)" = synthetic ] || fail "no dataset marker"
tree_sums data > "$T/sums.before"

# A second run refuses and leaves everything as it was.
run 1 "$MLEBENCH" prepare -c "$SPACESHIP" --data-dir data --synthetic
expect_stderr "data/$SPACESHIP/prepared already holds prepared data; pass --force to replace it"
tree_sums data > "$T/sums.after"
cmp -s "$T/sums.before" "$T/sums.after" || fail "a refused prepare changed the data dir"
run 1 "$MLEBENCH" prepare -c "$SPACESHIP" --data-dir data
expect_stderr "already holds prepared data"

# --force replaces it (the same seed gives the same bytes).
echo stale > "data/$SPACESHIP/prepared/public/stale.txt"
run 0 "$MLEBENCH" prepare -c "$SPACESHIP" --data-dir data --synthetic --force
[ ! -e "data/$SPACESHIP/prepared/public/stale.txt" ] || fail "--force kept a stale file"
tree_sums data > "$T/sums.forced"
cmp -s "$T/sums.before" "$T/sums.forced" || fail "--force with the same seed changed the data"
[ ! -e "data/$SPACESHIP/prepared.partial" ] && [ ! -e "data/$SPACESHIP/raw.partial" ] ||
  fail "staging directories left behind"
# Another seed gives other data.
run 0 "$MLEBENCH" prepare -c "$SPACESHIP" --data-dir data --synthetic --force --seed 5
tree_sums data > "$T/sums.seed5"
! cmp -s "$T/sums.before" "$T/sums.seed5" || fail "--seed 5 gave the same data as seed 0"
run 0 "$MLEBENCH" prepare -c "$SPACESHIP" --data-dir data --synthetic --force

# --raw: the raw data elsewhere (a copy of the synthetic download).
cp -r "data/$SPACESHIP/raw" "$T/raw-copy"
run 0 "$MLEBENCH" prepare -c "$SPACESHIP" --data-dir data-from-raw --raw "$T/raw-copy"
diff -r "data/$SPACESHIP/prepared" "data-from-raw/$SPACESHIP/prepared" >/dev/null ||
  fail "--raw prepared other data than --synthetic"
[ ! -e "data-from-raw/$SPACESHIP/raw" ] || fail "--raw wrote a raw/ directory"
# The same files without our synthetic marker count as a Kaggle download.
cp -r "$T/raw-copy" "$T/raw-kaggle"
rm "$T/raw-kaggle/.mlebench-synthetic"
run 0 "$MLEBENCH" prepare -c "$SPACESHIP" --data-dir data-kaggle --raw "$T/raw-kaggle"
[ "$(cat data-kaggle/$SPACESHIP/prepared/.mlebench-dataset)" = kaggle ] || fail "not marked kaggle"
run 1 "$MLEBENCH" prepare -c "$SPACESHIP" --data-dir data-kaggle --raw "$T/no-such-raw" --force
expect_stderr "no raw data at $T/no-such-raw"
[ -s "data-kaggle/$SPACESHIP/prepared/private/test.csv" ] || fail "a failed --force prepare destroyed data"

# --synthetic never replaces real raw data, even with --force.
mkdir -p "real/$SPACESHIP/raw"
echo "precious" > "real/$SPACESHIP/raw/train.csv"
run 1 "$MLEBENCH" prepare -c "$SPACESHIP" --data-dir real --synthetic --force
expect_stderr "holds raw data that is not synthetic"
[ "$(cat real/$SPACESHIP/raw/train.csv)" = precious ] || fail "real raw data was replaced"
# A broken raw download fails with the preparer's message and leaves no prepared/.
run 1 "$MLEBENCH" prepare -c "$SPACESHIP" --data-dir real
expect_stderr "$SPACESHIP: "
[ ! -e "real/$SPACESHIP/prepared" ] && [ ! -e "real/$SPACESHIP/prepared.partial" ] ||
  fail "a failed prepare left prepared data"

# --lite: the registered competitions of the low split; --all: every registered
# one. --dry-run names them without writing (preparing all would take long).
run 0 "$MLEBENCH" prepare --lite --data-dir lite --synthetic --dry-run
[ "$(cat "$T/out")" = "$(registered_ids low | sed 's/^/would prepare /')" ] ||
  fail "--lite would prepare [$(cat "$T/out")]"
run 0 "$MLEBENCH" prepare --all --data-dir all --synthetic --dry-run
[ "$(cat "$T/out")" = "$(registered_ids '[a-z0-9]+' | sed 's/^/would prepare /')" ] ||
  fail "--all would prepare [$(cat "$T/out")]"
[ ! -e lite ] && [ ! -e all ] || fail "--dry-run wrote a data dir"
printf '%s\n%s\n%s\n' "$CACTUS" "$SPACESHIP" "$SPOOKY" > three.txt
run 0 "$MLEBENCH" prepare --list three.txt --data-dir all --synthetic
expect_competition_dirs all "$CACTUS" "$SPACESHIP" "$SPOOKY"
for id in "$CACTUS" "$SPACESHIP" "$SPOOKY"; do expect_prepared all "$id"; done

# --list FILE (blank lines and surrounding spaces ignored).
printf '%s\n\n  %s  \n' "$SPOOKY" "$SPACESHIP" > ids.txt
run 0 "$MLEBENCH" prepare --list ids.txt --data-dir listed --synthetic
expect_competition_dirs listed "$SPACESHIP" "$SPOOKY"

# Bad requests: exit 1, a message, nothing written.
run 1 "$MLEBENCH" prepare -c no-such-competition --data-dir bad --synthetic
expect_stderr "unknown competition 'no-such-competition' (see mlebench list)"
printf '%s\nno-such-competition\n' "$SPACESHIP" > bad-ids.txt
run 1 "$MLEBENCH" prepare --list bad-ids.txt --data-dir bad --synthetic
expect_stderr "unknown competition 'no-such-competition'"
if [ -n "$UNREGISTERED" ]; then
  run 1 "$MLEBENCH" prepare -c "$UNREGISTERED" --data-dir bad --synthetic
  expect_stderr "'$UNREGISTERED' is not registered"
fi
[ ! -e bad ] || fail "a refused prepare wrote into its data dir"
run 1 "$MLEBENCH" prepare -c "$SPACESHIP" --synthetic
expect_stderr "prepare needs --data-dir"
run 1 "$MLEBENCH" prepare --data-dir bad
expect_stderr "One of -c ID, --all, --lite or --list FILE is required"
run 1 "$MLEBENCH" prepare --list no-such-file.txt --data-dir bad
expect_stderr "cannot read no-such-file.txt"
run 1 "$MLEBENCH" prepare -c "$SPACESHIP" --data-dir bad --synthetic --raw "$T/raw-copy"
expect_stderr "--synthetic and --raw exclude each other"
run 1 "$MLEBENCH" prepare -c "$SPACESHIP" --data-dir bad --bogus
expect_stderr "unknown flag --bogus"
run 1 "$MLEBENCH" frobnicate
expect_stderr "unknown command 'frobnicate'"

# ---------------------------------------------------------------- grade-sample
# check_report REPORT_JSON ID [key=json-value...]: upstream's keys in upstream's
# order, then ours; created_at in ISO format; the given values.
check_report() {
  py "$@" <<'EOF'
import datetime, json, sys
path, cid, *expected = sys.argv[1:]
report = json.load(open(path))
upstream = ["competition_id", "score", "gold_threshold", "silver_threshold", "bronze_threshold",
            "median_threshold", "any_medal", "gold_medal", "silver_medal", "bronze_medal",
            "above_median", "submission_exists", "valid_submission", "is_lower_better",
            "created_at", "submission_path"]
ours = ["invalid_reason", "agent", "seed", "dataset", "thresholds_source", "isolation", "network",
        "agent_digest", "environment_digest", "cpus", "memory_limit_bytes", "gpus",
        "processes_limit", "wall_seconds", "cpu_seconds", "memory_peak_bytes", "ended_by",
        "sample_score", "beats_sample", "allowed_hosts", "network_requests",
        "network_requests_refused", "network_requests_failed"]
assert list(report) == upstream + ours, list(report)
assert report["competition_id"] == cid
datetime.datetime.fromisoformat(report["created_at"])
assert report["any_medal"] == (report["gold_medal"] or report["silver_medal"] or report["bronze_medal"])
assert (report["score"] is None) == (not report["valid_submission"])
for item in expected:
    key, value = item.split("=", 1)
    assert report[key] == json.loads(value), (key, report[key], value)
EOF
}

for id in "$SPACESHIP" "$CACTUS" "$SPOOKY"; do
  run 0 "$MLEBENCH" grade-sample "all/$id/prepared/public/sample_submission.csv" "$id" --data-dir all
  check_report "$T/out" "$id" valid_submission=true submission_exists=true 'dataset="synthetic"' \
    'thresholds_source="embedded"' 'invalid_reason=""' \
    "submission_path=\"all/$id/prepared/public/sample_submission.csv\""
done

# Perfect submissions built from the private answers win gold.
py all <<'EOF'
import csv, sys
data = sys.argv[1]
def write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
rows = list(csv.DictReader(open(f"{data}/spaceship-titanic/prepared/private/test.csv")))
write("perfect-spaceship.csv", ["PassengerId", "Transported"],
      [[r["PassengerId"], r["Transported"]] for r in rows])
rows = list(csv.DictReader(open(f"{data}/aerial-cactus-identification/prepared/private/test.csv")))
write("perfect-cactus.csv", ["id", "has_cactus"], [[r["id"], r["has_cactus"]] for r in rows])
rows = list(csv.DictReader(open(f"{data}/spooky-author-identification/prepared/private/test.csv")))
write("perfect-spooky.csv", ["id", "EAP", "HPL", "MWS"],
      [[r["id"], r["EAP"], r["HPL"], r["MWS"]] for r in rows])
EOF
run 0 "$MLEBENCH" grade-sample perfect-spaceship.csv "$SPACESHIP" --data-dir all
check_report "$T/out" "$SPACESHIP" score=1.0 gold_medal=true any_medal=true above_median=true
cp "$T/out" "$T/report-perfect-spaceship.json"
run 0 "$MLEBENCH" grade-sample perfect-cactus.csv "$CACTUS" --data-dir all
check_report "$T/out" "$CACTUS" score=1.0 gold_medal=true any_medal=true
run 0 "$MLEBENCH" grade-sample perfect-spooky.csv "$SPOOKY" --data-dir all
check_report "$T/out" "$SPOOKY" gold_medal=true is_lower_better=true

# Missing and non-CSV submissions exist not; unreadable ones are invalid.
run 0 "$MLEBENCH" grade-sample no-such-file.csv "$SPACESHIP" --data-dir all
check_report "$T/out" "$SPACESHIP" submission_exists=false valid_submission=false score=null \
  any_medal=false
cp perfect-spaceship.csv perfect-spaceship.txt
run 0 "$MLEBENCH" grade-sample perfect-spaceship.txt "$SPACESHIP" --data-dir all
check_report "$T/out" "$SPACESHIP" submission_exists=false valid_submission=false
printf 'foo,bar\n1,2\n' > wrong-columns.csv
printf '"PassengerId,Transported\n' > unclosed-quote.csv
printf 'Passenger\000Id,\377\376\n\001\002' > binary.csv
for bad in wrong-columns.csv unclosed-quote.csv binary.csv; do
  run 0 "$MLEBENCH" grade-sample "$bad" "$SPACESHIP" --data-dir all
  check_report "$T/out" "$SPACESHIP" submission_exists=true valid_submission=false score=null
  py "$T/out" <<'EOF'
import json, sys
assert json.load(open(sys.argv[1]))["invalid_reason"], "no invalid_reason"
EOF
done

# Data from a raw download without our marker is graded as Kaggle data.
run 0 "$MLEBENCH" grade-sample perfect-spaceship.csv "$SPACESHIP" --data-dir data-kaggle
check_report "$T/out" "$SPACESHIP" 'dataset="kaggle"'

# Not prepared, unknown, or unregistered: exit 1.
run 1 "$MLEBENCH" grade-sample perfect-spooky.csv "$SPOOKY" --data-dir data
expect_stderr "Dataset for competition \`$SPOOKY\` is not prepared"
expect_stderr "mlebench prepare -c $SPOOKY --data-dir data"
if [ -n "$UNREGISTERED" ]; then
  run 1 "$MLEBENCH" grade-sample perfect-spooky.csv "$UNREGISTERED" --data-dir all
  expect_stderr "no grader registered for '$UNREGISTERED'"
fi
run 1 "$MLEBENCH" grade-sample perfect-spooky.csv "$SPOOKY"
expect_stderr "grade-sample needs --data-dir"
run 1 "$MLEBENCH" grade-sample perfect-spooky.csv --data-dir all
expect_stderr "grade-sample takes SUBMISSION and COMPETITION_ID"

# --leaderboard: thresholds from an upstream-style leaderboard.csv. 20 teams,
# higher is better: gold at place 2, silver at 4, bronze at 8, median of all.
py <<'EOF'
scores = ["0.99", "0.98", "0.97", "0.96", "0.95", "0.94", "0.93", "0.92", "0.91", "0.90",
          "0.89", "0.88", "0.87", "0.86", "0.85", "0.84", "0.83", "0.82", "0.81", "0.80"]
with open("leaderboard.csv", "w") as f:
    f.write("scoreNullable,teamId,hasTeamName,submissionDate,score,hasScore\n")
    for i, s in enumerate(scores):
        f.write(f"{s},{1000 + i},True,2020-01-01 00:00:00,{s},True\n")
EOF
run 0 "$MLEBENCH" grade-sample perfect-spaceship.csv "$SPACESHIP" --data-dir all --leaderboard leaderboard.csv
check_report "$T/out" "$SPACESHIP" gold_threshold=0.98 silver_threshold=0.96 bronze_threshold=0.92 \
  median_threshold=0.895 is_lower_better=false 'thresholds_source="leaderboard"' gold_medal=true
run 1 "$MLEBENCH" grade-sample perfect-spaceship.csv "$SPACESHIP" --data-dir all --leaderboard no-such.csv
run 0 "$MLEBENCH" grade-sample all/$SPACESHIP/prepared/public/sample_submission.csv "$SPACESHIP" \
  --data-dir all --leaderboard leaderboard.csv
check_report "$T/out" "$SPACESHIP" any_medal=false above_median=false

# ---------------------------------------------------------------- grade (JSONL)
cat > runs.jsonl <<EOF
# upstream's JSONL: one submission per line; commented-out and blank lines are skipped
{"competition_id": "$SPACESHIP", "submission_path": "perfect-spaceship.csv"}

// {"competition_id": "$SPACESHIP", "submission_path": "this line is commented out"}
  {"competition_id": "$CACTUS", "submission_path": "all/$CACTUS/prepared/public/sample_submission.csv"}
{"competition_id": "$SPOOKY", "submission_path": "no-such-submission.csv", "logs_path": "ignored"}
    # indented comment
EOF
run 0 "$MLEBENCH" grade --submission runs.jsonl --output-dir reports --data-dir all --agent //agents:x --seed 2
grep -q "Saved summary report to reports/.*_grading_report.json" "$T/out" || fail "no 'Saved' line"
py reports "$SPACESHIP" "$CACTUS" "$SPOOKY" <<'EOF'
import glob, json, os, sys
out_dir, *ids = sys.argv[1:]
files = os.listdir(out_dir)
assert len(files) == 1 and files[0].endswith("_grading_report.json"), files
agg = json.load(open(os.path.join(out_dir, files[0])))
assert list(agg) == ["total_runs", "total_runs_with_submissions", "total_valid_submissions",
                     "total_medals", "total_gold_medals", "total_silver_medals",
                     "total_bronze_medals", "total_above_median", "competition_reports"], list(agg)
reports = agg["competition_reports"]
assert [r["competition_id"] for r in reports] == ids
assert agg["total_runs"] == len(reports) == 3
for total, key in [("total_runs_with_submissions", "submission_exists"),
                   ("total_valid_submissions", "valid_submission"),
                   ("total_gold_medals", "gold_medal"), ("total_silver_medals", "silver_medal"),
                   ("total_bronze_medals", "bronze_medal"), ("total_above_median", "above_median")]:
    assert agg[total] == sum(r[key] for r in reports), total
assert agg["total_medals"] == agg["total_gold_medals"] + agg["total_silver_medals"] + agg["total_bronze_medals"]
assert (agg["total_runs_with_submissions"], agg["total_gold_medals"]) == (2, 1), agg
assert all(r["agent"] == "//agents:x" and r["seed"] == 2 for r in reports)
assert reports[2]["submission_exists"] is False
EOF

# Malformed lines: exit 1 naming the line; nothing is written.
printf '{"competition_id": "%s", "submission_path": "perfect-spaceship.csv"}\n# fine\n{"competition_id": \n' \
  "$SPACESHIP" > broken.jsonl
run 1 "$MLEBENCH" grade --submission broken.jsonl --output-dir broken-reports --data-dir all
expect_stderr "broken.jsonl:3: not a JSON object"
[ ! -e broken-reports ] || fail "a failed grade wrote reports"
printf '{"competition_id": "%s"}\n' "$SPACESHIP" > no-path.jsonl
run 1 "$MLEBENCH" grade --submission no-path.jsonl --output-dir broken-reports --data-dir all
expect_stderr "no-path.jsonl:1: needs string fields competition_id and submission_path"
printf '\n{"competition_id": "%s", "submission_path": "x.csv"}\n' "$SPOOKY" > unprepared.jsonl
run 1 "$MLEBENCH" grade --submission unprepared.jsonl --output-dir broken-reports --data-dir data
expect_stderr "unprepared.jsonl:2: Dataset for competition \`$SPOOKY\` is not prepared"
run 1 "$MLEBENCH" grade --submission runs.jsonl --data-dir all
expect_stderr "grade needs --submission FILE.jsonl, --output-dir and --data-dir"

# ---------------------------------------------------------------- BUILD_WORKING_DIRECTORY
# Under `bazel run`, relative paths are relative to where the user ran it.
(
  cd "$T/elsewhere"
  export BUILD_WORKING_DIRECTORY="$T/work"
  run 0 "$MLEBENCH" prepare -c "$SPACESHIP" --data-dir bwd-data --synthetic
  [ -d "$T/work/bwd-data/$SPACESHIP/prepared/public" ] || fail "prepare ignored BUILD_WORKING_DIRECTORY"
  [ ! -e "$T/elsewhere/bwd-data" ] || fail "prepare wrote relative to the cwd"
  run 0 "$MLEBENCH" grade-sample perfect-spaceship.csv "$SPACESHIP" --data-dir bwd-data
  check_report "$T/out" "$SPACESHIP" score=1.0 "submission_path=\"$T/work/perfect-spaceship.csv\""
  run 0 "$MLEBENCH" grade --submission runs.jsonl --output-dir bwd-reports --data-dir all
  ls "$T/work/bwd-reports/"*_grading_report.json >/dev/null || fail "grade ignored BUILD_WORKING_DIRECTORY"
  run 0 "$MLEBENCH" summarize bwd-reports --json bwd-summary.json
  [ -s "$T/work/bwd-summary.json" ] || fail "summarize --json ignored BUILD_WORKING_DIRECTORY"
)

# ---------------------------------------------------------------- runfiles lookup
# By a relative path, through a symlinked directory (like bazel-bin), from
# another directory; and a copy without runfiles fails with a clear message.
(cd "$T" && run 0 bazel-bin/tools/mlebench list)
ln -s "$T/bazel-bin" "$T/bazel-bin-link"
(cd /tmp && run 0 "$T/bazel-bin-link/tools/mlebench" list)
mkdir -p "$T/lonely"
cp "$MLEBENCH" "$T/lonely/mlebench"
(cd "$T/lonely" && run 1 ./mlebench list && expect_stderr "cannot find competitions/competitions.tsv")

# ---------------------------------------------------------------- thresholds
# A leaderboard of 10 teams built so that Kaggle's brackets (gold at place 1,
# silver 2, bronze 4, the median the mean of places 5 and 6) give a
# competition's embedded row back: `thresholds` must print that row, to the
# letter, and say it agrees; a changed gold score gives another row, said to
# differ; an id without a row is said to need one.
board() {  # ID OUT [GOLD]: the board for ID's embedded row (its gold replaced)
  py "$THRESHOLDS_CSV" "$@" <<'PYTHON'
import csv, sys
table, cid, out, *gold = sys.argv[1:]
row = next(r for r in csv.DictReader(open(table)) if r["competition_id"] == cid)
g, s, b, m = (float(row[k]) for k in ("gold", "silver", "bronze", "median"))
if gold:
    g = float(gold[0])
lower = row["is_lower_better"] == "true"
worse = m + (abs(m) + 1) * (1 if lower else -1)
with open(out, "w") as f:
    f.write("teamId,teamName,score\n")
    for i, v in enumerate([g, s, s, b, m, m, worse, worse, worse, worse]):
        f.write(f"{i},team {i},{v!r}\n")
PYTHON
}
for cid in "$SPACESHIP" "$SPOOKY"; do
  board "$cid" "$T/$cid-leaderboard.csv"
  run 0 "$MLEBENCH" thresholds "$T/$cid-leaderboard.csv" -c "$cid"
  want="$(grep "^$cid," "$THRESHOLDS_CSV")"
  [ "$(cat "$T/out")" = "$want" ] || fail "thresholds printed '$(cat "$T/out")', the table has '$want'"
  expect_stderr "row for $cid is the same"
  ! grep -q "not in leaderboard order" "$T/err" || fail "a board in order was said to be out of order"
done
# A board out of order: thresholds of the rows as they come (as upstream), and a warning
# naming the first row out of place.
printf 'teamId,score\n1,0.9\n2,0.7\n3,0.8\n4,0.1\n' >"$T/unsorted.csv"
run 0 "$MLEBENCH" thresholds "$T/unsorted.csv" -c my-new-competition
expect_stderr "is not in leaderboard order: row 3's score is better than a row's above it"
grep -q "^my-new-competition,0.9,0.9,0.9," "$T/out" || fail "no row for an unsorted board"
board "$SPACESHIP" "$T/better.csv" 0.9
run 0 "$MLEBENCH" thresholds "$T/better.csv" -c "$SPACESHIP"
grep -qx "$SPACESHIP,0.9,0.81388,0.80967,0.79565,false" "$T/out" || fail "a changed gold score was not printed"
expect_stderr "differs: replace it"
run 0 "$MLEBENCH" thresholds "$T/better.csv" -c my-new-competition
grep -q "^my-new-competition,0.9," "$T/out" || fail "no row for a new id"
expect_stderr "has no row for my-new-competition yet"
# Bad input: a clear error and no row.
run 1 "$MLEBENCH" thresholds "$T/better.csv" -c "a,b"
expect_stderr "not a competition id"
printf 'teamId,points\n1,3\n' >"$T/noscore.csv"
run 1 "$MLEBENCH" thresholds "$T/noscore.csv" -c "$SPACESHIP"
expect_stderr 'leaderboard must have a `score` column'
[ ! -s "$T/out" ] || fail "a failed thresholds printed a row"
run 1 "$MLEBENCH" thresholds "$T/absent.csv" -c "$SPACESHIP"
[ ! -s "$T/out" ] || fail "a failed thresholds printed a row"
run 1 "$MLEBENCH" thresholds "$T/better.csv"
expect_stderr "thresholds takes one LEADERBOARD file and -c ID"

# ---------------------------------------------------------------- summarize
# Two seeds of bazel-testlogs as a competition test leaves them
# (test.outputs/outputs.zip holding <id>.report.json, .run_record.json and
# .agent.log), built from reports graded above.
run 0 "$MLEBENCH" grade-sample all/$SPACESHIP/prepared/public/sample_submission.csv "$SPACESHIP" --data-dir all
cp "$T/out" "$T/report-sample-spaceship.json"
run 0 "$MLEBENCH" grade-sample perfect-cactus.csv "$CACTUS" --data-dir all
cp "$T/out" "$T/report-perfect-cactus.json"
run 0 "$MLEBENCH" grade-sample all/$SPOOKY/prepared/public/sample_submission.csv "$SPOOKY" --data-dir all
cp "$T/out" "$T/report-sample-spooky.json"
py "$T" <<'EOF'
import json, os, sys, zipfile
t = sys.argv[1]
def report(name, agent, seed):
    r = json.load(open(f"{t}/report-{name}.json"))
    r.update(agent=agent, seed=seed, created_at="")
    return r
def testlogs(root, reports):
    for r in reports:
        cid = r["competition_id"]
        out = f"{root}/competitions/{cid}/{cid}/test.outputs"
        os.makedirs(out)
        with zipfile.ZipFile(f"{out}/outputs.zip", "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr(f"{cid}.agent.log", "hello\n")
            z.writestr(f"{cid}.report.json", json.dumps(r, indent=2))
            z.writestr(f"{cid}.run_record.json", "{}")
a = "//agents:a"
# seed 0: gold on spaceship and cactus; seed 1: gold on cactus only.
testlogs("seeds/0", [report("perfect-spaceship", a, 0), report("perfect-cactus", a, 0),
                     report("sample-spooky", a, 0)])
testlogs("seeds/1", [report("sample-spaceship", a, 1), report("perfect-cactus", a, 1),
                     report("sample-spooky", a, 1)])
# Another agent's report, loose.
os.makedirs("other-agent")
json.dump(report("perfect-cactus", "//agents:b", 0), open("other-agent/x.report.json", "w"))
# A conflicting copy of seed 0's spaceship report.
conflict = report("perfect-spaceship", a, 0)
conflict.update(score=0.5, gold_medal=False, any_medal=False)
os.makedirs("conflict")
json.dump(conflict, open("conflict/spaceship-titanic.report.json", "w"))
EOF

run 0 "$MLEBENCH" summarize seeds other-agent --json summary.json
cp "$T/out" "$T/summary.txt"
grep -qF "agent //agents:a on synthetic data: 2 seeds, 3 competitions" "$T/out" || fail "no agent a block"
grep -qF "any medal         50.0% +- 16.7% (mean +- standard error over 2 seeds)" "$T/out" ||
  fail "wrong headline"
grep -qF "agent //agents:b on synthetic data: 1 seed, 1 competition" "$T/out" || fail "no agent b block"
grep -qF "any medal         100.0% (1 seed: standard error n/a)" "$T/out" || fail "wrong agent b headline"
grep -qE "^  $SPACESHIP +2 +1 +0 +- +[0-9.]+ gold +[0-9.]+ below-median$" "$T/out" ||
  fail "wrong competition row"
py summary.json <<'EOF'
import json, math, sys
s = json.load(open(sys.argv[1]))
assert (s["reports"], s["duplicate_reports"]) == (7, 0), s
a, b = s["agents"]
assert (a["agent"], a["dataset"], a["num_seeds"]) == ("//agents:a", "synthetic", 2)
assert [x["seed"] for x in a["seeds"]] == [0, 1]
assert [x["any_medals"] for x in a["seeds"]] == [2, 1]
assert [x["gold_medals"] for x in a["seeds"]] == [2, 1]
assert [x["total_competitions"] for x in a["seeds"]] == [3, 3]
m = a["any_medal_percentage"]
values = [200 / 3, 100 / 3]
mean = sum(values) / 2
se = math.sqrt(sum((v - mean) ** 2 for v in values) / 1) / math.sqrt(2)
assert math.isclose(m["mean"], mean) and math.isclose(m["standard_error"], se), m
assert [c["competition_id"] for c in a["competitions"]] == [
    "aerial-cactus-identification", "spaceship-titanic", "spooky-author-identification"]
assert [o["outcome"] for o in a["competitions"][0]["outcomes"]] == ["gold", "gold"]
assert (b["agent"], b["num_seeds"]) == ("//agents:b", 1)
assert b["any_medal_percentage"] == {"mean": 100.0, "standard_error": None, "ci_lower": None,
                                     "ci_upper": None}
EOF

# Deterministic: the same inputs give the same bytes.
run 0 "$MLEBENCH" summarize seeds other-agent --json summary2.json
[ "$(grep -v '^Saved summary' "$T/summary.txt")" = "$(grep -v '^Saved summary' "$T/out")" ] ||
  fail "summarize output differs between runs"
cmp -s summary.json summary2.json || fail "summarize --json differs between runs"

# The same reports found twice count once; a conflicting one is an error.
run 0 "$MLEBENCH" summarize seeds seeds/0 "seeds/1/competitions/$CACTUS/$CACTUS/test.outputs/outputs.zip" \
  --json dup.json
py dup.json <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
assert (s["reports"], s["duplicate_reports"]) == (6, 4), s
EOF
run 1 "$MLEBENCH" summarize seeds conflict
expect_stderr "conflicting reports for $SPACESHIP (agent //agents:a, synthetic data, seed 0)"
expect_stderr "seeds/0/competitions/$SPACESHIP/$SPACESHIP/test.outputs/outputs.zip:$SPACESHIP.report.json and conflict/$SPACESHIP.report.json differ"

# ---------------------------------------------------------------- aggregate
# The same two seeds on the low split (cactus and spooky of its N_LOW): no
# complete seed, so nothing without --pad-missing.
run 1 "$MLEBENCH" aggregate seeds --output-dir agg-none --split lite
expect_stderr "no complete seed: $((N_LOW - 2)) of its $N_LOW competitions have no report in any seed"
expect_stderr "--pad-missing counts missing reports as failing"
run 0 "$MLEBENCH" aggregate seeds other-agent --output-dir agg --split lite,dev --pad-missing
grep -qF "agent //agents:a on synthetic data -> agents_a.synthetic/" "$T/out" || fail "no agent a block"
grep -qF "mean nothing about Kaggle performance" "$T/out" || fail "no synthetic wording"
low_share="$(awk -v n="$N_LOW" 'BEGIN {printf "%.2f", 100 / n}')"
grep -qF "low: any medal $low_share% +- 0.00 [$low_share, $low_share]" "$T/out" ||
  fail "wrong low headline"
py agg "$N_LOW" <<'EOF'
import json, os, sys
d = sys.argv[1]
n_low = int(sys.argv[2])
s = json.load(open(f"{d}/summary.json"))
assert s["pad_missing"] is True and s["num_seeds_requested"] == -1, s
a, b = s["agents"]
assert (a["agent"], a["directory"]) == ("//agents:a", "agents_a.synthetic"), a
low, dev = a["splits"]
assert (low["split"], low["competitions"], low["padded_reports"]) == ("low", n_low, 2 * (n_low - 2)), low
agg = low["aggregate"]
assert list(agg) == ["num_seeds_averaged", "num_competitions_per_seed", "metrics"], agg
assert (agg["num_seeds_averaged"], agg["num_competitions_per_seed"]) == (2, n_low), agg
assert list(agg["metrics"]) == [
    "total_competitions", "submission_exists_percentage", "valid_submissions_percentage",
    "above_median_percentage", "gold_medal_percentage", "silver_medal_percentage",
    "bronze_medal_percentage", "any_medal_percentage"], agg["metrics"]
any_medal = agg["metrics"]["any_medal_percentage"]
assert list(any_medal) == ["mean", "ci_lower", "ci_upper", "standard_error"], any_medal
# cactus gold in both seeds, spooky's sample submission no medal: 1 of n_low each.
assert any_medal == {"mean": 1 / n_low * 100, "ci_lower": 1 / n_low * 100,
                     "ci_upper": 1 / n_low * 100, "standard_error": 0.0}, any_medal
# dev: spaceship gold in seed 0 only, of dev's competitions.
n = dev["competitions"]
m = dev["aggregate"]["metrics"]["any_medal_percentage"]
assert m["mean"] == (1 / n * 100 + 0 / n * 100) / 2, m
assert (b["agent"], len(b["splits"]), b["skipped_splits"][0]["split"]) == ("//agents:b", 1, "dev"), b
# One upstream-style grading report per seed, in run-group folders.
for seed in low["seeds"]:
    r = json.load(open(os.path.join(d, seed["grading_report"])))
    assert len(r["competition_reports"]) == n_low and r["total_runs"] == n_low, r
    ids = [c["competition_id"] for c in r["competition_reports"]]
    assert ids == sorted(ids), ids
    for c in r["competition_reports"]:
        assert all(k in c for k in ["gold_medal", "silver_medal", "bronze_medal", "above_median",
                                    "submission_exists", "valid_submission"]), c
lines = open(f"{d}/run_group_experiments.csv").read().splitlines()
assert lines[0] == "experiment_id,run_group", lines
assert "agents_a.synthetic.low,agents_a.synthetic/low/seed-0" in lines, lines
EOF
# The reports for people: Markdown, and self-contained HTML with its plots.
grep -qF "| Low (%) | Medium (%) | High (%) | All (%) | Seeds |" agg/report.md || fail "no report.md table"
grep -qF "<th>Low (%)</th>" agg/report.html || fail "no report.html table"
grep -qF '<svg class="thresholds"' agg/report.html || fail "no report.html threshold plot"
grep -qF '<svg class="medal-counts"' agg/report.html || fail "no report.html medal plot"
# Its grading reports read back give the same figures.
run 0 "$MLEBENCH" aggregate agg/agents_a.synthetic/low --output-dir agg2 --split low
py agg agg2 <<'EOF'
import json, sys
first = json.load(open(f"{sys.argv[1]}/summary.json"))["agents"][0]["splits"][0]["aggregate"]
again = json.load(open(f"{sys.argv[2]}/summary.json"))["agents"][0]["splits"][0]["aggregate"]
assert first == again, (first, again)
EOF
run 1 "$MLEBENCH" aggregate seeds --output-dir agg --pad-missing
expect_stderr "the output directory must be new or empty"
run 1 "$MLEBENCH" aggregate seeds --output-dir agg3 --split huge
expect_stderr "unknown split 'huge'"
run 1 "$MLEBENCH" aggregate seeds --output-dir agg3 --num-seeds 0
expect_stderr "--num-seeds must be a positive integer"

# `mlebench grade`'s aggregated reports, as a directory or a file.
run 0 "$MLEBENCH" summarize reports
grep -qF "agent //agents:x on synthetic data: 1 seed, 3 competitions" "$T/out" || fail "grade report"
run 0 "$MLEBENCH" summarize reports/*_grading_report.json
grep -qF "3 reports, 1 agent" "$T/out" || fail "grade report file"

# Errors.
run 1 "$MLEBENCH" summarize
expect_stderr "summarize takes one or more PATHs"
run 1 "$MLEBENCH" summarize no-such-dir
expect_stderr "no-such-dir: no such file or directory"
mkdir -p empty-dir
run 1 "$MLEBENCH" summarize empty-dir
expect_stderr "empty-dir: no reports found"
mkdir -p broken-report
echo '{"competition_id": "x", "gold_medal": true}' > broken-report/x.report.json
run 1 "$MLEBENCH" summarize broken-report
expect_stderr "broken-report/x.report.json: missing field \`silver_medal\`"

echo "PASS"
