"""Upstream's grade() for invasive-species-monitoring (prepare_for_auroc_metric
with id_col='name', target_col='invasive', then roc_auc_score), restated, on
the reference environment's pandas 2.2.2 and scikit-learn 1.5.1. Cases: integer
image numbers, also spelled 7.0 or 007 in submissions; tied, constant, boolean
and rounded scores; out-of-range, missing, infinite and text cells and odd
float spellings; dropped, duplicated and foreign ids; misnamed, swapped and
extra columns; header-only submissions; one-class answers. Same score bit for
bit, or invalid where upstream raises.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import roc_auc_score

ID, TARGET = "name", "invasive"
LARGE = 3000  # rows of case 0
MIN_SCORED = 98
MIN_RAISED = 92


grade = grade_auroc


# Cell spellings a submission's scores may take, besides plain probabilities.
ODD = ["abc", "", "nan", "inf", "-inf", "1.5", "-0.1", "1e-3", "1E-300", "0.0", "1.0", " 0.5",
       "-0", "+0.5", "1_0", ".5", "5.", "1e400", "-1e-400", "True", "0x1", "2", "-1"]


scores = auroc_scores


make_case = make_auroc_case


def new_ids(n):
    return [str(i) for i in rng.sample(range(1, 4000), n)]


def foreign_id():
    return new_ids(1)[0]


def respell(i):
    r = rng.random()
    return i if r < 0.9 or not i.isdigit() else (i + ".0" if r < 0.95 else "00" + i)


def answers_text(ids, labels):
    return csv_text("name,invasive", [[i, str(l)] for i, l in zip(ids, labels)])
