"""Upstream's grade() for new-york-city-taxi-fare-prediction (its
prepare_for_metric: column checks, sort_values("key") on both sides, no key
or row-count check; then sklearn's root_mean_squared_error), restated, on
scikit-learn 1.5.1, numpy 1.26.4 and pandas 2.2.2 of the reference
environment. Cases: the real answers' eight columns, timestamp keys and
fares (zeros, negatives); exact, constant (the sample's 11.35), rounded,
huge and tiny predictions and float spellings; NaN, infinite and text
fares; keys shuffled, dropped, duplicated, foreign (paired by position
after the sort), missing and repeated with different fares (numpy's
unstable object sort orders the repeats); missing, renamed and extra
columns; empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import root_mean_squared_error

MIN_SCORED = 150
MIN_RAISED = 40


def grade(submission, answers):
    assert "fare_amount" in answers.columns and "key" in answers.columns
    if "fare_amount" not in submission.columns:
        raise ValueError("no fare_amount")
    if "key" not in submission.columns:
        raise ValueError("no key")
    submission = submission.sort_values("key")
    answers = answers.sort_values("key")
    return root_mean_squared_error(answers["fare_amount"], submission["fare_amount"])


ODD = ["", "nan", "inf", "-inf", "abc", "NA", "None", "null", "N/A", "-nan", "Infinity",
       "+1.5", " 2.5", "2.5 ", "1e5", "0x10", "True", "1.5e", "."]


def new_key():
    stamp = (f"20{rng.randint(9, 15):02d}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d} "
             f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}")
    return f"{stamp}.{rng.randint(1, 9999999):07d}" if rng.random() < 0.5 else stamp + ".0000001"


def fare():
    r = rng.random()
    if r < 0.03:
        return rng.choice(["0.0", "-2.5", "0"])
    return repr(round(rng.uniform(2.5, 60), rng.choice([1, 2])))


def prediction(truth):
    r = rng.random()
    if r < 0.1:
        return truth
    if r < 0.15:
        return rng.choice(["0", "11.35", "1e-3", "1E2", "5e-324", "-0.0", "7."])
    if r < 0.18:
        return truth + "0"
    return repr(float(truth) + rng.gauss(0, 4))


def make_case(k):
    n = rng.choice([1, 2, 5, 20, 60, 400]) if k else 9914
    keys = list(dict.fromkeys(new_key() for _ in range(n)))
    rows = []
    for key in keys:
        place = [repr(round(rng.uniform(-74.05, -73.75), 6)) for _ in range(2)]
        rows.append([key, fare(), key[:19] + " UTC", place[0], repr(round(rng.uniform(40.6, 40.9),
                     6)), place[1], repr(round(rng.uniform(40.6, 40.9), 6)),
                     str(rng.randint(0, 6))])
    sub = [[r[0], prediction(r[1])] for r in rows]
    if k % 13 == 6:
        sub = [[s[0], "11.35"] for s in sub]  # the sample submission
    sub = spoil(sub, new_key)
    header = "key,fare_amount"
    r = rng.random()
    if r < 0.03:
        header = "fare_amount,key"
        sub = [[p, i] for i, p in sub]
    elif r < 0.06:
        header = "key,fare"
    elif r < 0.09:
        header = "key,fare_amount,passenger_count"
        sub = [s + ["1"] for s in sub]
    elif r < 0.2 and len(sub) > 1:
        sub[0][0] = sub[rng.randrange(1, len(sub))][0]  # a repeated key, another fare
    elif r < 0.22 and sub:
        sub[rng.randrange(len(sub))][0] = ""  # a missing key sorts last
    elif r < 0.23:
        sub = []
    elif r < 0.28 and sub:
        sub[rng.randrange(len(sub))][1] = rng.choice(["1e200", "-1e200", "1e155", "1.7e308"])
    elif r < 0.3:
        header = "key,fare_amount,fare_amount"  # pandas names the second one .1
        sub = [s + ["0"] for s in sub]
    if sub and rng.random() < 0.15:
        sub[rng.randrange(len(sub))][1] = rng.choice(ODD)
    header_answers = ("key,fare_amount,pickup_datetime,pickup_longitude,pickup_latitude,"
                      "dropoff_longitude,dropoff_latitude,passenger_count")
    return csv_text(header_answers, rows), csv_text(header, sub)
