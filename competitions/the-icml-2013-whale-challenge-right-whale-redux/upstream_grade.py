"""Upstream's grade() for the-icml-2013-whale-challenge-right-whale-redux
(prepare_for_auroc_metric with id_col='clip', target_col='probability', then
roc_auc_score), restated, on the reference environment's pandas 2.2.2 and
scikit-learn 1.5.1. Cases: clip file names 20090330_000000_015s2ms_Test0.aif;
tied, constant, boolean and rounded scores; out-of-range, missing, infinite and
text cells and odd float spellings; dropped, duplicated and foreign ids;
misnamed, swapped and extra columns; header-only submissions; one-class
answers. Same score bit for bit, or invalid where upstream raises.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import roc_auc_score

ID, TARGET = "clip", "probability"
LARGE = 4000  # rows of case 0
MIN_SCORED = 105
MIN_RAISED = 85


grade = grade_auroc


# Cell spellings a submission's scores may take, besides plain probabilities.
ODD = ["abc", "", "nan", "inf", "-inf", "1.5", "-0.1", "1e-3", "1E-300", "0.0", "1.0", " 0.5",
       "-0", "+0.5", "1_0", ".5", "5.", "1e400", "-1e-400", "True", "0x1", "2", "-1"]


scores = auroc_scores


make_case = make_auroc_case


def new_ids(n):
    return [f"2009033{rng.randint(0, 1)}_{rng.randint(0, 235959):06d}_"
            f"{rng.randint(0, 999):03d}s{rng.randint(0, 9)}ms_Test{i}.aif"
            for i in rng.sample(range(0, 30000), n)]


def foreign_id():
    return new_ids(1)[0]


def respell(i):
    return i


def answers_text(ids, labels):
    return csv_text("clip,probability", [[i, str(l)] for i, l in zip(ids, labels)])
