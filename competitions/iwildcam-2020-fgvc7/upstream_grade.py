"""Upstream's grade() for iwildcam-2020-fgvc7 (prepare_for_accuracy_metric on
Id/Category, then accuracy_score), restated, on the reference environment's
pandas 2.2.2, numpy 1.26.4 and scikit-learn 1.5.1. Cases: one- and two-class
answers (binary targets), constant and all-wrong predictions, categories
spelled as floats ("372.0", "1e1"), fractional, negative, missing, infinite,
huge and text labels, dropped, duplicated, foreign and missing image ids,
missing, renamed and extra columns, empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import accuracy_score

ID, TARGET = "Id", "Category"
CLASSES = ["0", "1", "3", "8", "72", "372", "675"]
MIN_SCORED = 130
MIN_RAISED = 58


grade = grade_accuracy


def new_id():
    return f"{rng.getrandbits(32):08x}-21bc-11ea-a13a-{rng.getrandbits(48):012x}"


# How a case's predictions go wrong; each mode touches a few cells at most.
ODD = ["", "nan", "NA", "empty", "2.5", "inf", "-inf", "-1", "676", "1e1", "372.0", "True", " 3",
       "03", "+2", "99999999999999999999", "1e400", '"1,0"']


predictions = accuracy_predictions


make_case = make_accuracy_case
