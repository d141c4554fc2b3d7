"""Upstream's grade() for spaceship-titanic (prepare_for_accuracy_metric on
PassengerId/Transported, then accuracy_score), restated, on the reference
environment's pandas 2.2.2, numpy 1.26.4 and scikit-learn 1.5.1. Cases:
boolean answers, one-class ones too; predictions as pandas' boolean
spellings (True, TRUE, true), as 1/0 (ints equal to the booleans), as
"1.0"/"0.5" floats, as text (yes/no) and missing cells (an object column of
booleans and NaN); constant predictions; dropped, duplicated, foreign and
missing passenger ids, missing, renamed and extra columns, empty
submissions; the answers carry feature columns as upstream's test.csv does.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import accuracy_score

ID, TARGET = "PassengerId", "Transported"
CLASSES = ["True", "False"]
MIN_SCORED = 125
MIN_RAISED = 62


grade = grade_accuracy


def new_id():
    return f"{rng.randrange(10**4):04d}_{rng.randrange(1, 9):02d}"


# How a case's predictions go wrong; each mode touches a few cells at most.
ODD = ["", "nan", "NA", "yes", "0.5", "inf", "1", "0", "1.0", "true", "FALSE", "T", " True",
       "2", '"1,0"']
SPELLINGS = {"True": ["1", "1.0", "TRUE", "true", "yes"],
             "False": ["0", "0.0", "FALSE", "false", "no"]}


def predictions(truth):
    mode = rng.random()
    if mode < 0.08:
        return [rng.choice(CLASSES)] * len(truth)  # constant
    preds = [t if rng.random() < 0.6 else rng.choice(CLASSES) for t in truth]
    if mode < 0.25:
        spelling = rng.randrange(5)  # one spelling for the whole column
        preds = [SPELLINGS[p][spelling] for p in preds]
    elif mode < 0.45:
        for _ in range(rng.randint(1, 2)):
            preds[rng.randrange(len(preds))] = rng.choice(ODD)
    return preds


def make_case(k):
    n = 5000 if k == 0 else rng.choice([1, 2, 3, 10, 50, 400])
    ids = list(dict.fromkeys(new_id() for _ in range(n)))
    truth = [rng.choice(CLASSES) for _ in ids]
    if k % 11 == 3:
        truth = [truth[0]] * len(ids)  # one class: a binary target
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
    answers = csv_text(f"{ID},HomePlanet,CryoSleep,Age,{TARGET}",
                       [[i, rng.choice(["Earth", "Mars", ""]), rng.choice(["True", "False", ""]),
                         rng.choice(["39.0", "", "4.0"]), t] for i, t in zip(ids, truth)])
    return answers, csv_text(header, rows)
