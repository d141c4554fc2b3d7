"""Upstream's grade() for ranzcr-clip-catheter-line-classification, restated:
its class checks and row count, then per class of its nine CLASSES
prepare_for_auroc_metric (id_col='StudyInstanceUID') and roc_auc_score, and
np.average of the nine AUCs; on the reference environment's pandas 2.2.2,
numpy 1.26.4 and scikit-learn 1.5.1. Answers as upstream's test.csv (the
eleven label columns and PatientID), ids as DICOM UIDs. Cases: tied, constant,
boolean and rounded scores; out-of-range, missing, infinite and text cells and
odd float spellings in any class; dropped, duplicated and foreign ids; missing,
reordered and extra columns (the two unscored classes left out); header-only
submissions; a class with one label only. Same score bit for bit, or invalid
where upstream raises.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import roc_auc_score

ID = "StudyInstanceUID"
CLASSES = ["ETT - Abnormal", "ETT - Borderline", "ETT - Normal", "NGT - Abnormal",
           "NGT - Borderline", "NGT - Incompletely Imaged", "NGT - Normal", "CVC - Abnormal",
           "CVC - Borderline"]
LABELS = CLASSES + ["CVC - Normal", "Swan Ganz Catheter Present"]
CASES = 120  # each case runs prepare_for_auroc_metric nine times
MIN_SCORED = 75
MIN_RAISED = 38


def auroc_inputs(submission, answers, target):
    """prepare_for_auroc_metric, its checks in upstream's order."""
    assert ID in answers.columns and target in answers.columns
    if ID not in submission.columns:
        raise ValueError("no id column")
    if target not in submission.columns:
        raise ValueError("no target column")
    if len(submission) != len(answers):
        raise ValueError("row count")
    pd.to_numeric(submission[target])  # text raises ValueError
    if submission[target].min() < 0 or submission[target].max() > 1:
        raise ValueError("not a probability")
    submission = submission.sort_values(ID)
    answers = answers.sort_values(ID)
    if (submission[ID].values != answers[ID].values).any():
        raise ValueError("ids differ")
    return answers[target].to_numpy(), submission[target].to_numpy()


def grade(submission, answers):
    for target in CLASSES:
        assert target in answers.columns
        if target not in submission.columns:
            raise ValueError("missing class")
    assert len(submission) == len(answers)  # an AssertionError: invalid too
    aucs = []
    for target in CLASSES:
        y_true, y_score = auroc_inputs(submission, answers, target)
        aucs.append(roc_auc_score(y_true, y_score))
    return np.average(aucs)


# Cell spellings a submission's scores may take, besides plain probabilities.
ODD = ["abc", "", "nan", "inf", "-inf", "1.5", "-0.1", "1e-3", "1E-300", "0.0", "1.0", " 0.5",
       "-0", "+0.5", "1_0", ".5", "5.", "1e400", "-1e-400", "True", "0x1", "2", "-1"]


def score_column(n, faults):
    style = rng.random()
    if style < 0.02:
        return [rng.choice(["True", "False"]) for _ in range(n)]
    if style < 0.04:
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
    return "1.2.826.0.1.3680043.8.498." + str(rng.getrandbits(128))


def make_case(k):
    n = rng.choice([2, 3, 3, 10, 10, 50, 50, 400]) if k else 3000
    ids = [new_id() for _ in range(n)]
    labels = []
    for target in LABELS:
        rate = rng.choice([0.05, 0.3, 0.5])
        column = [int(rng.random() < rate) for _ in ids]
        column[:2] = rng.sample([0, 1], 2)  # both labels
        labels.append(column)
    if k % 19 == 4:
        labels[rng.randrange(len(CLASSES))] = [0] * n  # one label only: roc_auc_score raises
    # Faults are rarer per cell than in one-column cases: nine columns are scored.
    faults = rng.choice([0, 0, 0, 0, 0, 0.002, 0.01])
    scores = [score_column(n, faults) for _ in CLASSES]
    rows = [[i] + [s[r] for s in scores] for r, i in enumerate(ids)]
    if k % 13 == 6:
        rows[1] = [rows[0][0]] + rows[1][1:]  # an id twice, one missing: same length
    rows = spoil(rows, new_id)
    header = [ID] + CLASSES
    shape = k % 29
    if shape == 3:
        drop = rng.randrange(1, len(header))  # a class missing
        header, rows = header[:drop] + header[drop + 1:], [r[:drop] + r[drop + 1:] for r in rows]
    elif shape == 8:
        header[0] = "StudyInstanceUid"  # the id column misnamed
    elif shape == 12:
        rows = []  # a header alone
    elif shape == 17:
        header, rows = header[::-1], [r[::-1] for r in rows]  # columns reordered: fine
    elif shape == 21:
        extra = ["CVC - Normal", "Swan Ganz Catheter Present"]  # unscored classes: fine
        header, rows = header + extra, [r + ["0.5", "0.1"] for r in rows]
    quoted = [f'"{h}"' if rng.random() < 0.2 else h for h in header]  # quoting changes nothing
    answers = [[i] + [str(c[r]) for c in labels] + [f"ec{rng.getrandbits(32):08x}"]
               for r, i in enumerate(ids)]
    return (csv_text(",".join([ID] + LABELS + ["PatientID"]), answers),
            csv_text(",".join(quoted), rows))
