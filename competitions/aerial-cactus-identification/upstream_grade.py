"""Upstream's grade() for aerial-cactus-identification (prepare_for_auroc_metric
with id_col='id', target_col='has_cactus', then roc_auc_score), restated, on
the reference environment's pandas 2.2.2 and scikit-learn 1.5.1. Cases: image
file names (32 hex digits and .jpg); tied, constant, boolean and rounded
scores; out-of-range, missing, infinite and text cells and odd float spellings;
dropped, duplicated and foreign ids; misnamed, swapped and extra columns;
header-only submissions; one-class answers. Same score bit for bit, or invalid
where upstream raises.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import roc_auc_score

ID, TARGET = "id", "has_cactus"
LARGE = 4000  # rows of case 0
MIN_SCORED = 100
MIN_RAISED = 90


grade = grade_auroc


# Cell spellings a submission's scores may take, besides plain probabilities.
ODD = ["abc", "", "nan", "inf", "-inf", "1.5", "-0.1", "1e-3", "1E-300", "0.0", "1.0", " 0.5",
       "-0", "+0.5", "1_0", ".5", "5.", "1e400", "-1e-400", "True", "0x1", "2", "-1"]


scores = auroc_scores


make_case = make_auroc_case


def new_ids(n):
    return [f"{rng.getrandbits(128):032x}.jpg" for _ in range(n)]


def foreign_id():
    return new_ids(1)[0]


def respell(i):
    return i


def answers_text(ids, labels):
    return csv_text("id,has_cactus", [[i, str(l)] for i, l in zip(ids, labels)])
