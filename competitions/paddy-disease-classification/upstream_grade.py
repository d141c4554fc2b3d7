"""Upstream's grade() for paddy-disease-classification (its own checks on
image_id/label, then accuracy_score of the answers' labels against the
submission's labels with missing ones filled with "" as a Python list),
restated, on the reference environment's pandas 2.2.2, numpy 1.26.4 and
scikit-learn 1.5.1. Cases: disease names, one- and two-class answers (binary
targets); constant and all-wrong predictions, names in other case or with
spaces, missing cells (filled with "", so numpy turns a list mixing "" with
numbers or booleans into their str() forms), whole columns of integers,
floats ("1.5", "2.0", "1e16", "-0.0") and booleans where names belong;
dropped, duplicated, foreign and missing image ids, missing, renamed and
extra columns, empty submissions; the answers carry variety and age as
upstream's test.csv does.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import accuracy_score

ID, TARGET = "image_id", "label"
CLASSES = ["bacterial_leaf_blight", "bacterial_leaf_streak", "bacterial_panicle_blight", "blast",
           "brown_spot", "dead_heart", "downy_mildew", "hispa", "normal", "tungro"]
MIN_SCORED = 130
MIN_RAISED = 58


def grade(submission, answers):
    if not set(answers.columns).issuperset({ID, TARGET}):
        raise AssertionError("answers' columns")
    if answers.isnull().values.any():
        raise AssertionError("answers hold NaN")
    if not set(submission.columns).issuperset({ID, TARGET}):
        raise ValueError("missing column")
    if len(submission) != len(answers):
        raise ValueError("length")
    submission = submission.sort_values(by=ID).reset_index(drop=True)
    answers = answers.sort_values(by=ID).reset_index(drop=True)
    if (submission[ID].values != answers[ID].values).any():
        raise ValueError("ids")
    y_pred = submission[TARGET].fillna("").tolist()
    return accuracy_score(y_true=answers[TARGET], y_pred=y_pred)


def new_id():
    return f"{rng.randrange(200000, 300000)}.jpg"


ODD = ["", "nan", "NA", "None", "Blast", "normal ", " hispa", "1", "2.5", "True", "-0.0", "1e16",
       '"tungro,x"']
# Whole columns pandas does not read as text.
SPELLINGS = [["0", "1"], ["0", "1", "2"], ["True", "False"], ["1.0", "0.5"], ["2.0", "1e16"]]


def predictions(truth):
    mode = rng.random()
    if mode < 0.08:
        return [rng.choice(CLASSES)] * len(truth)  # constant
    preds = [t if rng.random() < 0.6 else rng.choice(CLASSES) for t in truth]
    if mode < 0.25:
        spelling = rng.choice(SPELLINGS)
        preds = [rng.choice(spelling) for _ in preds]
        if rng.random() < 0.5:
            preds[rng.randrange(len(preds))] = ""  # a missing one: filled with ""
    elif mode < 0.5:
        for _ in range(rng.randint(1, 2)):
            preds[rng.randrange(len(preds))] = rng.choice(ODD)
    return preds


def make_case(k):
    n = 5000 if k == 0 else rng.choice([1, 2, 3, 10, 50, 400])
    ids = list(dict.fromkeys(new_id() for _ in range(n)))
    truth = [rng.choice(CLASSES) for _ in ids]
    if k % 11 == 3:
        truth = [truth[0]] * len(ids)  # one class: a binary target
    elif k % 11 == 7:
        truth = [rng.choice(CLASSES[:2]) for _ in ids]  # two classes
    rows = spoil([[i, p] for i, p in zip(ids, predictions(truth))], new_id)
    if k % 29 == 5 and rows:
        rows[-1] = [""] + rows[-1][1:]  # a missing id
    header = f"{ID},{TARGET}"
    r = rng.random()
    if r < 0.03:
        header = f"{ID},{TARGET}s"
    elif r < 0.06:
        header, rows = TARGET, [row[1:] for row in rows]
    elif r < 0.1:
        header, rows = f"{TARGET},extra,{ID}", [[row[1], "x", row[0]] for row in rows]
    elif r < 0.12:
        rows = []
    answers = csv_text(f"{ID},{TARGET},variety,age",
                       [[i, t, rng.choice(["ADT45", "KarnatakaPonni"]), str(rng.randrange(45, 82))]
                        for i, t in zip(ids, truth)])
    return answers, csv_text(header, rows)
