"""Upstream's grade() for cdiscount-image-classification-challenge
(prepare_for_accuracy_metric on _id/category_id, then accuracy_score),
restated, on the reference environment's pandas 2.2.2, numpy 1.26.4 and
scikit-learn 1.5.1. Cases: one-class answers (binary targets), constant and
all-wrong predictions, category ids spelled as floats ("1.000010653e9"),
fractional, negative, missing, infinite, huge and text labels, dropped,
duplicated, foreign and missing product ids (a float _id column), ids spelled
"123.0", missing, renamed and extra columns, empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import accuracy_score

ID, TARGET = "_id", "category_id"
CLASSES = ["1000010653", "1000010667", "1000004079", "1000018290", "1000000271", "1000005744"]
MIN_SCORED = 115
MIN_RAISED = 70


grade = grade_accuracy


def new_id():
    return str(rng.randrange(10**7))


# How a case's predictions go wrong; each mode touches a few cells at most.
ODD = ["", "nan", "NA", "abc", "1000010653.5", "inf", "-1000010653", "1.000010653e9",
       "1000010653.0", "True", " 1000010667", "01000010653", "+1000010653",
       "99999999999999999999", "1e400", '"1,0"']


predictions = accuracy_predictions


FLOAT_IDS = True  # some cases spell ids as floats
make_case = make_accuracy_case
