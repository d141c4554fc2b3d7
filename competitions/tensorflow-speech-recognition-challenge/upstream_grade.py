"""Upstream's grade() for tensorflow-speech-recognition-challenge
(prepare_for_accuracy_metric on fname/label, then accuracy_score), restated,
on the reference environment's pandas 2.2.2, numpy 1.26.4 and scikit-learn
1.5.1. Cases: text labels, one- and two-class answers (binary targets);
constant and all-wrong predictions, labels in other case or with spaces,
pandas' missing-value spellings (None, null, NA, empty: an object column of
text and NaN), number and boolean columns where text belongs; dropped,
duplicated, foreign and missing clip names, missing, renamed and extra
columns, empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import accuracy_score

ID, TARGET = "fname", "label"
CLASSES = ["yes", "no", "up", "down", "left", "right", "on", "off", "stop", "go", "silence",
           "unknown"]
MIN_SCORED = 110
MIN_RAISED = 75


grade = grade_accuracy


def new_id():
    return f"clip_{rng.getrandbits(36):09x}.wav"


# How a case's predictions go wrong; each mode touches a few cells at most.
ODD = ["", "nan", "NA", "None", "null", "Yes", "yes ", " no", "1", "0", "True",
       '"unknown,x"']
# Whole columns pandas does not read as text.
SPELLINGS = [["0", "1"], ["0", "1", "2"], ["True", "False"], ["1.0", "0.5"]]


def predictions(truth):
    mode = rng.random()
    if mode < 0.08:
        return [rng.choice(CLASSES)] * len(truth)  # constant
    preds = [t if rng.random() < 0.6 else rng.choice(CLASSES) for t in truth]
    if mode < 0.25:
        spelling = rng.choice(SPELLINGS)
        preds = [rng.choice(spelling) for _ in preds]
    elif mode < 0.45:
        for _ in range(rng.randint(1, 2)):
            preds[rng.randrange(len(preds))] = rng.choice(ODD)
    return preds


make_case = make_accuracy_case
