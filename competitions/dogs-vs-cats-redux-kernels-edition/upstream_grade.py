"""Upstream's grade() for dogs-vs-cats-redux-kernels-edition (prepare_for_metric,
then binary log_loss), restated, on the reference environment's pandas 2.2.2 and
scikit-learn 1.5.1. Cases: exact 0s and 1s (clipped), tiny and rounded values,
integer and float spellings of ids and labels, out-of-range, missing and text
values, odd spellings (NA, null, " 0.5", +0.5, .5, Infinity, quoted, 0x1, 1_0,
True); dropped, duplicated and foreign ids; one-class answers; missing columns
and empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import log_loss

MIN_SCORED = 110
MIN_RAISED = 75


def grade(submission, answers):
    assert "id" in answers.columns and "label" in answers.columns
    if "id" not in submission.columns or "label" not in submission.columns:
        raise ValueError("missing column")
    if set(submission["id"]) != set(answers["id"]):
        raise ValueError("ids")
    if len(submission) != len(answers):
        raise ValueError("length")
    if not ((submission["label"] >= 0) & (submission["label"] <= 1)).all():
        raise ValueError("range")
    y_pred = submission.sort_values("id")["label"]
    y_true = answers.sort_values("id")["label"]
    return log_loss(y_true=y_true, y_pred=y_pred)


def prediction():
    r = rng.random()
    if r < 0.2:
        return rng.choice(["0", "1", "0.0", "1.0", "1e-20", "5e-324", "0.5", "9.99e-1"])
    return repr(round(rng.random(), rng.choice([2, 5, 17])))


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 400]) if k else 5000
    ids = rng.sample(range(1, 3 * n + 2), n)
    share = rng.choice([0.1, 0.5])
    labels = [str(int(rng.random() < share)) for _ in ids]
    if n > 1 and len(set(labels)) == 1:
        labels[0] = "01"[labels[0] == "0"]
    if k % 17 == 4:
        labels = [rng.choice("01")] * n  # one class only: log_loss raises
    spelling = rng.choice([str, str, str, lambda i: f"{i}.0"])  # 1.0 equals 1 in a set
    rows = [[spelling(i), prediction()] for i in ids]
    if rng.random() < 0.2:  # one bad value
        rows[0][1] = rng.choice(["abc", "", "nan", "1.5", "-0.1", "inf", "1.0000001", "-0.0", "NA",
                                  "null", " 0.5", "+0.5", ".5", "5.", "5E-1", "Infinity",
                                  '"0.25"', "0x1", "1_0", "True"])
    rows = spoil(rows, lambda: str(rng.randrange(10**6)))
    header = "id,label"
    r = rng.random()
    if r < 0.03:
        header = rng.choice(["id,prediction", "image,label", "label"])
        if header == "label":
            rows = [row[1:] for row in rows]
    elif r < 0.05:
        rows = []
    elif r < 0.08:
        header, rows = "label,id", [row[::-1] for row in rows]
    if k % 23 == 5:
        rows = [[i, rng.choice(["0", "1"])] for i, _ in rows]  # hard 0/1 predictions
    return csv_text("id,label", [[str(i), l] for i, l in zip(ids, labels)]), csv_text(header, rows)
