"""Upstream's grade() for inaturalist-2019-fgvc6 (its prepare_for_metric:
length and column checks, ids sorted and compared, int() of the answers'
categories and, per submitted value, the value itself when pandas gives an
int, else int() of its first whitespace-separated token; then
1 - accuracy_score), restated, on the reference environment's pandas 2.2.2,
numpy 1.26.4 and scikit-learn 1.5.1. Cases: integer columns, boolean
columns (ints to isinstance), Kaggle's top-k lists ("12 45 3", tabs, leading
spaces) mixed with plain ids in a text column, tokens int() takes ("+5",
"-0", "1_000", Unicode decimal digits) or rejects ("1.0", "0x1f", "abc",
"1__0", "四", superscript "²"), empty cells (a float column, or NaN in a
text one: no .split()), empty and blank strings, one- and two-class
answers, constant predictions; dropped, duplicated, foreign
and missing ids, ids spelled "123.0", missing, renamed and extra columns,
empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import accuracy_score

CLASSES = [str(c) for c in range(1010)]
ODD = ["", "abc", "1.0", "0x1f", "1__0", "1_000", "+5", "-0", "True", "\"\t7\"", "\" \"", "007",
       "\u0667", "\uff14\u0660 1", "\u56db", "\u00b2"]
MIN_SCORED = 110
MIN_RAISED = 75


def grade(submission, answers):
    if len(submission) != len(answers):
        raise ValueError("length")
    if "id" not in submission.columns or "predicted" not in submission.columns:
        raise ValueError("missing column")
    if "id" not in answers.columns or "predicted" not in answers.columns:
        raise AssertionError("answers")
    submission = submission.sort_values("id")
    answers = answers.sort_values("id")
    if (submission["id"].values != answers["id"].values).any():
        raise ValueError("ids")
    y_true = [int(y) for y in answers["predicted"]]
    y_pred = [int(y) if isinstance(y, int) else int(y.split()[0]) for y in submission["predicted"]]
    return 1 - accuracy_score(y_true=y_true, y_pred=y_pred)


def new_id():
    return str(rng.randrange(300000, 400000))


def top_k(first):
    others = " ".join(rng.choice(CLASSES) for _ in range(rng.randint(1, 4)))
    return rng.choice([f"{first} {others}", f" {first} {others}", f"\"{first}\t{others}\""])


def predictions(truth, classes):
    mode = rng.random()
    if mode < 0.08:
        return [rng.choice(classes)] * len(truth)  # constant
    preds = [t if rng.random() < 0.6 else rng.choice(classes) for t in truth]
    if mode < 0.2:
        return [rng.choice(["True", "False"]) for _ in preds]  # a bool column: 1 and 0
    if mode < 0.5:
        preds = [top_k(p) if rng.random() < 0.7 else p for p in preds]
    if rng.random() < 0.35:
        for _ in range(rng.randint(1, 2)):
            preds[rng.randrange(len(preds))] = rng.choice(ODD)
    return preds


def make_case(k):
    n = 5000 if k == 0 else rng.choice([1, 2, 3, 10, 50, 400])
    ids = list(dict.fromkeys(new_id() for _ in range(n)))
    classes = CLASSES
    if k % 11 == 3:
        classes = [rng.choice(CLASSES)]  # one class
    elif k % 11 == 7:
        classes = ["0", "1"]
    truth = [rng.choice(classes) for _ in ids]
    rows = spoil([[i, p] for i, p in zip(ids, predictions(truth, classes))], new_id)
    if k % 29 == 5 and rows:
        rows[-1] = [""] + rows[-1][1:]  # a missing id
    elif k % 29 == 9:
        rows = [[i + ".0"] + rest for i, *rest in rows]  # float ids, equal as numbers
    header = "id,predicted"
    r = rng.random()
    if r < 0.03:
        header = "id,category_id"
    elif r < 0.06:
        header, rows = "predicted", [row[1:] for row in rows]
    elif r < 0.1:
        header, rows = "predicted,extra,id", [[row[1], "x", row[0]] for row in rows]
    elif r < 0.12:
        rows = []
    answers = csv_text("id,predicted", [[i, t] for i, t in zip(ids, truth)])
    return answers, csv_text(header, rows)
