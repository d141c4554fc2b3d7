"""Upstream's grade() for nfl-player-contact-detection (prepare_for_metric, then
matthews_corrcoef on the id-sorted `contact` columns), restated, on the
reference environment's pandas 2.2.2 and scikit-learn 1.5.1. Cases: good,
constant and random 0/1 predictions (MCC 0 when a side is constant); one-class
answers; 0/1 spelled 1.0 or True/False; other integer labels (multiclass
MCC); probabilities (continuous targets raise), NaN, inf and text values
(NULL, +1, quoted, " 0", 1.);
dropped, duplicated and foreign ids; missing columns; empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import matthews_corrcoef

MIN_SCORED = 135
MIN_RAISED = 48


def grade(submission, answers):
    assert "contact_id" in answers.columns and "contact" in answers.columns
    if not {"contact_id", "contact"}.issubset(set(submission.columns)):
        raise ValueError("missing columns")
    if set(submission["contact_id"]) != set(answers["contact_id"]):
        raise ValueError("ids")
    if len(submission) != len(answers):
        raise ValueError("length")
    submission = submission.sort_values("contact_id")
    answers = answers.sort_values("contact_id")
    return matthews_corrcoef(answers["contact"], submission["contact"])


def new_id():
    play = f"{rng.randrange(58000, 58600)}_{rng.randrange(1000, 4000):06d}"
    other = rng.choice(["G", str(rng.randrange(35000, 55000))])
    return f"{play}_{rng.randrange(300)}_{rng.randrange(35000, 55000)}_{other}"


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 400]) if k else 20000
    ids = list(dict.fromkeys(new_id() for _ in range(n)))
    share = rng.choice([0.05, 0.3, 0.5])
    labels = [int(rng.random() < share) for _ in ids]
    if k % 13 == 5:
        labels = [rng.randrange(2)] * len(ids)  # one class in the answers
    style = rng.choice(["good", "good", "random", "constant", "float", "bool"])
    one, zero = {"float": ("1.0", "0.0"), "bool": ("True", "False")}.get(style, ("1", "0"))
    rows = []
    for i, l in zip(ids, labels):
        if style == "constant":
            guess = labels[0] if k % 2 else 1 - labels[0]
        elif style == "random":
            guess = rng.randrange(2)
        else:
            guess = l if rng.random() < 0.8 else 1 - l
        rows.append([i, one if guess else zero])
    if rng.random() < 0.2:  # one odd value
        rows[rng.randrange(len(rows))][1] = rng.choice(
            ["", "nan", "abc", "inf", "0.5", "2", "-1", "1e0", "0.9999999", "NULL", "+1", '"1"',
             " 0", "1.", "True"])
    rows = spoil(rows, new_id)
    header = "contact_id,contact"
    r = rng.random()
    if r < 0.04:
        header = rng.choice(["contact_id,prediction", "id,contact"])
    elif r < 0.08:
        header, rows = "contact,contact_id,step", [[row[1], row[0], "7"] for row in rows]
    elif r < 0.1:
        rows = []
    answers = [[i, str(l)] for i, l in zip(ids, labels)]
    return csv_text("contact_id,contact", answers), csv_text(header, rows)
