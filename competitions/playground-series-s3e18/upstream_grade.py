"""Upstream's grade() for playground-series-s3e18 (its prepare_for_metric: id,
EC1 and EC2 columns, row count, both tables sorted by id with the ids equal
row by row; then roc_auc_score(average="macro") of the EC1 and EC2 columns),
restated, on the reference environment's pandas 2.2.2, numpy 1.26.4 and
scikit-learn 1.5.1. Answers as upstream's test.csv (integer ids, feature
columns, EC1..EC6). Cases: tied, constant, boolean and rounded scores, scores
outside [0, 1] (not checked); missing, infinite and text cells and
Python-only float spellings ("1_0" in a text column); dropped, duplicated and
foreign ids, ids spelled 12.0; missing, reordered and extra columns;
header-only submissions; a class with one label only. Same score bit for bit,
or invalid where upstream raises.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import roc_auc_score

MIN_SCORED = 114
MIN_RAISED = 76


def grade(submission, answers):
    if "id" not in submission.columns or "id" not in answers.columns:
        raise ValueError("no id column")
    if "EC1" not in submission.columns or "EC2" not in submission.columns:
        raise ValueError("no EC1 or EC2 column")
    assert "EC1" in answers.columns and "EC2" in answers.columns
    if len(submission) != len(answers):
        raise ValueError("row count")
    answers = answers.sort_values("id")
    submission = submission.sort_values("id")
    if (submission["id"].values != answers["id"].values).any():
        raise ValueError("ids differ")
    return roc_auc_score(y_true=answers[["EC1", "EC2"]].to_numpy(),
                         y_score=submission[["EC1", "EC2"]].to_numpy(), average="macro")


# Cell spellings a submission's scores may take, besides plain probabilities.
ODD = ["abc", "", "nan", "inf", "-inf", "1.5", "-0.1", "1e-3", "1E-300", "0.0", "1.0", " 0.5",
       "-0", "+0.5", "1_0", ".5", "5.", "1e400", "-1e-400", "True", "0x1", "2", "-7", "Infinity"]


def score_column(n, faults):
    style = rng.random()
    if style < 0.04:
        return [rng.choice(["True", "False"]) for _ in range(n)]
    if style < 0.08:
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


def make_case(k):
    n = rng.choice([2, 3, 3, 10, 10, 50, 50, 400]) if k else 4000
    ids = [str(i) for i in rng.sample(range(0, 15000), n)]
    labels = []
    for _ in range(6):
        rate = rng.choice([0.1, 0.5, 0.8])
        column = [int(rng.random() < rate) for _ in ids]
        column[:2] = rng.sample([0, 1], 2)  # both labels
        labels.append(column)
    if k % 19 == 4:
        labels[rng.randrange(2)] = [1] * n  # one label only: roc_auc_score raises
    faults = rng.choice([0, 0, 0, 0, 0.005, 0.02])
    scores = [score_column(n, faults) for _ in range(2)]
    respell = rng.random() < 0.05  # ids written as floats: equal to the integers
    rows = [[i + ".0" if respell else i, a, b] for i, a, b in zip(ids, *scores)]
    if k % 13 == 6:
        rows[1] = [rows[0][0]] + rows[1][1:]  # an id twice, one missing: same length
    rows = spoil(rows, lambda: str(rng.randrange(15000, 16000)))
    header = ["id", "EC1", "EC2"]
    shape = k % 23
    if shape == 3:
        drop = rng.randrange(3)  # the id, EC1 or EC2 missing
        header, rows = header[:drop] + header[drop + 1:], [r[:drop] + r[drop + 1:] for r in rows]
    elif shape == 8:
        header, rows = header + ["EC3"], [r + [rng.choice(["0.5", "x"])] for r in rows]
    elif shape == 12:
        rows = []  # a header alone
    elif shape == 17:
        header, rows = header[::-1], [r[::-1] for r in rows]  # reordered: read by name
    features = ["BertzCT", "Chi1", "fr_COO"]
    answers = [[i, repr(round(rng.uniform(0, 900), 6)), repr(rng.random()), str(rng.randint(0, 8))]
               + [str(c[r]) for c in labels] for r, i in enumerate(ids)]
    ec = [f"EC{j}" for j in range(1, 7)]
    return csv_text(",".join(["id"] + features + ec), answers), csv_text(",".join(header), rows)
