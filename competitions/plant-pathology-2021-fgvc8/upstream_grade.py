"""Upstream's grade() for plant-pathology-2021-fgvc8 (its prepare_for_metric:
both columns, equal lengths, images equal after sort_values, the classes from
the answers' .str.split().explode().unique() taken before fillna(""),
MultiLabelBinarizer with sparse output; then f1_score(average="micro")),
restated, on the reference environment's pandas 2.2.2, numpy 1.26.4, scipy
1.14.1 and scikit-learn 1.5.1. Cases: "<hex>.jpg" image names (foreign,
repeated, dropped, missing), the six disease labels or a subset, empty,
repeated, unknown, upper-case and whitespace-odd predictions (tabs, no-break
spaces, doubled spaces in quoted cells), all-number and all-missing label
columns, answers with an empty row or a single class; missing and extra
columns, header-only and empty files.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import f1_score
from sklearn.preprocessing import MultiLabelBinarizer

MIN_SCORED = 105
MIN_RAISED = 78

ID, TARGET = "image", "labels"
DISEASES = ["healthy", "scab", "frog_eye_leaf_spot", "rust", "complex", "powdery_mildew"]


def grade(submission, answers):
    assert ID in answers.columns and TARGET in answers.columns
    if ID not in submission.columns:
        raise ValueError("no image column")
    if TARGET not in submission.columns:
        raise ValueError("no labels column")
    if len(submission) != len(answers):
        raise ValueError("length")
    submission = submission.sort_values(by=ID).reset_index(drop=True)
    answers = answers.sort_values(by=ID).reset_index(drop=True)
    if not all(submission[ID] == answers[ID]):
        raise ValueError("images")
    classes = set(answers[TARGET].str.split().explode().unique())
    answers[TARGET] = answers[TARGET].fillna("")
    submission[TARGET] = submission[TARGET].fillna("")
    binarizer = MultiLabelBinarizer(classes=sorted(classes), sparse_output=True)
    y_true = binarizer.fit_transform(answers[TARGET].str.split())
    y_pred = binarizer.transform(submission[TARGET].str.split())
    return f1_score(y_true=y_true, y_pred=y_pred, average="micro")


def new_id():
    return f"{rng.getrandbits(64):016x}.jpg"


def prediction(pool, truth):
    r = rng.random()
    if r < 0.04:
        return rng.choice(["", "Scab", "1", '"scab\trust"', '"rust\u00a0 scab"', " scab  rust ",
                           "leaf"])
    labels = truth.split() if r < 0.55 else []
    labels = [x for x in labels if rng.random() < 0.85]
    labels += rng.sample(pool, rng.choice([0, 0, 1, min(2, len(pool))]))
    if rng.random() < 0.05:
        labels += ["blight", labels[0] if labels else "healthy"]
    return " ".join(labels)


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 400]) if k % 50 else 3000
    pool = rng.sample(DISEASES, rng.choice([1, 2, 3, 4, 6, 6, 6]))
    ids = list(dict.fromkeys(new_id() for _ in range(n)))
    truth = [" ".join(rng.sample(pool, rng.choice([1, 1, 1, min(2, len(pool))]))) for _ in ids]
    if len(pool) > 1 and k % 31 != 2:
        truth[0] = " ".join(pool[:2])  # one class only: f1_score rejects the sparse column
    if k % 37 == 8:
        truth[0] = ""  # an answer without labels: NaN among the classes
    rows = [[i, prediction(pool, t)] for i, t in zip(ids, truth)]
    if k % 13 == 3:
        rows = [[i, rng.choice(["0", "1", ""])] for i, _ in rows]  # no text at all
    rows = spoil(rows, lambda: rng.choice([new_id(), "", ids[0].upper(), ids[0][:-4]]))
    header = f"{ID},{TARGET}"
    if k % 17 == 6:
        header = rng.choice([f"{ID},label", f"image_id,{TARGET}", ID])
        if header == ID:
            rows = [[r[0]] for r in rows]
    elif k % 17 == 9:
        header, rows = f"{TARGET},{ID},extra", [[p, i, "z"] for i, p in rows]
    answers = csv_text(f"{ID},{TARGET}", [[i, t] for i, t in zip(ids, truth)])
    if k % 29 == 7:
        return answers, rng.choice(["", f"{ID},{TARGET}\n"])
    return answers, csv_text(header, rows)
