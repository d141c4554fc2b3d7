"""Upstream's grade() for denoising-dirty-documents (column checks,
astype(float) of both value columns, the row-count check, sort_values("id")
and sort_index(axis=1), the elementwise id check; then sklearn's
root_mean_squared_error with the submission as y_true), restated, on
scikit-learn 1.5.1, numpy 1.26.4 and pandas 2.2.2 of the reference
environment. Cases: "<image>_<row>_<col>" pixel ids of a few small images
(their string order), intensities in 0..1 from 8-bit levels; exact, rounded,
constant (the sample's 1), out-of-range, huge and tiny predictions; float
spellings that only Python's float() reads ("1_0", " 0.5", "infinity"),
text, NaN and infinite values; ids shuffled, dropped, duplicated and
foreign; missing, renamed and extra columns; empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import root_mean_squared_error

MIN_SCORED = 115
MIN_RAISED = 75


def grade(submission, answers):
    assert "id" in answers.columns and "value" in answers.columns
    answers["value"].astype(float)
    if "id" not in submission.columns:
        raise ValueError("no id")
    if "value" not in submission.columns:
        raise ValueError("no value")
    submission["value"].astype(float)
    if len(submission) != len(answers):
        raise ValueError("rows")
    submission = submission.sort_values(by="id").sort_index(axis=1)
    answers = answers.sort_values(by="id").sort_index(axis=1)
    if (submission["id"].values != answers["id"].values).any():
        raise ValueError("ids")
    return root_mean_squared_error(y_true=submission["value"], y_pred=answers["value"])


# Python's float() reads "1_0", " 0.5" and "infinity"; pandas' reader does not.
ODD = ["", "nan", "inf", "-inf", "abc", "NA", "None", "null", "N/A", "-nan", "Infinity",
       "+1.5", " 2.5", "2.5 ", "1e5", "0x10", "True", "1.5e", ".", "1_0", "0_5",
       " 0.5", "infinity", "1e400", "0x1p-1", "\"1,5\""]


def level():
    r = rng.random()
    if r < 0.5:
        return "1.0"
    if r < 0.55:
        return "0.0"
    return repr(rng.randint(0, 255) / 255)


def prediction(truth):
    r = rng.random()
    if r < 0.15:
        return truth
    if r < 0.2:
        return rng.choice(["1", "0", "1.", ".5", "1e-3", "5E-1", "-0.0", "1.5", "-0.25"])
    if r < 0.3:
        return repr(round(float(truth), rng.choice([1, 2, 3])))
    return repr(min(1.0, max(0.0, float(truth) + rng.gauss(0, 0.1))))


def make_case(k):
    pixels = []
    for image in rng.sample([1, 4, 10, 12, 101, 102, 216], rng.randint(1, 3)):
        height, width = rng.randint(1, 12), rng.randint(1, 12)
        if k == 0:
            height, width = 60, 80
        pixels += [f"{image}_{r}_{c}" for r in range(1, height + 1) for c in range(1, width + 1)]
    rows = [[p, level()] for p in pixels]
    sub = [[p, prediction(v)] for p, v in rows]
    if k % 13 == 6:
        sub = [[p, "1"] for p, _ in sub]  # the sample submission
    sub = spoil(sub, lambda: f"{rng.choice([1, 4, 7])}_{rng.randint(1, 30)}_{rng.randint(1, 30)}")
    header = "id,value"
    r = rng.random()
    if r < 0.03:
        header = "value,id"
        sub = [[v, p] for p, v in sub]
    elif r < 0.06:
        header = "id,values"
    elif r < 0.09:
        header = "id,value,extra"
        sub = [s + ["x"] for s in sub]
    elif r < 0.2:
        sub = []
    elif r < 0.22 and sub:
        sub[rng.randrange(len(sub))][1] = rng.choice(["1e200", "-1e200", "1.7e308"])
    elif r < 0.25:
        header = "id,value,value"  # pandas names the second one .1
        sub = [s + ["0"] for s in sub]
    elif r < 0.27:
        sub = [[s[0], rng.choice(["True", "False"])] for s in sub]  # a bool column
    if sub and rng.random() < 0.2:
        sub[rng.randrange(len(sub))][1] = rng.choice(ODD)
    return csv_text("id,value", rows), csv_text(header, sub)
