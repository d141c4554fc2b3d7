"""Upstream's grade() for ml2021spring-hw2 (prepare_for_accuracy_metric on
Id/ClassId, then accuracy_score), restated, on the reference environment's
pandas 2.2.2, numpy 1.26.4 and scikit-learn 1.5.1. Cases: one- and two-class
answers (binary targets), constant and all-wrong predictions, phoneme classes
spelled as floats ("12.0", "1e1"), fractional, negative, missing, infinite,
huge and text labels, dropped, duplicated, foreign and missing frame ids (a
float Id column), ids spelled "123.0", missing, renamed and extra columns,
empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import accuracy_score

ID, TARGET = "Id", "ClassId"
CLASSES = [str(c) for c in range(39)]
MIN_SCORED = 120
MIN_RAISED = 65


grade = grade_accuracy


def new_id():
    return str(rng.randrange(10**6))


# How a case's predictions go wrong; each mode touches a few cells at most.
ODD = ["", "nan", "NA", "abc", "12.5", "inf", "-inf", "-1", "39", "1e1", "12.0", "True", " 3",
       "03", "+2", "99999999999999999999", "1e400", '"1,0"']


predictions = accuracy_predictions


FLOAT_IDS = True  # some cases spell ids as floats
make_case = make_accuracy_case
