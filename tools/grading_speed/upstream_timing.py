"""Times upstream's own grade code on files made by make_data.py, as its
grade_csv runs it: read_csv of the submission (round_trip floats), its
load_answers of the answers, then the competition's Grader (grade() and the
rounding to 5 places).

    upstream_timing.py DATA_DIR SUBMISSION_DIR REPEATS ID...

Run with upstream's source on PYTHONPATH (a local copy, never committed to
this repository). Prints one line per competition: the id, the best of
REPEATS wall-clock times of that whole job in this process (imports made
before the first run are not counted; lazy imports inside the first run are,
and the best-of takes the later runs), and the score. With REPEATS 1 and one
id, an outside timer of the whole process counts interpreter start, imports
and exit as well.
"""
import csv
import os
import sys
import time
from pathlib import Path

from mlebench.grade_helpers import Grader
from mlebench.utils import load_answers, read_csv

data_dir, sub_dir, repeats, ids = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
answers_paths = {}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "competitions",
                       "competitions.tsv")) as f:
    for row in csv.DictReader(f, delimiter="\t"):
        answers_paths[row["competition_id"]] = row["answers_path"]

for cid in ids:
    grader = Grader(name=cid, grade_fn=f"mlebench.competitions.{cid}.grade:grade")
    submission = os.path.join(sub_dir, cid + ".csv")
    answers = os.path.join(data_dir, answers_paths[cid])
    best, score = None, None
    for _ in range(repeats):
        start = time.perf_counter()
        score = grader(read_csv(submission), load_answers(Path(answers)))
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    print(cid, f"{best:.4f}", score, flush=True)
