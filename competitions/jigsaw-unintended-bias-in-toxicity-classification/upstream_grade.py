"""Upstream's grade() for jigsaw-unintended-bias-in-toxicity-classification
(prepare_for_metric's checks and 0.5 thresholds, then roc_auc_score overall and
on each identity's subgroup, BPSN and BNSP rows, power means with p = -5 and
weights 0.25), restated, on the reference environment's pandas 2.2.2, numpy
1.26.4 and scikit-learn 1.5.1 (whose AUCs are numpy floats, so an AUC of 0
gives 0 ** -5 = inf and a power mean of 0 instead of raising). Cases:
fractional and NaN labels and identities; predictions that are good,
inverted (AUCs of 0), constant, hard, exactly 0.5 or NaN (thresholded to 0);
identities lacking a class (roc_auc_score raises); text predictions; both
`prediction` and `toxicity` columns; ids spelled as floats; dropped,
duplicated and foreign ids; missing columns; empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import roc_auc_score

CASES = 60  # 28 roc_auc_score calls and pandas filters a case: ~50 ms each
MIN_SCORED = 30
MIN_RAISED = 24

IDENTITIES = ["male", "female", "homosexual_gay_or_lesbian", "christian", "jewish", "muslim",
              "black", "white", "psychiatric_or_mental_illness"]


def at_least_half(column):
    return column.apply(lambda x: 1 if x >= 0.5 else 0)


def power_mean(scores, p):
    return (sum([s**p for s in scores]) / len(IDENTITIES)) ** (1 / p)


def grade(submission, answers, p=-5, w=0.25):
    if "id" not in submission.columns:
        raise ValueError("no id column")
    if "prediction" not in submission.columns and "toxicity" not in submission.columns:
        raise ValueError("no prediction column")
    assert "id" in answers.columns and "toxicity" in answers.columns
    submission = submission.sort_values("id")
    answers = answers.sort_values("id")
    if (submission["id"].values != answers["id"].values).any():
        raise ValueError("ids")
    assert all(c in answers.columns for c in IDENTITIES)
    submission.rename(columns={"prediction": "toxicity"}, inplace=True)
    submission["toxicity"] = at_least_half(submission["toxicity"])
    answers["toxicity"] = at_least_half(answers["toxicity"])
    for c in IDENTITIES:
        answers[c] = at_least_half(answers[c])

    def auc(rows):
        chosen = answers[rows]
        picked = submission[submission["id"].isin(chosen["id"])]
        return roc_auc_score(chosen["toxicity"], picked["toxicity"])

    overall = roc_auc_score(answers["toxicity"], submission["toxicity"])
    toxic = answers["toxicity"] == 1
    benign = answers["toxicity"] == 0
    per_identity = []
    for c in IDENTITIES:
        inside = answers[c] == 1
        per_identity.append([auc(inside), auc((benign & inside) | (toxic & (answers[c] != 1))),
                             auc((toxic & inside) | (benign & (answers[c] != 1)))])
    means = [power_mean([a[i] for a in per_identity], p) for i in range(3)]
    return w * overall + sum([w * m for m in means])


def fraction(p_one):
    r = rng.random()
    if r < 0.05:
        return ""
    if r < 0.15:
        return rng.choice(["0.5", "0.4999999", "0.0", "1.0"])
    if rng.random() < p_one:
        return rng.choice(["1.0", "0.6", "0.8333333333333334", "0.75"])
    return rng.choice(["0.0", "0.0", "0.1", "0.2", "0.3"])


def prediction(style, toxic):
    if style == "hard":
        return rng.choice(["0", "1"])
    if style == "constant":
        return "0.3"
    if style == "half":
        return rng.choice(["0.5", "0.49999999999999994", "0.5000000000000001"])
    if style == "nan" and rng.random() < 0.3:
        return rng.choice(["", "nan"])
    good = toxic if style != "inverted" else not toxic
    if rng.random() < (0.9 if style == "inverted" else 0.7):
        return repr(rng.uniform(0.5, 1) if good else rng.uniform(0, 0.5))
    return repr(round(rng.random(), rng.choice([2, 17])))


def make_case(k):
    n = rng.choice([4, 10, 40, 200]) if k else 2000
    ids = rng.sample(range(7000000, 7000000 + 3 * n), n)
    answers, rows = [], []
    style = rng.choice(["soft", "soft", "hard", "constant", "half", "inverted", "nan"])
    for row, i in enumerate(ids):
        if row < 4 and k % 7 != 2:  # every identity with both labels, inside and outside
            toxicity = ["0.0", "0.0", "1.0", "1.0"][row]
            groups = [["0.0", "1.0", "0.0", "1.0"][row]] * len(IDENTITIES)
        else:
            toxicity = fraction(0.3)
            groups = [fraction(0.3) for _ in IDENTITIES]
        answers.append([str(i), "text", toxicity] + groups)
        toxic = toxicity != "" and float(toxicity) >= 0.5
        rows.append([str(i), prediction(style, toxic)])
    if rng.random() < 0.05:
        rows[0][1] = "abc"
    if rng.random() < 0.1:
        rows = [[f"{i}.0", v] for i, v in rows]  # 7000000.0 == 7000000 for numpy and isin
    rows = spoil(rows, lambda: str(rng.randrange(6000000, 7000000)))
    header = "id,prediction"
    r = rng.random()
    if r < 0.05:
        header = "id,toxicity"  # the answers' own column name is accepted
    elif r < 0.09:
        header, rows = "id,prediction,toxicity", [row + [row[1]] for row in rows]
    elif r < 0.14 or k % 15 == 1:
        header = rng.choice(["id,score", "comment_id,prediction"])
    elif r < 0.16:
        rows = []
    answers_header = ",".join(["id", "comment_text", "toxicity"] + IDENTITIES)
    return csv_text(answers_header, answers), csv_text(header, rows)
