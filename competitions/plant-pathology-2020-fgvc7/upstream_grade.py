"""Upstream's grade() for plant-pathology-2020-fgvc7 (exact column sets, row
count, both tables sorted by image_id with the ids equal row by row, then
roc_auc_score per class column and np.mean of the four), restated, on the
reference environment's pandas 2.2.2, numpy 1.26.4 and scikit-learn 1.5.1.
Answers as upstream's test.csv (Test_<n> ids, one-hot labels, few
multiple_diseases). Cases: tied, constant, boolean and rounded scores, scores
outside [0, 1] (not checked); missing, infinite and text cells and
Python-only float spellings ("1_0" in a text column); dropped, duplicated,
blank and foreign ids; missing, reordered and extra columns; header-only
submissions; a class with one label only. Same score bit for bit, or invalid
where upstream raises.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import roc_auc_score

COLUMNS = ["image_id", "healthy", "multiple_diseases", "rust", "scab"]
MIN_SCORED = 105
MIN_RAISED = 84


def grade(submission, answers):
    assert set(answers.columns) == set(COLUMNS)
    if len(submission) != len(answers):
        raise ValueError("row count")
    if set(submission.columns) != set(COLUMNS):
        raise ValueError("columns")
    submission = submission.sort_values(by="image_id").reset_index(drop=True)
    answers = answers.sort_values(by="image_id").reset_index(drop=True)
    if not all(submission["image_id"] == answers["image_id"]):
        raise ValueError("ids differ")
    aucs = [roc_auc_score(y_true=answers[c], y_score=submission[c]) for c in COLUMNS[1:]]
    return np.mean(aucs)


# Cell spellings a submission's scores may take, besides plain probabilities.
ODD = ["abc", "", "nan", "inf", "-inf", "1.5", "-0.1", "1e-3", "1E-300", "0.0", "1.0", " 0.5",
       "-0", "+0.5", "1_0", ".5", "5.", "1e400", "-1e-400", "True", "0x1", "2", "-7", "Infinity"]


def score_column(n, faults):
    style = rng.random()
    if style < 0.03:
        return [rng.choice(["True", "False"]) for _ in range(n)]
    if style < 0.06:
        return ["0.25"] * n
    ties = rng.random() < 0.3
    cells = []
    for _ in range(n):
        if rng.random() < faults:
            cells.append(rng.choice(ODD))
        elif ties:
            cells.append(rng.choice(["0", "1", "0.25", "0.5", "0.75"]))
        else:
            cells.append(repr(round(rng.random(), rng.choice([1, 3, 17]))))
    return cells


def make_case(k):
    n = rng.choice([4, 5, 10, 10, 50, 50, 400]) if k else 2000
    ids = [f"Test_{i}" for i in rng.sample(range(0, 2000), n)]
    # One class a row, every class in some row (so every column has both labels).
    classes = list(range(4)) + [rng.choice([0, 0, 1, 2, 2, 3, 3]) for _ in ids[4:]]
    rng.shuffle(classes)
    if k % 19 == 4:
        classes = [c if c != 1 else 0 for c in classes]  # no multiple_diseases: raises
    faults = rng.choice([0, 0, 0, 0, 0, 0.005, 0.02])
    scores = [score_column(n, faults) for _ in range(4)]
    rows = [[i] + [s[r] for s in scores] for r, i in enumerate(ids)]
    if k % 13 == 6:
        rows[1] = [rows[0][0]] + rows[1][1:]  # an id twice, one missing: same length
    if k % 31 == 10:
        rows[0] = [""] + rows[0][1:]  # a blank id: NaN never equals
    rows = spoil(rows, lambda: f"Train_{rng.randrange(2000)}")
    header = list(COLUMNS)
    shape = k % 23
    if shape == 3:
        drop = rng.randrange(5)  # a column missing
        header, rows = header[:drop] + header[drop + 1:], [r[:drop] + r[drop + 1:] for r in rows]
    elif shape == 8:
        header, rows = header + ["extra"], [r + ["0.5"] for r in rows]  # rejected
    elif shape == 12:
        rows = []  # a header alone
    elif shape in (15, 17):
        order = rng.sample(range(5), 5)  # columns reordered: read by name
        header, rows = [header[j] for j in order], [[r[j] for j in order] for r in rows]
    answers = [[i] + [str(int(c == j)) for j in range(4)] for i, c in zip(ids, classes)]
    return csv_text(",".join(COLUMNS), answers), csv_text(",".join(header), rows)
