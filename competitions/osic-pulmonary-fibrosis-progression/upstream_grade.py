"""Upstream's grade() for osic-pulmonary-fibrosis-progression (its
prepare_for_metric: columns, every Patient_Week known, numeric dtypes,
Confidence NaN -> 0, each patient's three latest measured weeks, both sides
sorted by Patient_Week; then its modified Laplace log likelihood with numpy's
maximum, minimum, sqrt, log and mean), restated, on the reference environment's
pandas 2.2.2 and numpy 1.26.4. Cases: answers in prepare's shape (every
patient over every week, FVC missing where unmeasured, negative weeks, patients
with fewer than three or no measured weeks); submissions covering all, some or
none of the scored weeks, repeated weeks (numpy broadcasting raises unless one
side has one element), foreign, empty and numeric Patient_Weeks, FVC and
Confidence text, empty, NaN, inf, negative, huge, tiny, bool and "1e3"-style,
missing columns. See //tools/upstream_grade:driver.py for the names this script
is given."""
import warnings

MIN_SCORED = 135
MIN_RAISED = 55


def laplace_log_likelihood(actual, predicted, confidence):
    sd = np.maximum(confidence, 70)
    delta = np.minimum(np.abs(actual - predicted), 1000)
    with warnings.catch_warnings():  # the mean of nothing: NaN, and a warning
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.mean(-np.sqrt(2) * delta / sd - np.log(np.sqrt(2) * sd))


def grade(submission, answers):
    for column in ("Patient_Week", "FVC", "Confidence"):
        if column not in submission.columns:
            raise ValueError(f"missing {column}")
    known = answers["Patient_Week"].values
    for key in submission["Patient_Week"]:
        if key not in known:
            raise ValueError("unknown Patient_Week")
    for column in ("FVC", "Confidence"):
        if not pd.api.types.is_numeric_dtype(submission[column]):
            raise ValueError(f"{column} not numeric")
    submission["Confidence"] = submission["Confidence"].fillna(0)

    # Only each patient's three latest measured weeks are scored.
    answers = answers.dropna(subset=["FVC"])
    answers["Week_Number"] = answers["Patient_Week"].apply(lambda key: int(key.split("_")[-1]))
    answers = answers.sort_values("Week_Number").groupby("Patient").tail(3)
    answers = answers.drop(columns=["Week_Number"])
    submission = submission[submission["Patient_Week"].isin(answers["Patient_Week"])]
    submission = submission.sort_values(by="Patient_Week")
    answers = answers.sort_values(by="Patient_Week")

    scored = submission["Patient_Week"].isin(answers["Patient_Week"])
    actual = answers.loc[answers["Patient_Week"].isin(submission["Patient_Week"]), "FVC"].values
    return laplace_log_likelihood(actual, submission.loc[scored, "FVC"].values,
                                  submission.loc[scored, "Confidence"].values)


def number(usual, odd):
    r = rng.random()
    if r < 0.3:
        return rng.choice(usual)
    if r < 0.32:
        return rng.choice(odd)
    return repr(round(rng.uniform(800, 4500), rng.choice([0, 1, 17])))


def make_case(k):
    patients = [f"ID00{rng.randrange(10**20):020d}" for _ in range(rng.randint(1, 5))]
    if k % 40 == 0:
        patients = [f"ID00{i:020d}" for i in range(60)]
    first = rng.randint(-12, 10)
    weeks = list(range(first, first + rng.choice([1, 3, 8, 30])))
    rows = []
    for p in patients:
        measured = set(rng.sample(weeks, rng.randint(0 if rng.random() < 0.1 else 1,
                                                     min(len(weeks), 6))))
        for w in weeks:
            if w in measured:
                fvc = f"{rng.randint(900, 4500)}.0"
                extra = [repr(round(rng.uniform(30, 120), 6)), str(rng.randint(50, 85)),
                         rng.choice(["Male", "Female"]), rng.choice(["Ex-smoker", "Never smoked"])]
            else:
                fvc, extra = "", ["", "", "", ""]
            rows.append([p, str(w), fvc] + extra + [f"{p}_{w}", "100"])
    header = "Patient,Weeks,FVC,Percent,Age,Sex,SmokingStatus,Patient_Week,Confidence"
    answers = csv_text(header, rows)

    fvc = (["2000", "2000.0", "2315", "1e3", "0"], ["inf", "-inf", "", "nan", "-5e300"])
    conf = (["100", "100.0", "70", "69.9", "285", "1e-3"], ["0", "-100", "", "inf", "1e300"])
    subs = [[r[7], number(*fvc), number(*conf)] for r in rows]
    if k % 7 == 3:
        subs = [s for s in subs if rng.random() < 0.3]  # only some weeks submitted
    if k % 9 == 4:
        subs = [s for s in subs if s[0].endswith(f"_{weeks[0]}")]  # maybe none scored
    if k % 6 == 1:
        column = rng.choice([1, 2])
        if subs:
            subs[rng.randrange(len(subs))][column] = rng.choice(["high", "True", "1,5"])
    if k % 10 == 5:
        subs = [[s[0], rng.choice(["True", "False"]), s[2]] for s in subs]  # bool dtype
    subs = spoil(subs, lambda: rng.choice([f"{patients[0]}_{weeks[-1] + 1}", "", "12",
                                           f"{patients[0]}_{weeks[0]}.0", "ID0_1"]))
    measured = [s for s, r in zip(subs, rows) if r[2]]
    if k % 25 == 12 and measured:
        subs = [measured[-1], list(measured[-1])]  # one scored week twice: broadcasts
    if k % 8 == 7 and subs:
        subs.append(list(rng.choice(subs)))  # a week twice
    sub_header = "Patient_Week,FVC,Confidence"
    r = rng.random()
    if r < 0.05:
        sub_header = rng.choice(["Patient_Week,fvc,Confidence", "PatientWeek,FVC,Confidence",
                                 "Patient_Week,FVC,confidence"])
    elif r < 0.1:
        sub_header = "Confidence,FVC,Patient_Week"
        subs = [s[::-1] for s in subs]
    return answers, csv_text(sub_header, [[c if "," not in c else f'"{c}"' for c in s]
                                          for s in subs])
