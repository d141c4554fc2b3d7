"""Upstream's grade() for ventilator-pressure-prediction (its prepare_for_metric:
columns, length, ids aligned after sorting, only rows whose answer has u_out == 0;
then scikit-learn's mean_absolute_error), restated, on the reference
environment's pandas 2.2.2, numpy 1.26.4 and scikit-learn 1.5.1. Cases: breaths
of 1..80 rows; predictions tied, rounded, huge, tiny, spelled "1e-3" or "5.0",
text, empty, NaN and inf (scored rows raise, expiratory rows are dropped
first); every row expiratory (nothing to score); ids written as floats, empty,
text, dropped, duplicated or foreign; missing, renamed and extra columns.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import mean_absolute_error

MIN_SCORED = 118
MIN_RAISED = 72


def grade(submission, answers):
    for column in ("id", "pressure"):
        if column not in submission.columns:
            raise ValueError(f"missing {column}")
    if len(submission) != len(answers):
        raise ValueError("length")
    submission = submission.sort_values(by="id").reset_index(drop=True)
    answers = answers.sort_values(by="id").reset_index(drop=True)
    if (submission["id"].values != answers["id"].values).any():
        raise ValueError("ids")
    # The expiratory phase (u_out 1) is not scored.
    answers = answers[answers["u_out"] == 0]
    submission = submission[submission["id"].isin(answers["id"])]
    submission = submission.sort_values(by="id").reset_index(drop=True)
    answers = answers.sort_values(by="id").reset_index(drop=True)
    with np.errstate(all="ignore"):  # sklearn's finiteness check on +-1e300 overflows, quietly
        return mean_absolute_error(answers["pressure"].values, submission["pressure"].values)


def pressure():
    r = rng.random()
    if r < 0.3:
        return rng.choice(["5.0", "6", "6.329607", "1e-3", "-1.895744", "64.8209917386395"])
    if r < 0.33:
        return rng.choice(["1e300", "-1e300", "5e-324", "1E2", "+7.5"])
    return repr(round(rng.uniform(-2, 65), rng.choice([1, 6, 17])))


def prediction(fault):
    if rng.random() < fault:
        return rng.choice(["", "nan", "inf", "-inf", "high", "NaN", "\"1,5\""])
    return pressure()


def make_case(k):
    breaths = rng.choice([1, 2, 3, 5]) if k % 50 else 120
    rows, next_id = [], 1
    for b in range(breaths):
        length = rng.choice([1, 3, 10, 80])
        inspiratory = rng.randint(0, length)
        for step in range(length):
            u_out = "0" if step < inspiratory else "1"
            if k % 13 == 6:
                u_out = "1"  # nothing is scored: sklearn gets no samples
            rows.append([str(next_id), str(b * 7 + 3), rng.choice(["5", "20", "50"]),
                         rng.choice(["10", "20", "50"]), repr(step * 0.0334),
                         repr(round(rng.uniform(0, 100), 6)), u_out, pressure()])
            next_id += 1
    fault = rng.choice([0, 0, 0, 0.01, 0.2])
    preds = [[r[0], prediction(fault)] for r in rows]
    if k % 5 == 2:
        constant = rng.choice(["0", "6.25", "30"])
        preds = [[i, constant] for i, _ in preds]
    if k % 19 == 10:
        # Text in an unscored row: the column is text, yet what is scored converts.
        for row, pred in zip(rows, preds):
            if row[6] == "1":
                pred[1] = "high"
                break
    if k % 23 == 13:
        preds = [[i, rng.choice(["True", "False"])] for i, _ in preds]  # a bool column
    if k % 11 == 3:
        preds = [[i + ".0", p] for i, p in preds]  # float ids equal the int ones
    if k % 17 == 8:
        preds[rng.randrange(len(preds))][0] = rng.choice(["", "x", "0"])
    preds = spoil(preds, lambda: str(rng.randint(next_id, next_id + 9)))
    header = "id,pressure"
    r = rng.random()
    if r < 0.04:
        header = rng.choice(["ID,pressure", "id,Pressure", "id,pressure_pred"])
    elif r < 0.08:
        header = "pressure,id"
        preds = [[p, i] for i, p in preds]
    elif r < 0.12:
        header = "id,pressure,breath_id"
        preds = [[i, p, "1"] for i, p in preds]
    elif r < 0.14:
        preds = []
    answers = csv_text("id,breath_id,R,C,time_step,u_in,u_out,pressure", rows)
    return answers, csv_text(header, preds)
