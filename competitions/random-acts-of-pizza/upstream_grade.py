"""Upstream's grade() for random-acts-of-pizza (prepare_for_auroc_metric, then
roc_auc_score), restated, on the reference environment's pandas 2.2.2 and
scikit-learn 1.5.1. Cases: tied and rounded scores; out-of-range, missing and
text values; dropped, duplicated and foreign ids; one-class answers. See
//tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import roc_auc_score

ID, TARGET = "request_id", "requester_received_pizza"


def grade(submission, answers):
    if ID not in submission.columns or TARGET not in submission.columns:
        raise ValueError("missing column")
    if len(submission) != len(answers):
        raise ValueError("length")
    pd.to_numeric(submission[TARGET])
    if submission[TARGET].min() < 0 or submission[TARGET].max() > 1:
        raise ValueError("range")
    submission = submission.sort_values(ID)
    answers = answers.sort_values(ID)
    if (submission[ID].values != answers[ID].values).any():
        raise ValueError("ids")
    return roc_auc_score(y_true=answers[TARGET].to_numpy(), y_score=submission[TARGET].to_numpy())


def prediction():
    r = rng.random()
    if r < 0.01:
        return "abc"
    if r < 0.02:
        return ""
    if r < 0.03:
        return rng.choice(["1.5", "-0.1", "True"])
    if r < 0.3:
        return rng.choice(["0", "1", "0.5", "0.25"])
    return repr(round(rng.random(), rng.choice([1, 3, 17])))


def new_id():
    return f"t3_{rng.getrandbits(30):x}"


def make_case(k):
    n = rng.choice([2, 3, 10, 50, 400]) if k else 6000
    ids = [new_id() for _ in range(n)]
    labels = [str(int(rng.random() < rng.choice([0.1, 0.3, 0.5]))) for _ in ids]
    if k % 19 == 4:
        labels = ["0"] * n  # one class only: roc_auc_score raises
    submission = spoil([[i, prediction()] for i in ids], new_id)
    header = f"{ID},{TARGET}"
    return csv_text(header, [[i, l] for i, l in zip(ids, labels)]), csv_text(header, submission)
