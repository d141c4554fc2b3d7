"""Upstream's grade() for imet-2020-fgvc7 (its prepare_for_metric: both
columns, equal lengths, ids equal after sort_values, fillna(""), the classes
from the answers' .str.split().explode().unique(), MultiLabelBinarizer with
sparse output; then f1_score(average="micro")), restated, on the reference
environment's pandas 2.2.2, numpy 1.26.4, scipy 1.14.1 and scikit-learn
1.5.1. Cases: hex image ids (some all digits, or float spellings like "12e4",
so pandas reads a column as numbers), attribute-id sets from pools of one to
hundreds of ids, empty, repeated, unknown and whitespace-odd predictions
(tabs, no-break spaces, doubled spaces in quoted cells), all-number columns,
answers with an empty row or a single class; foreign, repeated and dropped
ids; missing and extra columns, header-only and empty files.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import f1_score
from sklearn.preprocessing import MultiLabelBinarizer

MIN_SCORED = 90
MIN_RAISED = 95

ID, TARGET = "id", "attribute_ids"


def grade(submission, answers):
    assert ID in answers.columns and TARGET in answers.columns
    if ID not in submission.columns:
        raise ValueError("no id column")
    if TARGET not in submission.columns:
        raise ValueError("no attribute_ids column")
    if len(submission) != len(answers):
        raise ValueError("length")
    submission = submission.sort_values(by=ID).reset_index(drop=True)
    answers = answers.sort_values(by=ID).reset_index(drop=True)
    if (submission[ID].values != answers[ID].values).any():
        raise ValueError("ids")
    submission[TARGET] = submission[TARGET].fillna("")
    answers[TARGET] = answers[TARGET].fillna("")
    classes = set(answers[TARGET].str.split().explode().unique())
    binarizer = MultiLabelBinarizer(classes=sorted(classes), sparse_output=True)
    y_true = binarizer.fit_transform(answers[TARGET].str.split())
    y_pred = binarizer.transform(submission[TARGET].str.split())
    return f1_score(y_true=y_true, y_pred=y_pred, average="micro")


def new_id():
    r = rng.random()
    if r < 0.05:
        return f"{rng.getrandbits(40):016d}"
    if r < 0.08:
        return f"{rng.randint(0, 99)}e{rng.randint(0, 400)}"
    return f"{rng.getrandbits(64):016x}"


def prediction(pool, truth):
    r = rng.random()
    if r < 0.04:
        return rng.choice(["", "abc", "3.5", '"13\t405"', '"13\u00a0 405"', " 13  405 ", "0"])
    labels = truth.split() if r < 0.5 else []
    labels = [x for x in labels if rng.random() < 0.8]
    labels += [str(rng.choice(pool)) for _ in range(rng.choice([0, 0, 1, 3]))]
    if rng.random() < 0.05:
        labels += [str(rng.randint(3474, 5000)), labels[0] if labels else "1"]
    return " ".join(labels)


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 400]) if k % 50 else 2000
    pool = rng.sample(range(3474), rng.choice([1, 2, 5, 30, 300]))
    ids = list(dict.fromkeys(new_id() for _ in range(n)))
    truth = [" ".join(str(a) for a in rng.sample(pool, rng.randint(1, min(4, len(pool)))))
             for _ in ids]
    if len(pool) > 1 and k % 31 != 2:
        truth[0] = " ".join(str(a) for a in pool[:2])  # else an all-number column may raise
    if k % 37 == 8:
        truth[0] = ""  # an answer without labels: NaN among the classes
    rows = [[i, prediction(pool, t)] for i, t in zip(ids, truth)]
    if k % 13 == 3:
        rows = [[i, str(rng.choice(pool))] for i, _ in rows]  # one number each: an int column
    rows = spoil(rows, new_id)
    header = f"{ID},{TARGET}"
    if k % 17 == 6:
        header = rng.choice([f"{ID},attributes", f"Id,{TARGET}", ID])
        if header == ID:
            rows = [[r[0]] for r in rows]
    elif k % 17 == 9:
        header, rows = f"{TARGET},{ID},extra", [[p, i, "z"] for i, p in rows]
    answers = csv_text(f"{ID},{TARGET}", [[i, t] for i, t in zip(ids, truth)])
    if k % 29 == 7:
        return answers, rng.choice(["", f"{ID},{TARGET}\n"])
    return answers, csv_text(header, rows)
