"""Upstream's grade() for jigsaw-toxic-comment-classification-challenge (its
prepare_for_metric: column checks, row count, both tables indexed by id and
sorted, the answers' rows of -1 labels masked out of both, then
roc_auc_score(average="macro") of every remaining column, by position),
restated, on the reference environment's pandas 2.2.2, numpy 1.26.4 and
scikit-learn 1.5.1. Answers as Kaggle's test_labels.csv (hex ids; most rows all
-1). Cases: tied, constant, boolean and rounded scores, scores outside [0, 1]
(not checked); missing, infinite and text cells and Python-only float spellings
("1_0", "nan"), also on masked rows; dropped, duplicated and foreign ids;
missing, reordered (scored by position) and extra columns; header-only
submissions; a class with one label only. Same score bit for bit, or invalid
where upstream raises.
See //tools/upstream_grade:driver.py for the names this script is given."""
import warnings

from sklearn.metrics import roc_auc_score

CLASSES = ["toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate"]
MIN_SCORED = 122
MIN_RAISED = 68


def grade(submission, answers):
    if "id" not in submission.columns:
        raise ValueError("no id column")
    if not set(CLASSES).issubset(submission.columns):
        raise ValueError("missing classes")
    assert "id" in answers.columns and set(CLASSES).issubset(answers.columns)
    assert len(submission) == len(answers)  # an AssertionError: invalid too
    submission = submission.set_index("id").sort_index()
    answers = answers.set_index("id").sort_index()
    # Kaggle did not score rows labelled -1 (all six labels at once).
    keep = answers[CLASSES].sum(axis=1) >= 0
    answers = answers[keep]
    with warnings.catch_warnings():  # pandas warns that it aligns the mask on the index
        warnings.simplefilter("ignore", UserWarning)
        submission = submission[keep]  # foreign ids raise
    return roc_auc_score(y_true=answers.to_numpy(), y_score=submission.to_numpy(),
                         average="macro")


# Cell spellings a submission's scores may take, besides plain probabilities.
ODD = ["abc", "", "nan", "inf", "-inf", "1.5", "-0.1", "1e-3", "1E-300", "0.0", "1.0", " 0.5",
       "-0", "+0.5", "1_0", ".5", "5.", "1e400", "-1e-400", "True", "0x1", "2", "-7", "Infinity"]


def score_column(n, faults):
    style = rng.random()
    if style < 0.03:
        return [rng.choice(["True", "False"]) for _ in range(n)]
    if style < 0.06:
        return ["0.5"] * n
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


def new_id():
    return f"{rng.getrandbits(64):016x}"


def make_case(k):
    n = rng.choice([2, 3, 3, 10, 10, 50, 50, 400]) if k else 4000
    ids = [new_id() for _ in range(n)]
    masked = [rng.random() < rng.choice([0, 0.3, 0.6]) for _ in ids]
    masked[:2] = [False, False]
    labels = []
    for _ in CLASSES:
        rate = rng.choice([0.05, 0.3, 0.5])
        column = [int(rng.random() < rate) for _ in ids]
        column[:2] = rng.sample([0, 1], 2)  # both labels among the scored rows
        labels.append(column)
    if k % 19 == 4:
        labels[rng.randrange(len(CLASSES))] = [0] * n  # one label only: roc_auc_score raises
    faults = rng.choice([0, 0, 0, 0, 0, 0.003, 0.01])
    scores = [score_column(n, faults) for _ in CLASSES]
    rows = [[i] + [s[r] for s in scores] for r, i in enumerate(ids)]
    if k % 13 == 6:
        rows[1] = [rows[0][0]] + rows[1][1:]  # an id twice, one missing: same length
    rows = spoil(rows, new_id)
    header = ["id"] + CLASSES
    shape = k % 23
    if shape == 3:
        drop = rng.randrange(len(header))  # the id or a class missing
        header, rows = header[:drop] + header[drop + 1:], [r[:drop] + r[drop + 1:] for r in rows]
    elif shape == 8:
        header, rows = header + ["note"], [r + [rng.choice(["0.5", "x"])] for r in rows]
    elif shape == 12:
        rows = []  # a header alone
    elif shape in (15, 17):
        order = [0] + rng.sample(range(1, 7), 6)  # classes reordered: scored by position
        header, rows = [header[j] for j in order], [[r[j] for j in order] for r in rows]
    elif shape == 20:
        header, rows = header[::-1], [r[::-1] for r in rows]  # the id last
    answers = [[i] + (["-1"] * 6 if m else [str(c[r]) for c in labels])
               for r, (i, m) in enumerate(zip(ids, masked))]
    return csv_text(",".join(["id"] + CLASSES), answers), csv_text(",".join(header), rows)
