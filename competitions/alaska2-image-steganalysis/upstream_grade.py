"""Upstream's grade() for alaska2-image-steganalysis, restated: its
prepare_for_metric (row count, Id and Label columns, both tables sorted by Id
with the ids equal row by row, Label.astype(float), no NaN), then its weighted
AUC: metrics.roc_curve, the TPR thresholds 0.4 and 1.0 inserted by linear
interpolation of the FPR, and metrics.auc of each horizontal band (weights 2
and 1) over np.dot of the band heights and weights; on the reference
environment's pandas 2.2.2, numpy 1.26.4 and scikit-learn 1.5.1. Answers as
upstream's test.csv (0001.jpg ids, 0/1 labels, both present). Cases: tied,
constant, boolean and rounded scores, logits, huge and tiny scores (no range
check); missing, infinite and text cells and Python-only float spellings
("1_0" in a text column); dropped, duplicated, blank and foreign ids; missing,
reordered and extra columns; header-only submissions. Same score bit for bit,
or invalid where upstream raises.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn import metrics

MIN_SCORED = 128
MIN_RAISED = 62
BANDS = [0.0, 0.4, 1.0]  # TPR band edges
WEIGHTS = [2, 1]


def with_thresholds(fpr, tpr):
    """FPR and TPR lists with each band edge present in the TPR: where one is
    missing, it goes before the first larger TPR, its FPR interpolated."""
    fpr, tpr = fpr.tolist(), tpr.tolist()
    for edge in BANDS:
        if edge in tpr:
            continue
        i = next((i for i, t in enumerate(tpr) if t > edge), None)
        if i is not None:
            fpr.insert(i, fpr[i - 1] + (fpr[i] - fpr[i - 1]) * (edge - tpr[i - 1])
                       / (tpr[i] - tpr[i - 1]))
            tpr.insert(i, edge)
    return np.array(fpr), np.array(tpr)


def weighted_auc(y_true, y_pred):
    fpr, tpr, _ = metrics.roc_curve(y_true, y_pred, pos_label=1)
    fpr, tpr = with_thresholds(fpr, tpr)
    total = 0
    for low, high, weight in zip(BANDS, BANDS[1:], WEIGHTS):
        band = (low <= tpr) & (tpr <= high)
        if band.sum() == 0:
            continue
        # The band's curve, closed by a point at FPR 1 on its top edge.
        xs = np.concatenate([fpr[band], [1]])
        ys = np.concatenate([tpr[band], [high]]) - low
        total += metrics.auc(xs, ys) * weight
    return total / np.dot(np.array(BANDS[1:]) - np.array(BANDS[:-1]), WEIGHTS)


def grade(submission, answers):
    if len(submission) != len(answers):
        raise ValueError("row count")
    if "Id" not in submission.columns or "Label" not in submission.columns:
        raise ValueError("columns")
    submission = submission.sort_values("Id")
    answers = answers.sort_values("Id")
    if (submission["Id"].values != answers["Id"].values).any():
        raise ValueError("ids differ")
    submission["Label"] = submission["Label"].astype(float)  # text raises ValueError
    answers["Label"] = answers["Label"].astype(float)
    assert not answers["Label"].isnull().any()
    if submission["Label"].isnull().any():
        raise ValueError("NaN")
    return weighted_auc(np.array(answers["Label"]), np.array(submission["Label"]))


# Cell spellings a submission's scores may take, besides plain ones.
ODD = ["abc", "", "nan", "inf", "-inf", "1e-3", "1E-300", "0.0", "1.0", " 0.5", "-0", "+0.5",
       "1_0", ".5", "5.", "1e400", "-1e-400", "True", "0x1", "1e300", "-7", "Infinity"]


def scores(n):
    style = rng.random()
    if style < 0.04:
        return [rng.choice(["True", "False"]) for _ in range(n)]
    if style < 0.08:
        return [rng.choice(["0", "0.5"])] * n
    faults = rng.choice([0, 0, 0, 0, 0.01, 0.05])
    kind = rng.choice(["ties", "probability", "probability", "logit"])
    cells = []
    for _ in range(n):
        if rng.random() < faults:
            cells.append(rng.choice(ODD))
        elif kind == "ties":
            cells.append(rng.choice(["0", "1", "0.25", "0.5", "0.75"]))
        elif kind == "logit":
            cells.append(repr(rng.gauss(0, 3)))
        else:
            cells.append(repr(round(rng.random(), rng.choice([1, 3, 17]))))
    return cells


def make_case(k):
    n = rng.choice([2, 3, 3, 5, 10, 10, 50, 50, 400]) if k else 5000
    ids = [f"{i:04d}.jpg" for i in rng.sample(range(1, 10000), n)]
    labels = [rng.randint(0, 1) for _ in ids]
    labels[:2] = [0, 1]  # both classes: upstream's answers always have both
    rng.shuffle(labels)
    rows = [[i, s] for i, s in zip(ids, scores(n))]
    if k % 13 == 6:
        rows[1] = [rows[0][0], rows[1][1]]  # an id twice, one missing: same length
    if k % 31 == 10:
        rows[0] = ["", rows[0][1]]  # a blank id: NaN never equals
    rows = spoil(rows, lambda: f"{rng.randrange(10000, 20000)}.jpg")
    header = ["Id", "Label"]
    shape = k % 23
    if shape == 3:
        header[rng.randrange(2)] = rng.choice(["id", "label"])  # a column misnamed
    elif shape == 8:
        header, rows = header + ["extra"], [r + ["x"] for r in rows]  # fine
    elif shape == 12:
        rows = []  # a header alone
    elif shape == 17:
        header, rows = header[::-1], [r[::-1] for r in rows]  # fine
    answers = [[i, str(l)] for i, l in zip(ids, labels)]
    return csv_text("Id,Label", answers), csv_text(",".join(header), rows)
