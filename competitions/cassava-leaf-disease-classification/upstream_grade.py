"""Upstream's grade() for cassava-leaf-disease-classification
(prepare_for_accuracy_metric on image_id/label, then accuracy_score),
restated, on the reference environment's pandas 2.2.2, numpy 1.26.4 and
scikit-learn 1.5.1. Cases: one-class answers (binary targets), constant and
all-wrong predictions, labels spelled as floats ("2.0", "1e0"), fractional,
missing, infinite, huge and text labels, dropped, duplicated, foreign and
missing image ids, missing, renamed and extra columns, empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import accuracy_score

ID, TARGET = "image_id", "label"
CLASSES = ["0", "1", "2", "3", "4"]
MIN_SCORED = 150
MIN_RAISED = 40


grade = grade_accuracy


def new_id():
    return f"{rng.randrange(10**6, 10**10)}.jpg"


# How a case's predictions go wrong; each mode touches a few cells at most.
ODD = ["", "nan", "NA", "abc", "2.5", "inf", "-inf", "-1", "7", "1e0", "2.0", "True", " 3",
       "03", "+2", "99999999999999999999", "1e400", "0x1", '"1,0"']


predictions = accuracy_predictions


make_case = make_accuracy_case
