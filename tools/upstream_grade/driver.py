"""Runs upstream-grade restatements and records what they decide.

    driver.py OUT_DIR competitions/<id>/upstream_grade.py ...

Each script restates one competition's upstream grade() (mlebench/competitions/
<id>/grade.py) in our own words, on the reference environment's pinned
libraries, and generates random cases for it. It defines

    grade(submission, answers)   upstream's grade(), on two DataFrames;
    make_case(k)                 (answers text, submission text) of case k;

and may set CASES (default 200), RELATIVE_TOLERANCE (default 0: bit for bit),
MIN_SCORED and MIN_RAISED (defaults: a quarter and a twentieth of the cases)
and read_answers(path) (default read_csv, for answers that are not CSV). The
test runs this with numpy's baseline kernels (base/testing/numpy_kernels.h), so
log, sin, ... give libm's bits on every CPU and a tolerance is rarely needed.
Both texts a case returns must be CSV that pandas reads: upstream's grade_csv
does not catch a read_csv error, so no outcome can be compared for it.

The script runs in a fresh namespace that already holds what shared.py defines
(restatements and case generators several competitions share), and

    rng                   random.Random(20261202), the script's own;
    np, pd                numpy and pandas;
    read_csv(path)        upstream's mlebench.utils.read_csv (round_trip floats);
    csv_text(header, rows)  CSV text: a header line, then rows of strings;
    spoil(rows, make_id)  upstream's usual submission faults, now and then: a
                          row dropped or duplicated, an id replaced by make_id();
                          the rows shuffled.

For each script this writes OUT_DIR/<id>/: <k>.ans.csv and <k>.sub.csv for
k < CASES, outcomes.txt (one line per case: "ok <float.hex() of the score>",
or "raise <exception class>", since upstream's grade_csv treats any exception
as an invalid submission) and meta.txt (the script's settings); or error.txt
with the traceback when the script itself fails, so that one broken script
fails only its own competition's test.
"""
import os
import random
import sys
import traceback

import numpy as np
import pandas as pd


def read_csv(path):
    try:
        return pd.read_csv(path, float_precision="round_trip")
    except pd.errors.EmptyDataError:
        return pd.DataFrame()


def csv_text(header, rows):
    return header + "\n" + "".join(",".join(r) + "\n" for r in rows)


def make_spoil(rng):
    def spoil(rows, make_id):
        rows = list(rows)
        rng.shuffle(rows)
        r = rng.random()
        if r < 0.05 and len(rows) > 1:
            rows.pop()
        elif r < 0.1 and rows:
            rows.append(rows[0])
        elif r < 0.15 and rows:
            rows[0] = [make_id()] + list(rows[0][1:])
        return rows

    return spoil


SHARED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shared.py")


def run_script(script, out):
    rng = random.Random(20261202)
    namespace = {
        "__name__": "upstream_grade",
        "__file__": script,
        "rng": rng,
        "np": np,
        "pd": pd,
        "read_csv": read_csv,
        "csv_text": csv_text,
        "spoil": make_spoil(rng),
    }
    for path in (SHARED, script):
        with open(path) as f:
            exec(compile(f.read(), path, "exec"), namespace)
    cases = int(namespace.get("CASES", 200))
    grade = namespace["grade"]
    make_case = namespace["make_case"]
    read_answers = namespace.get("read_answers", read_csv)
    outcomes = []
    for k in range(cases):
        answers_text, submission_text = make_case(k)
        answers_path = os.path.join(out, f"{k}.ans.csv")
        submission_path = os.path.join(out, f"{k}.sub.csv")
        for path, text in ((answers_path, answers_text), (submission_path, submission_text)):
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(text)
        try:
            score = grade(read_csv(submission_path), read_answers(answers_path))
            outcomes.append(f"ok {float(score).hex()}")
        except Exception as e:  # upstream's grade_csv: an invalid submission
            outcomes.append(f"raise {type(e).__name__}")
    with open(os.path.join(out, "outcomes.txt"), "w") as f:
        f.write("".join(line + "\n" for line in outcomes))
    settings = {
        "cases": cases,
        "relative_tolerance": float(namespace.get("RELATIVE_TOLERANCE", 0.0)),
        "min_scored": int(namespace.get("MIN_SCORED", cases // 4)),
        "min_raised": int(namespace.get("MIN_RAISED", cases // 20)),
    }
    with open(os.path.join(out, "meta.txt"), "w") as f:
        f.write("".join(f"{key} {value!r}\n" for key, value in settings.items()))


def main(out_dir, scripts):
    for script in scripts:
        competition = os.path.basename(os.path.dirname(script))
        out = os.path.join(out_dir, competition)
        os.makedirs(out, exist_ok=True)
        try:
            run_script(script, out)
        except Exception:
            with open(os.path.join(out, "error.txt"), "w") as f:
                f.write(traceback.format_exc())


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
