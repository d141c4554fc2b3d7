"""Upstream's grade() for stanford-covid-vaccine (MCRMSE: the mean over the
three scored targets of root_mean_squared_error on the rows whose `keep` is
True), restated, on the reference environment's pandas 2.2.2, numpy 1.26.4 and
scikit-learn 1.5.1. Upstream masks the sorted submission with the answers'
`keep` Series, which pandas aligns by row label (the submission's original row
number), not by sorted position; the cases keep the submission in the answers'
order, or shuffle it so that the label alignment keeps other rows (as many).
Cases also cover NaN, inf and text in scored cells, kept or
masked out, NaN in unscored columns, missing and extra columns, dropped,
duplicated and foreign ids, and empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import root_mean_squared_error

MIN_SCORED = 150
MIN_RAISED = 38

SCORED = ["reactivity", "deg_Mg_pH10", "deg_Mg_50C"]
SUBMITTED = ["id_seqpos"] + SCORED + ["deg_pH10", "deg_50C"]
ANSWER_COLUMNS = ["id_seqpos", "reactivity", "deg_Mg_pH10", "deg_pH10", "deg_Mg_50C", "deg_50C",
                  "keep"]


def grade(submission, answers):
    if len(submission) != len(answers):
        raise ValueError("length")
    assert set(answers.columns) >= set(["id_seqpos"] + SCORED + ["keep"])
    if not set(submission.columns) >= set(SUBMITTED):
        raise ValueError("missing columns")
    ours = submission[SUBMITTED].sort_values(by="id_seqpos").sort_index(axis=1)
    theirs = answers.sort_values(by="id_seqpos").sort_index(axis=1)
    for got, want in zip(ours["id_seqpos"], theirs["id_seqpos"]):
        if got != want:
            raise ValueError("id_seqpos differ")
    keep = theirs["keep"]
    ours, theirs = ours[keep], theirs[keep]  # the first aligns keep on row labels
    errors = [root_mean_squared_error(y_true=theirs[c], y_pred=ours[c]) for c in SCORED]
    return np.mean(errors)


def value():
    r = rng.random()
    if r < 0.1:
        return rng.choice(["0", "0.0", "1e-3", "-0.5", "10", "2.5e1"])
    return repr(round(rng.gauss(0.4, 0.5), rng.choice([3, 10, 17])))


def molecule():
    return f"id_{rng.getrandbits(36):09x}"


def make_case(k):
    molecules = [molecule() for _ in range(rng.choice([1, 1, 2, 3, 5]))]
    answers, rows = [], []
    for m in molecules:
        length = rng.choice([1, 2, 5, 12, 30]) if k else 107
        scored = rng.randrange(1, length) if length > 1 else 1
        if k % 41 == 3:
            scored = 0  # no row to score: sklearn raises
        for j in range(length):
            keep = j < scored
            truth = [f"{float(value()):.10f}" if keep else "0.0000000000" for _ in range(5)]
            answers.append([f"{m}_{j}"] + truth + [str(keep)])
            rows.append([f"{m}_{j}"] + [value() for _ in range(5)])
    if rng.random() < 0.3:  # one bad cell, in a kept row or not
        row = rng.randrange(len(rows))
        rows[row][rng.randrange(1, 6)] = rng.choice(["", "nan", "inf", "abc", "-inf", "1e308"])
    if rng.random() < 0.35:
        rows = spoil(rows, lambda: f"{molecule()}_0")  # shuffled: the mask moves
    elif rng.random() < 0.3:
        rows = sorted(rows)  # sorted as text: label alignment picks other rows
    header = ",".join(SUBMITTED)
    r = rng.random()
    if r < 0.05:
        header = ",".join(SUBMITTED[:4] + ["deg_pH"])
    elif r < 0.09:  # extra columns, another order
        header = "deg_50C,deg_Mg_50C,id_seqpos,reactivity,deg_Mg_pH10,deg_pH10,keep"
        rows = [[row[5], row[3], row[0], row[1], row[2], row[4], "True"] for row in rows]
    elif r < 0.11:
        rows = []
    return csv_text(",".join(ANSWER_COLUMNS), answers), csv_text(header, rows)
