"""Upstream's grade() for herbarium-2021-fgvc8 (word for word herbarium-2020-
fgvc7's; its prepare_for_metric: equal lengths, both columns, ids equal after
sort_values, int() of every label; then f1_score(average="macro")), restated,
on the reference environment's pandas 2.2.2, numpy 1.26.4 and scikit-learn
1.5.1. Cases: integer image ids (some spelled "7.0", foreign, repeated,
dropped or text), category ids from pools of one to a thousand classes, labels
the answers lack, and predictions int() takes or rejects: Arabic-Indic and
full-width digits, "2.5", "1e3", "inf", "", "True", "1_0", " 3", text, values
past int64; missing and extra columns, header-only and empty files.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import f1_score

MIN_SCORED = 108
MIN_RAISED = 76

ID, TARGET = "Id", "Predicted"


grade = grade_id_label_macro_f1


label = herbarium_label


CATEGORIES = 64500  # the competition's category ids
make_case = make_herbarium_case
