"""Upstream's grade() for smartphone-decimeter-2022 (columns, total length, then
per answers trip in order of appearance: the same row count, rows paired by
position (not by UnixTimeMillis), and its notebook's calc_score: numpy deg2rad,
sin, cos, arcsin, sqrt, the mean of the 50th and 95th np.quantile of the
haversine distances; the mean over trips), restated, on the reference
environment's pandas 2.2.2 and numpy 1.26.4. Cases: trips of 1..300 epochs;
predictions exact, metres off, kilometres off, antipodal, the sample
submission's constant, integers, bools (float16 angles in numpy), spelled
"1e1" or "37.0", beyond +-90/180, huge; NaN, empty, inf and text cells; rows
shuffled within a trip (scored as they stand); rows moved to another or a
foreign trip, dropped or duplicated; missing, renamed and extra columns, empty
submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""

MIN_SCORED = 120
MIN_RAISED = 70

COLUMNS = ["tripId", "UnixTimeMillis", "LatitudeDegrees", "LongitudeDegrees"]
RADIUS = 6_371_000


def trip_score(predicted, truth):
    lat1 = np.deg2rad(predicted["LatitudeDegrees"].to_numpy())
    lng1 = np.deg2rad(predicted["LongitudeDegrees"].to_numpy())
    lat2 = np.deg2rad(truth["LatitudeDegrees"].to_numpy())
    lng2 = np.deg2rad(truth["LongitudeDegrees"].to_numpy())
    with np.errstate(all="ignore"):  # NaN and inf are scored, quietly
        a = (np.sin((lat2 - lat1) / 2) ** 2
             + np.cos(lat1) * np.cos(lat2) * np.sin((lng2 - lng1) / 2) ** 2)
        distances = 2 * RADIUS * np.arcsin(np.sqrt(a))
    return np.mean([np.quantile(distances, 0.50), np.quantile(distances, 0.95)])


def grade(submission, answers):
    for column in COLUMNS:
        if column not in submission.columns:
            raise ValueError(f"missing {column}")
    if len(submission) != len(answers):
        raise ValueError("length")
    scores = []
    for trip in answers["tripId"].unique():
        truth = answers[answers["tripId"] == trip]
        predicted = submission[submission["tripId"] == trip]
        if len(predicted) != len(truth):
            raise ValueError("rows per trip")
        scores.append(trip_score(predicted, truth))
    return np.mean(scores)


def predicted(lat, lng, style, fault):
    if rng.random() < fault:
        bad = rng.choice(["", "nan", "inf", "-inf", "north", "1e999"])
        return (bad, repr(lng)) if rng.random() < 0.5 else (repr(lat), bad)
    if style == "exact":
        return repr(lat), repr(lng)
    if style == "metres":
        return repr(lat + rng.gauss(0, 2e-5)), repr(lng + rng.gauss(0, 2e-5))
    if style == "km":
        return repr(round(lat + rng.gauss(0, 0.1), 3)), repr(round(lng + rng.gauss(0, 0.1), 3))
    if style == "antipodal":
        return repr(-lat), repr(lng + 180)
    if style == "constant":
        return "37.904611315634504", "-86.48107806249548"
    return (rng.choice(["37", "37.0", "3.7e1", "90", "-90", "200", "1e300", "0"]),
            rng.choice(["-122", "-122.0", "180", "-180", "540", "-1.22e2", "0"]))


def make_case(k):
    trips = rng.sample(["2020-05-15-US-MTV-1", "2021-04-28-US-SJC-1", "2022-01-04-US-LAX-3",
                        "2021-12-08-US-LAX-1", "2020-07-08-US-MTV-1"], rng.randint(1, 4))
    phones = ["GooglePixel4", "GooglePixel5", "SamsungGalaxyS20Ultra", "XiaomiMi8"]
    answers = []
    for drive in trips:
        trip = f"{drive}-{rng.choice(phones)}"
        epochs = rng.choice([1, 2, 5, 40, 300]) if k % 60 else 3000
        lat, lng, time = rng.uniform(33.5, 37.6), rng.uniform(-122.5, -117.8), rng.randint(1, 9)
        for i in range(epochs):
            answers.append([trip, str(1589570000000 + time * 10 ** 8 + 1000 * i),
                            repr(lat + i * 1e-5), repr(lng - i * 2e-5)])
    style = rng.choice(["exact", "metres", "metres", "km", "antipodal", "constant", "odd"])
    fault = rng.choice([0, 0, 0, 0.01, 0.1])
    subs = [[t, ms, *predicted(float(la), float(lo), style, fault)] for t, ms, la, lo in answers]
    if k % 19 == 10:  # a bool column: numpy's deg2rad and cos of it are float16
        column = rng.choice([2, 3])
        for s in subs:
            s[column] = rng.choice(["True", "False"])
    if rng.random() < 0.5:
        rng.shuffle(subs)  # trips interleaved, epochs out of order: paired as they stand
    r = rng.random()
    if r < 0.05 and len(trips) > 1:
        subs[0][0] = answers[-1][0]  # a row moved to another trip
    elif r < 0.1:
        subs[0][0] = subs[0][0] + "-x"
    elif r < 0.15:
        subs = subs[:-1]
    elif r < 0.2:
        subs.append(list(subs[0]))
    header = ",".join(COLUMNS)
    r = rng.random()
    if r < 0.05:
        header = rng.choice(["tripId,UnixTimeMillis,Latitude,LongitudeDegrees",
                             "trip,UnixTimeMillis,LatitudeDegrees,LongitudeDegrees",
                             "tripId,unixTimeMillis,LatitudeDegrees,LongitudeDegrees"])
    elif r < 0.1:
        header = "LongitudeDegrees,LatitudeDegrees,UnixTimeMillis,tripId"
        subs = [s[::-1] for s in subs]
    elif r < 0.14:
        header += ",HeightAboveWgs84EllipsoidMeters"
        subs = [s + ["12.5"] for s in subs]
    elif r < 0.16:
        subs = []
    return csv_text(",".join(COLUMNS), answers), csv_text(header, subs)
