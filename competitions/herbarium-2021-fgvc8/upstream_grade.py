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


ODD = ["abc", "", "2.5", "1e3", "inf", "-1", "True", "1_0", " 3", "0x10", "-0", "1.0",
       "99999999999999999999", "18446744073709551615", "9223372036854775807", "nan",
       "\u0663", "\u00a07", "\uff11\uff10", "\u00b2"]  # int() takes Unicode digits, spaces


label = herbarium_label


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 400]) if k % 50 else 3000
    pool = rng.sample(range(64500), rng.choice([1, 2, 5, 50, 1000]))
    base = rng.choice([0, 1, 10 ** 6])
    ids = [str(base + i) for i in range(n)]
    truth = [str(rng.choice(pool)) for _ in ids]
    rows = [[i, label(pool, t)] for i, t in zip(ids, truth)]
    if k % 13 == 3:
        rows = [[i, rng.choice(["True", "False"])] for i, _ in rows]
    if k % 11 == 5:
        rows = [[i + ".0", p] for i, p in rows]  # float ids still equal the answers' ints
    rows = spoil(rows, lambda: rng.choice(["x1", str(base + n + 1), "", str(base) + ".5"]))
    header = f"{ID},{TARGET}"
    if k % 17 == 6:
        header = rng.choice([f"{ID},predicted", f"id,{TARGET}", ID])
        if header == ID:
            rows = [[r[0]] for r in rows]
    elif k % 17 == 9:
        header, rows = f"{TARGET},{ID},extra", [[p, i, "z"] for i, p in rows]
    answers = csv_text(f"{ID},{TARGET}", [[i, t] for i, t in zip(ids, truth)])
    if k % 29 == 7:
        return answers, rng.choice(["", f"{ID},{TARGET}\n"])
    return answers, csv_text(header, rows)
