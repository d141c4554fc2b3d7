"""Upstream's grade() for tabular-playground-series-dec-2021
(prepare_for_accuracy_metric on Id/Cover_Type, then accuracy_score),
restated, on the reference environment's pandas 2.2.2, numpy 1.26.4 and
scikit-learn 1.5.1. Cases: one- and two-class answers (binary targets),
constant and all-wrong predictions, cover types spelled as floats ("2.0",
"1e0"), fractional, zero, negative, missing, infinite, huge and text labels,
dropped, duplicated, foreign and missing ids (a float Id column), ids
spelled "123.0", missing, renamed and extra columns, empty submissions; the
answers carry feature columns as upstream's test.csv does.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import accuracy_score

ID, TARGET = "Id", "Cover_Type"
CLASSES = ["1", "2", "3", "4", "5", "6", "7"]
MIN_SCORED = 120
MIN_RAISED = 68


grade = grade_accuracy


def new_id():
    return str(rng.randrange(4 * 10**6, 5 * 10**6))


# How a case's predictions go wrong; each mode touches a few cells at most.
ODD = ["", "nan", "NA", "Spruce", "2.5", "inf", "-inf", "0", "8", "1e0", "2.0", "True", " 3",
       "03", "+2", "99999999999999999999", "1e400", '"1,0"']


predictions = accuracy_predictions


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
    elif k % 29 == 9:
        rows = [[i + ".0"] + rest for i, *rest in rows]  # float ids, equal as numbers
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
    answers = csv_text(f"{ID},Elevation,Soil_Type7,{TARGET}",
                       [[i, str(rng.randrange(3000)), "0", t] for i, t in zip(ids, truth)])
    return answers, csv_text(header, rows)
