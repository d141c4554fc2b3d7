"""Upstream's grade() for rsna-breast-cancer-detection (prepare_for_metric, then
its pfbeta loop with beta = 1: the probabilistic F1), restated, on the
reference environment's pandas 2.2.2 and numpy 1.26.4. The loop's Python
types matter: min(max(p, 0), 1) turns a negative p into the int 0 and one
above 1 into the int 1, numpy scalars divide 0 by 0 into NaN while ints raise
ZeroDivisionError, and NaN passes the clip and makes the score 0. Cases: soft,
hard, all-zero, all-negative and out-of-range predictions, NaN, inf and text
values (NA, None, +.5, quoted), int and True/False columns, answers without a
positive, dropped, duplicated and foreign ids, missing columns and empty
submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
MIN_SCORED = 140
MIN_RAISED = 45


def pfbeta(labels, predictions, beta):
    positives, ctp, cfp = 0, 0, 0
    for label, p in zip(labels, predictions):
        p = min(max(p, 0), 1)
        if label:
            positives += 1
            ctp += p
        else:
            cfp += p
    precision = ctp / (ctp + cfp)
    recall = ctp / positives
    if precision > 0 and recall > 0:
        return (1 + beta * beta) * (precision * recall) / (beta * beta * precision + recall)
    return 0


def grade(submission, answers):
    assert "prediction_id" in answers.columns and "cancer" in answers.columns
    if "prediction_id" not in submission.columns or "cancer" not in submission.columns:
        raise ValueError("missing column")
    if len(submission) != len(answers):
        raise ValueError("length")
    submission = submission.sort_values(by="prediction_id")
    answers = answers.sort_values(by="prediction_id")
    if (submission["prediction_id"].values != answers["prediction_id"].values).any():
        raise ValueError("ids not aligned")
    return pfbeta(answers["cancer"].to_numpy(), submission["cancer"].to_numpy(), beta=1)


def prediction(style):
    if style == "hard":
        return rng.choice(["0", "1"])
    if style == "zero":
        return rng.choice(["0", "0.0"])
    if style == "negative":
        return rng.choice(["-0.5", "-1", "-1e-9", "0"])
    if style == "wide":
        return rng.choice(["-0.5", "1.5", "2", "inf", "-inf", repr(rng.uniform(-1, 2))])
    return repr(round(rng.random() ** 3, rng.choice([2, 17])))


def new_id():
    return f"{rng.randrange(1, 65535)}_{rng.choice('LR')}"


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 400]) if k else 8000
    ids = list(dict.fromkeys(new_id() for _ in range(n)))
    labels = [int(rng.random() < rng.choice([0.05, 0.3])) for _ in ids]
    if k % 19 != 4:
        labels[0] = 1  # a positive, or pfbeta divides by zero
    style = rng.choice(["soft", "soft", "soft", "hard", "zero", "negative", "wide"])
    rows = [[i, prediction(style)] for i in ids]
    if rng.random() < 0.15:  # one odd value
        rows[rng.randrange(len(rows))][1] = rng.choice(
            ["", "nan", "abc", "-0.0", "1e-300", "NA", "None", "+.5", "1E5", '"0.5"', "-inf"])
    if k % 23 == 6:  # a True/False column: pandas reads it as bool
        rows = [[i, rng.choice(["True", "False"])] for i, _ in rows]
    rows = spoil(rows, new_id)
    header = "prediction_id,cancer"
    r = rng.random()
    if r < 0.04:
        header = rng.choice(["prediction_id,prediction", "patient_id,cancer"])
    elif r < 0.08:
        header, rows = "cancer,prediction_id,site", [[row[1], row[0], "1"] for row in rows]
    elif r < 0.1:
        rows = []
    answers = [[i, str(l)] for i, l in zip(ids, labels)]
    return csv_text("prediction_id,cancer", answers), csv_text(header, rows)
