"""Upstream's grade() for herbarium-2022-fgvc9 (herbarium-2020-fgvc7's less two
asserts on the answers; its prepare_for_metric: equal lengths, both columns,
ids equal after sort_values, int() of every label; then
f1_score(average="macro")), restated, on the reference environment's pandas
2.2.2, numpy 1.26.4 and scikit-learn 1.5.1. Cases: integer image ids (some
spelled "7.0", foreign, repeated, dropped or text), category ids from pools of
one to a thousand classes, labels the answers lack, and predictions int()
takes or rejects: Arabic-Indic and full-width digits, "2.5", "1e3", "inf", "",
"True", "1_0", " 3", text, values past int64; missing and extra columns,
header-only and empty files.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import f1_score

MIN_SCORED = 102
MIN_RAISED = 82

ID, TARGET = "Id", "Predicted"


def grade(submission, answers):
    if len(submission) != len(answers):
        raise ValueError("length")
    if ID not in submission.columns or TARGET not in submission.columns:
        raise ValueError("columns")
    submission = submission.sort_values(ID)
    answers = answers.sort_values(ID)
    if (submission[ID].values != answers[ID].values).any():
        raise ValueError("ids")
    y_true = [int(v) for v in answers[TARGET]]
    y_pred = [int(v) for v in submission[TARGET]]
    return f1_score(y_true=y_true, y_pred=y_pred, average="macro")


label = herbarium_label


CATEGORIES = 15505  # the competition's category ids
make_case = make_herbarium_case
