"""Upstream's grade() for iwildcam-2019-fgvc6 (its prepare_for_metric: the
answers' columns asserted, equal lengths, the `Id` and `Category` columns, ids
equal after sort_values, int() of every category; then
f1_score(average="macro")), restated, on the reference environment's pandas
2.2.2, numpy 1.26.4 and scikit-learn 1.5.1. Cases: uuid-like image ids
(foreign, repeated, dropped, missing), the competition's 14 category ids or a
single one, categories the answers lack, and categories int() takes or
rejects: Arabic-Indic and full-width digits, "2.5", "1e3", "inf", "", "True",
"1_0", " 3", text, values past int64; all-boolean columns; missing, renamed
and extra columns, header-only and empty files.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import f1_score

MIN_SCORED = 115
MIN_RAISED = 70

ID, TARGET = "Id", "Category"
CATEGORIES = [0, 1, 3, 4, 5, 8, 10, 11, 13, 14, 16, 17, 18, 19, 22]


def grade(submission, answers):
    assert ID in answers.columns and TARGET in answers.columns
    if len(submission) != len(answers):
        raise ValueError("length")
    if ID not in submission.columns:
        raise ValueError("no id column")
    if TARGET not in submission.columns:
        raise ValueError("no target column")
    submission = submission.sort_values(ID)
    answers = answers.sort_values(ID)
    if (submission[ID].values != answers[ID].values).any():
        raise ValueError("ids")
    y_true = [int(v) for v in answers[TARGET]]
    y_pred = [int(v) for v in submission[TARGET]]
    return f1_score(y_true=y_true, y_pred=y_pred, average="macro")


ODD = ["abc", "", "2.5", "1e3", "inf", "-1", "True", "1_0", " 3", "0x10", "-0", "1.0", "23",
       "99999999999999999999", "18446744073709551615", "9223372036854775807", "nan",
       "\u0663", "\u00a07", "\uff11\uff10", "\u00b2"]  # int() takes Unicode digits, spaces


def new_id():
    h = f"{rng.getrandbits(128):032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def category(pool, truth):
    r = rng.random()
    if r < 0.03:
        return rng.choice(ODD)
    if r < 0.6:
        return truth
    return str(rng.choice(pool if rng.random() < 0.8 else CATEGORIES))


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 400]) if k % 50 else 2000
    pool = rng.sample(CATEGORIES, rng.choice([1, 2, 5, 15]))
    ids = [new_id() for _ in range(n)]
    truth = [str(rng.choice(pool)) for _ in ids]
    rows = [[i, category(pool, t)] for i, t in zip(ids, truth)]
    if k % 13 == 3:
        rows = [[i, rng.choice(["True", "False"])] for i, _ in rows]
    rows = spoil(rows, lambda: rng.choice([new_id(), "", ids[0].upper()]))
    header = f"{ID},{TARGET}"
    if k % 17 == 6:
        header = rng.choice([f"{ID},category_id", f"id,{TARGET}", ID])
        if header == ID:
            rows = [[r[0]] for r in rows]
    elif k % 17 == 9:
        header, rows = f"{TARGET},{ID},extra", [[p, i, "z"] for i, p in rows]
    answers = csv_text(f"{ID},{TARGET}", [[i, t] for i, t in zip(ids, truth)])
    if k % 29 == 7:
        return answers, rng.choice(["", f"{ID},{TARGET}\n"])
    return answers, csv_text(header, rows)
