"""Upstream's grade() for tabular-playground-series-may-2022
(prepare_for_auroc_metric with id_col='id', target_col='target', then
roc_auc_score), restated, on the reference environment's pandas 2.2.2 and
scikit-learn 1.5.1. Cases: integer ids, also spelled 900012.0 in submissions;
answers with feature columns; tied, constant, boolean and rounded scores; out-
of-range, missing, infinite and text cells and odd float spellings; dropped,
duplicated and foreign ids; misnamed, swapped and extra columns; header-only
submissions; one-class answers. Same score bit for bit, or invalid where
upstream raises.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import roc_auc_score

ID, TARGET = "id", "target"
LARGE = 6000  # rows of case 0
MIN_SCORED = 103
MIN_RAISED = 87


grade = grade_auroc


# Cell spellings a submission's scores may take, besides plain probabilities.
ODD = ["abc", "", "nan", "inf", "-inf", "1.5", "-0.1", "1e-3", "1E-300", "0.0", "1.0", " 0.5",
       "-0", "+0.5", "1_0", ".5", "5.", "1e400", "-1e-400", "True", "0x1", "2", "-1"]


scores = auroc_scores


make_case = make_auroc_case


def new_ids(n):
    return [str(i) for i in rng.sample(range(800000, 1000000), n)]


def foreign_id():
    return new_ids(1)[0]


def respell(i):
    return i if rng.random() < 0.95 or not i.isdigit() else i + ".0"


def answers_text(ids, labels):
    rows = [[i, repr(rng.gauss(0, 1)), "".join(rng.choice("ABCD") for _ in range(10)),
             str(rng.randint(0, 9)), str(l)] for i, l in zip(ids, labels)]
    return csv_text("id,f_00,f_27,f_29,target", rows)
