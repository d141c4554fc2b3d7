#!/bin/bash
# Integration test of `mlebench audit`: the real binary, run the way a user
# runs bazel-bin/tools/mlebench (a copy beside a `mlebench.runfiles` tree, as
# in mlebench_cli_test.sh), on agent runs laid out as bazel-bin's
# (competitions/rules.bzl) with the corpus of tools/testdata/audit/ as their
# code and references, and hostile files beside it. The outputs are checked
# with Debian's /usr/bin/python3, the rule-violation input the way upstream's
# detector reads it: json.loads of every line, its four keys, and every
# .log/.py file under its paths read as UTF-8.
set -euo pipefail

readonly T="$TEST_TMPDIR"
readonly CORPUS="$PWD/tools/testdata/audit"
source tools/testing/mlebench_cli.sh

# make_run DIR COMPETITION SEED: a run directory as the agent action leaves it.
make_run() {
  mkdir -p "$1/submission" "$1/artifacts/code" "$1/artifacts/logs"
  printf '{"competition_id": "%s", "agent": "agent", "seed": %s, "exit_code": 0, "agent_label": "//agents:mine", "agent_digest": "895875400f4e0123", "kept_files": 3}\n' \
    "$2" "$3" >"$1/run_record.json"
  printf 'loading data\nvalidation accuracy 0.79\n' >"$1/agent.log"
  printf 'PassengerId,Transported\n0013_01,False\n' >"$1/submission/submission.csv"
  printf 'kept 3 file(s), 6000 bytes; left out 0\n' >"$1/artifacts/KEPT.txt"
}

readonly COMPETITIONS="bazel-bin/competitions"
readonly RUNS="$COMPETITIONS/spaceship-titanic/spaceship-titanic_run"
make_run "$RUNS/run-0" spaceship-titanic 0
make_run "$RUNS/run-1" spaceship-titanic 1
make_run "$COMPETITIONS/spaceship-titanic/spaceship-titanic_sample_run/run-0" spaceship-titanic 0
CODE="$RUNS/run-0/artifacts/code"
mkdir -p "$CODE/solution"
cp "$CORPUS/run_code/solution.py" "$CORPUS/run_code/features.py" "$CODE/solution/"
cp "$CORPUS/run_code/plot_history.py" "$CODE/"
# Hostile neighbours: binary, not UTF-8, too big, a symlink out of the tree,
# a FIFO, an odd name, a directory named like a Python file, many files.
printf 'import os\n\0\0\0' >"$CODE/packed.py"
printf "s = 'caf\xe9'\n" >"$CODE/latin1.py"
head -c 300000 /dev/zero | tr '\0' '#' >"$CODE/huge.py"
ln -s /etc/passwd "$CODE/leak.py"
mkfifo "$CODE/pipe.py"
printf 'x = 1\n' >"$CODE/$(printf 'odd\nname.py')"
mkdir -p "$CODE/dir.py" "$CODE/zz_many"
for i in $(seq 1 1005); do printf 'v%d = %d\n' "$i" "$i" >"$CODE/zz_many/m$i.py"; done
printf 'step 1\n\xff\xfe bad bytes\n' >"$RUNS/run-0/artifacts/logs/train.log"
mkdir -p "$RUNS/run-0/artifacts/logs/trap.log"
printf '\0\1\2\3' >"$RUNS/run-0/artifacts/logs/weights.bin"
mkdir -p refs
cp "$CORPUS"/references/*.py refs/

# --- the audit, with references ---
run 0 "$MLEBENCH" audit "$COMPETITIONS" --references refs --output-dir audit
expect_stderr "left out 1 run(s) of the sample submission"
expect_stderr "audit: spaceship-titanic.seed-0.895875400f4e: 1000 Python file(s)"
expect_stderr "highest similarity 1.0 (solution.py ~ tfidf_logreg.py)"
expect_stderr "audit: spaceship-titanic.seed-1.895875400f4e: 0 Python file(s); no code shared with 3 reference file(s)"
expect_stderr "audit: 2 run(s); wrote $T/work/audit/rule_violation_input.jsonl"

py "$T/work/audit" "$(cd "$RUNS" && pwd -P)" <<'EOF'
import json, sys
from pathlib import Path
out, runs = Path(sys.argv[1]), Path(sys.argv[2])

# Upstream's detector: read_jsonl (json.loads of every line), then per line
# competition_id (a str), submission_path (indexed), and logs_path /
# code_path, each a file read whole or a directory whose **/*.log and
# **/*.py files are read, as text.
with open(out / "rule_violation_input.jsonl") as f:
    lines = [json.loads(line) for line in f]
assert len(lines) == 2, lines
for line in lines:
    assert isinstance(line["competition_id"], str)
    line["submission_path"]
    for key in ("logs_path", "code_path"):
        if not line.get(key):
            continue
        path = Path(line[key])
        assert path.is_absolute() and path.exists(), path
        files = [path] if path.is_file() else [p for p in path.glob("**/*") if p.suffix in (".log", ".py")]
        for p in files:
            assert p.is_file(), f"{p} would be opened as a file"
            p.read_text(encoding="utf-8")
first, second = lines
assert first["competition_id"] == "spaceship-titanic" and first["seed"] == 0
assert first["submission_path"] == str(runs / "run-0" / "submission" / "submission.csv")
assert first["run"] == "spaceship-titanic.seed-0.895875400f4e"
assert first["agent_label"] == "//agents:mine"
assert first["run_dir"] == str(runs / "run-0")
assert first["logs_path"] == str(out / "runs" / first["run"] / "log.txt")
assert first["code_path"] == str(out / "runs" / first["run"] / "code")
bundle = Path(first["logs_path"]).read_text(encoding="utf-8")
assert bundle.startswith("===== agent.log (what the agent printed) =====\nloading data\n"), bundle
assert "===== logs/train.log =====\nstep 1\n\ufffd\ufffd bad bytes\n" in bundle, bundle
assert "===== logs/weights.bin =====\n(left out: binary, 4 bytes)\n" in bundle, bundle
code = Path(first["code_path"])
copied = sorted(str(p.relative_to(code)) for p in code.rglob("*.py"))
assert "solution/solution.py" in copied and "plot_history.py" in copied and len(copied) == 1000, len(copied)
assert second["seed"] == 1 and second["code_path"] is None

# Similarity: one JSONL per run, sorted by similarity.
sim = out / "similarity"
assert sorted(p.name for p in sim.iterdir()) == [
    "spaceship-titanic.seed-0.895875400f4e.jsonl", "spaceship-titanic.seed-1.895875400f4e.jsonl"]
assert (sim / "spaceship-titanic.seed-1.895875400f4e.jsonl").read_text() == ""
pairs = [json.loads(l) for l in (sim / "spaceship-titanic.seed-0.895875400f4e.jsonl").open()]
fields = ["run", "competition_id", "seed", "agent_label", "submitted_file", "reference_file",
          "similarity", "longest_fragment", "overlap", "submitted_covered", "reference_covered",
          "submitted_kgrams", "reference_kgrams"]
for p in pairs:
    assert list(p) == fields, list(p)
keys = [(-p["similarity"], p["submitted_file"], p["reference_file"]) for p in pairs]
assert keys == sorted(keys), "not sorted"
refs = Path("refs").resolve()
top, renamed = pairs[0], pairs[1]
assert top["submitted_file"] == str(code / "solution" / "solution.py"), top
assert top["reference_file"] == str(refs / "tfidf_logreg.py"), top
assert top["similarity"] == 1.0, top
assert renamed["submitted_file"] == str(code / "solution" / "features.py"), renamed
assert renamed["reference_file"] == str(refs / "lgbm_tabular.py"), renamed
assert 0.8 < renamed["similarity"] < 1.0, renamed
unrelated = [p["similarity"] for p in pairs if p["submitted_file"].endswith("/plot_history.py")]
assert max(unrelated, default=0) < 0.05, unrelated
assert all(p["similarity"] < 0.2 for p in pairs[2:]), pairs[2:5]
print("top pairs:", [(Path(p["submitted_file"]).name, Path(p["reference_file"]).name, round(p["similarity"], 4)) for p in pairs[:3]])

summary = json.loads((out / "audit_summary.json").read_text())
assert summary["dolos_lib"] == "3.5.1"
assert summary["sample_runs_left_out"] == 1
assert summary["references"][0]["files"] == 3
run = summary["runs"][0]
skipped = {s["file"]: s["reason"] for s in run["skipped"]}
for name, reason in [("packed.py", "binary"), ("latin1.py", "not UTF-8"),
                     ("huge.py", "over the limit of 256 KiB"), ("leak.py", "symbolic link"),
                     ("pipe.py", "not a regular file"), ("odd\\nname.py", "not printable UTF-8")]:
    assert reason in skipped.get(name, ""), (name, skipped.get(name))
assert sum("past the limit of 1000 Python files" in r for r in skipped.values()) == 8, len(skipped)
assert run["python_files"] == 1000 and run["pairs"] >= 3 and run["error"] is None
assert run["best"]["similarity"] == 1.0
EOF

# The same inputs give the same bytes (but for where they are written).
run 0 "$MLEBENCH" audit "$COMPETITIONS" --references refs --output-dir audit2
py "$T/work/audit" "$T/work/audit2" <<'EOF'
import sys
from pathlib import Path
a, b = Path(sys.argv[1]), Path(sys.argv[2])
def tree(root):
    return {str(p.relative_to(root)): p.read_bytes().replace(str(root).encode(), b"OUT")
            for p in sorted(root.rglob("*")) if p.is_file()}
ta, tb = tree(a), tree(b)
assert ta.keys() == tb.keys()
for k in ta:
    assert ta[k] == tb[k], k
EOF

# Without references: only the rule-violation input.
run 0 "$MLEBENCH" audit "$RUNS/run-0" --output-dir no_refs
[ -f no_refs/rule_violation_input.jsonl ] || fail "no rule_violation_input.jsonl"
[ ! -e no_refs/similarity ] || fail "similarity/ without references"
[ "$(wc -l <no_refs/rule_violation_input.jsonl)" = 1 ] || fail "one run expected"

# Per-competition references: refs_by/<competition id>/.
mkdir -p refs_by/spaceship-titanic
cp refs/lgbm_tabular.py refs_by/spaceship-titanic/
run 0 "$MLEBENCH" audit "$RUNS" --references-by-competition refs_by --output-dir by_competition
py by_competition <<'EOF'
import json, sys
from pathlib import Path
pairs = [json.loads(l) for l in (Path(sys.argv[1]) / "similarity" / "spaceship-titanic.seed-0.895875400f4e.jsonl").open()]
assert Path(pairs[0]["reference_file"]).name == "lgbm_tabular.py", pairs[0]
assert Path(pairs[0]["submitted_file"]).name == "features.py", pairs[0]
EOF

# Errors: a used output directory, no runs, bad references, both kinds.
run 1 "$MLEBENCH" audit "$COMPETITIONS" --output-dir audit
expect_stderr "is not empty: give a new --output-dir"
run 1 "$MLEBENCH" audit "$RUNS/run-0/artifacts" --output-dir none
expect_stderr "no agent runs (directories holding run_record.json) under"
run 1 "$MLEBENCH" audit "$COMPETITIONS" --agent //agents:other --output-dir none
expect_stderr "of agent //agents:other"
run 1 "$MLEBENCH" audit "$COMPETITIONS" --references missing --output-dir none
expect_stderr "--references missing is not a directory"
run 1 "$MLEBENCH" audit "$COMPETITIONS" --references refs --references-by-competition refs_by \
  --output-dir none
expect_stderr "exclude each other"
run 1 "$MLEBENCH" audit --output-dir none
expect_stderr "audit takes one or more RUNS"
run 1 "$MLEBENCH" audit nowhere --output-dir none
expect_stderr "no such run or directory: nowhere"
[ ! -e none ] || fail "a failed audit left its output directory"

echo "PASS"
