"""Upstream's grade() for predict-volcanic-eruptions-ingv-oe (its
prepare_for_grading: column checks, the segment_id-set check,
answers.merge of the submission's segment_id and time_to_eruption; then
sklearn's mean_absolute_error and int(round(...))), restated, on
scikit-learn 1.5.1, numpy 1.26.4 and pandas 2.2.2 of the reference
environment. Cases: real-sized segment ids and times; integer errors whose
mean ends in .5 (round half to even); exact, constant, huge (an infinite
mean: int() raises) and tiny predictions and float spellings; NaN, infinite
and text predictions; ids shuffled, dropped, duplicated (scored once per
repeat, no row-count check), foreign and spelled as floats; missing,
renamed and extra columns; empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import mean_absolute_error

MIN_SCORED = 132
MIN_RAISED = 60
ID, TARGET = "segment_id", "time_to_eruption"


def grade(submission, answers):
    assert TARGET in answers.columns and ID in answers.columns
    if TARGET not in submission.columns:
        raise ValueError("no target")
    if ID not in submission.columns:
        raise ValueError("no id")
    if set(submission[ID]) != set(answers[ID]):
        raise ValueError("ids")
    merged = answers.merge(submission[[ID, TARGET]], on=ID, suffixes=("_true", "_pred"))
    error = mean_absolute_error(y_true=merged[TARGET + "_true"], y_pred=merged[TARGET + "_pred"])
    return int(round(error))


ODD = ["", "nan", "inf", "-inf", "abc", "NA", "None", "null", "N/A", "-nan", "Infinity",
       "+1.5", " 2.5", "2.5 ", "1e5", "0x10", "True", "1.5e", "."]


def prediction(truth, halves):
    if halves:  # integer errors: the mean may end in .5
        return str(int(truth) + rng.choice([-3, -2, -1, 0, 1, 2, 3]))
    r = rng.random()
    if r < 0.1:
        return truth
    if r < 0.15:
        return rng.choice(["0", "0.0", "1e-3", "2.2E7", "1e300", "-1e300", "5e-324", "1.7e308"])
    if r < 0.18:
        return truth + ".0"
    return repr(float(truth) + rng.gauss(0, 5e6))


def make_case(k):
    n = rng.choice([1, 2, 4, 20, 60, 400]) if k else 4000
    halves = k % 4 == 1
    if halves:
        n = rng.choice([2, 4, 6])
    ids = rng.sample(range(513181, 2146939131), n)
    rows = [[str(i), str(rng.randint(6250, 49046087))] for i in ids]
    sub = [[i, prediction(t, halves)] for i, t in rows]
    sub = spoil(sub, lambda: str(rng.randint(1, 500000)))
    header = f"{ID},{TARGET}"
    r = rng.random()
    if r < 0.03:
        header = f"{TARGET},{ID}"
        sub = [[p, i] for i, p in sub]
    elif r < 0.06:
        header = f"{ID},prediction"
    elif r < 0.09:
        header = f"{ID},{TARGET},extra"
        sub = [s + ["x"] for s in sub]
    elif r < 0.17:
        sub = [[i + ".0", p] for i, p in sub]  # float ids merge with int ones
    elif r < 0.22 and sub:
        sub.append(list(sub[rng.randrange(len(sub))]))  # a repeat, scored twice
    elif r < 0.23:
        sub = []
    elif r < 0.26:
        header = f"{ID},{TARGET},{TARGET}"  # pandas names the second one .1
        sub = [s + ["0"] for s in sub]
    elif r < 0.28 and sub:
        sub[rng.randrange(len(sub))][0] = rng.choice(["", "NA"])  # a missing id
    if sub and rng.random() < 0.15:
        sub[rng.randrange(len(sub))][1] = rng.choice(ODD)
    return csv_text(f"{ID},{TARGET}", rows), csv_text(header, sub)
