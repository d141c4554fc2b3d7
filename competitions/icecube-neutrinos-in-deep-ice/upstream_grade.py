"""Upstream's grade() for icecube-neutrinos-in-deep-ice (its prepare_for_metric:
exactly the columns event_id, azimuth, zenith; numpy number dtypes; finite
values; length; the same event_id set; both sorted by event_id; then its
angular_dist_score: numpy sin, cos, clip, arccos and average), restated, on
the reference environment's pandas 2.2.2 and numpy 1.26.4. Cases: predictions
exact, near the truth (clipping), antipodal, random, constant, integer,
beyond 2 pi, huge, tiny and "1e-3"-style; NaN, empty, inf, text and bool
cells; event ids written as floats, dropped, duplicated and foreign; missing,
renamed, repeated and extra columns, and empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""

MIN_SCORED = 115
MIN_RAISED = 75

COLUMNS = {"azimuth", "zenith", "event_id"}


def grade(submission, answers):
    if set(submission.columns) != COLUMNS:
        raise ValueError("columns")
    for column in ("azimuth", "zenith"):
        if not np.issubdtype(submission[column].dtype, np.number):
            raise ValueError(f"{column} not a number")
    for column in ("azimuth", "zenith"):
        if not np.all(np.isfinite(submission[column])):
            raise ValueError(f"{column} not finite")
    if len(submission) != len(answers):
        raise ValueError("length")
    if set(submission["event_id"]) != set(answers["event_id"]):
        raise ValueError("event ids")
    submission = submission.sort_values("event_id")
    answers = answers.sort_values("event_id")
    az_true, zen_true = answers["azimuth"].to_numpy(), answers["zenith"].to_numpy()
    az_pred, zen_pred = submission["azimuth"].to_numpy(), submission["zenith"].to_numpy()
    dot = (np.sin(zen_true) * np.sin(zen_pred)
           * (np.cos(az_true) * np.cos(az_pred) + np.sin(az_true) * np.sin(az_pred))
           + np.cos(zen_true) * np.cos(zen_pred))
    return np.average(np.abs(np.arccos(np.clip(dot, -1, 1))))


def predicted(true_az, true_zen, style, fault):
    if rng.random() < fault:
        bad = rng.choice(["", "nan", "inf", "-inf", "up", "True"])
        return (bad, repr(true_zen)) if rng.random() < 0.5 else (repr(true_az), bad)
    if style == "exact":
        return repr(true_az), repr(true_zen)
    if style == "near":
        return repr(true_az + rng.gauss(0, 1e-8)), repr(true_zen + rng.gauss(0, 1e-8))
    if style == "opposite":
        return repr(true_az + np.pi), repr(np.pi - true_zen)
    if style == "constant":
        return "3.14", "1.57"
    if style == "odd":
        return (rng.choice(["0", "7", "-3", "1e-3", "1e300", "6.283185307179586", "5e-324"]),
                rng.choice(["0", "1", "3.141592653589793", "-1.0", "1E2", "12.5"]))
    return repr(rng.uniform(0, 2 * np.pi)), repr(rng.uniform(0, np.pi))


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 100, 400]) if k % 60 else 5000
    start = rng.choice([0, 45, 2 ** 31])
    ids = sorted(rng.sample(range(start, start + 10 * n + 10), n))
    truth = [(rng.uniform(0, 2 * np.pi), rng.uniform(0, np.pi)) for _ in ids]
    style = rng.choice(["exact", "near", "opposite", "constant", "odd", "random"])
    fault = rng.choice([0, 0, 0, 0.01, 0.1])
    subs = []
    for i, (az, zen) in zip(ids, truth):
        subs.append([str(i), *predicted(az, zen, style, fault)])
    if k % 31 == 20:
        subs = [[s[0], rng.choice(["True", "False"]), s[2]] for s in subs]  # bool: not a number
    if k % 9 == 4:
        subs = [[s[0] + ".0"] + s[1:] for s in subs]  # float event ids
    subs = spoil(subs, lambda: str(rng.randint(0, 2 ** 40)))
    header = "event_id,azimuth,zenith"
    r = rng.random()
    if r < 0.04:
        header = rng.choice(["event_id,azimuth,azimuth", "event_id,Azimuth,zenith",
                             "id,azimuth,zenith"])
    elif r < 0.07:
        header = "event_id,azimuth,zenith,batch_id"
        subs = [s + ["1"] for s in subs]
    elif r < 0.12:
        header = "zenith,event_id,azimuth"
        subs = [[s[2], s[0], s[1]] for s in subs]
    elif r < 0.14:
        subs = []
    answers = [[str(i), repr(az), repr(zen)] for i, (az, zen) in zip(ids, truth)]
    return csv_text("event_id,azimuth,zenith", answers), csv_text(header, subs)
