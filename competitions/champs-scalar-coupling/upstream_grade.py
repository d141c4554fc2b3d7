"""Upstream's grade() for champs-scalar-coupling (its prepare_for_grading:
column checks, the id-set check, answers.merge of the submission's id and
scalar_coupling_constant with suffixes _true/_pred; then per groupby("type")
np.log of sklearn's mean_absolute_error, averaged with np.mean), restated,
on scikit-learn 1.5.1, numpy 1.26.4 and pandas 2.2.2 of the reference
environment. Cases: one to eight coupling types; exact predictions (log 0 is
-inf), constant, rounded, huge and tiny values and float spellings; NaN,
infinite and text predictions; ids shuffled, dropped, duplicated (scored
once per repeat, no row-count check), foreign and spelled as floats;
missing, renamed and extra columns; empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
import warnings

from sklearn.metrics import mean_absolute_error

MIN_SCORED = 144
MIN_RAISED = 48
TARGET = "scalar_coupling_constant"


def grade(submission, answers):
    assert TARGET in answers.columns and "id" in answers.columns and "type" in answers.columns
    if TARGET not in submission.columns:
        raise ValueError("no target")
    if "id" not in submission.columns:
        raise ValueError("no id")
    if set(submission["id"]) != set(answers["id"]):
        raise ValueError("ids")
    merged = answers.merge(submission[["id", TARGET]], on="id", suffixes=("_true", "_pred"))
    logs = []
    with warnings.catch_warnings():  # log(0)
        warnings.simplefilter("ignore", RuntimeWarning)
        for _, group in merged.groupby("type"):
            error = mean_absolute_error(group[TARGET + "_true"], group[TARGET + "_pred"])
            logs.append(np.log(error))
        return np.mean(logs)


ODD = ["", "nan", "inf", "-inf", "abc", "NA", "None", "null", "N/A", "-nan", "Infinity",
       "+1.5", " 2.5", "2.5 ", "1e5", "0x10", "True", "1.5e", "."]
TYPES = ["1JHC", "1JHN", "2JHC", "2JHH", "2JHN", "3JHC", "3JHH", "3JHN"]


def truth_value(kind):
    base = {"1J": 90.0, "2J": -5.0, "3J": 3.0}[kind[:2]]
    return repr(round(base + rng.gauss(0, 10), rng.choice([3, 5, 6])))


def prediction(truth):
    r = rng.random()
    if r < 0.1:
        return truth
    if r < 0.15:
        return rng.choice(["0", "0.0", "1e-3", "-1E2", "1e300", "-1e300", "5e-324", "100"])
    if r < 0.18:
        return truth + "0"
    return repr(float(truth) + rng.choice([rng.gauss(0, 1), rng.uniform(-20, 20), 1e-9]))


def make_case(k):
    n = rng.choice([1, 2, 5, 20, 60, 200]) if k else 3000
    start = rng.randrange(4_000_000, 4_600_000)
    ids = [start + i for i in range(n)]
    kinds = rng.sample(TYPES, rng.randint(1, 4 if k % 3 else 8))
    rows = []
    for i in ids:
        kind = rng.choice(kinds)
        rows.append([str(i), f"dsgdb9nsd_{rng.randint(1, 133885):06d}", str(rng.randint(0, 9)),
                     str(rng.randint(0, 20)), kind, truth_value(kind)])
    exact = k % 9 == 4  # one type predicted exactly: log(0)
    sub = [[row[0], row[5] if exact and row[4] == kinds[0] else prediction(row[5])]
           for row in rows]
    sub = spoil(sub, lambda: str(rng.randrange(5_000_000, 6_000_000)))
    header = f"id,{TARGET}"
    r = rng.random()
    if r < 0.03:
        header = f"{TARGET},id"
        sub = [[p, i] for i, p in sub]
    elif r < 0.06:
        header = "id,prediction"
    elif r < 0.09:
        header = f"id,{TARGET},type"
        sub = [s + [rng.choice(TYPES)] for s in sub]
    elif r < 0.16:
        sub = [[i + ".0", p] for i, p in sub]  # float ids merge with int ones
    elif r < 0.2 and sub:
        sub.append(list(sub[rng.randrange(len(sub))]))  # a repeat, scored twice
    elif r < 0.21:
        sub = []
    elif r < 0.24:
        sub = [[i, "0"] for i, _ in sub]  # the sample submission
    elif r < 0.26:
        header = f"id,{TARGET},{TARGET}"  # pandas names the second one .1
        sub = [s + ["0"] for s in sub]
    elif r < 0.28 and sub:
        sub[rng.randrange(len(sub))][0] = rng.choice(["", "NA"])  # a missing id
    if sub and rng.random() < 0.15:
        sub[rng.randrange(len(sub))][1] = rng.choice(ODD)
    answers = csv_text(f"id,molecule_name,atom_index_0,atom_index_1,type,{TARGET}", rows)
    return answers, csv_text(header, sub)
