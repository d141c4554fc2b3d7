"""Upstream's grade() for rsna-2022-cervical-spine-fracture-detection
(prepare_for_metric and its unmelt_df pivot, then the weighted binary log loss
of custom_comp_weighted_loss with its float32 weights 7/14 and 1/2), restated
in numpy, on the reference environment's pandas 2.2.2 and numpy 1.26.4.
Cases: 0 and 1 predictions (clipped at 1e-15), hard, rounded and tiny values;
integer and True/False columns; NaN, text, negative, above-one and inf values;
study ids that sort differently as text and as numbers; dropped, duplicated
and foreign row ids; missing and extra columns; empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
MIN_SCORED = 125
MIN_RAISED = 60

ORDER = ["patient_overall", "C1", "C2", "C3", "C4", "C5", "C6", "C7"]
NEGATIVE_WEIGHTS = np.array([7, 1, 1, 1, 1, 1, 1, 1], dtype=np.float32)
POSITIVE_WEIGHTS = np.array([14, 2, 2, 2, 2, 2, 2, 2], dtype=np.float32)


def wide(melted):
    """One row per study, a column per variable (upstream's unmelt_df)."""
    melted = melted.copy()
    melted[["StudyInstanceUID", "variable"]] = melted["row_id"].str.split("_", n=1, expand=True)
    return melted.pivot(index="StudyInstanceUID", columns="variable",
                        values="fractured").reset_index()


def weighted_loss(y_true, y_pred):
    y_pred = np.clip(y_pred, 1e-15, 1 - 1e-15)
    loss = -(y_true * np.log(y_pred) + (1 - y_true) * np.log(1 - y_pred))
    weights = y_true * POSITIVE_WEIGHTS + (1 - y_true) * NEGATIVE_WEIGHTS
    return np.mean(np.sum(loss * weights, axis=1) / weights.sum(axis=1))


def grade(submission, answers):
    if "row_id" not in submission.columns or "fractured" not in submission.columns:
        raise ValueError("missing column")
    if not submission["fractured"].between(0, 1).all():
        raise ValueError("range")
    if submission["fractured"].isnull().any():
        raise ValueError("missing values")
    assert "row_id" in answers.columns and "fractured" in answers.columns
    assert answers["fractured"].isin([0, 1]).all() and not answers["fractured"].isnull().any()
    submission = submission.sort_values(by="row_id")
    answers = answers.sort_values(by="row_id")
    if (submission["row_id"].values != answers["row_id"].values).any():
        raise ValueError("ids")
    y_pred = wide(submission).sort_values(by="StudyInstanceUID")[ORDER].to_numpy()
    y_true = wide(answers).sort_values(by="StudyInstanceUID")[ORDER].to_numpy()
    return weighted_loss(y_true, y_pred)


def prediction(style):
    if style == "hard":
        return rng.choice(["0", "1"])
    r = rng.random()
    if r < 0.15:
        return rng.choice(["0", "1", "0.0", "1.0", "1e-20", "0.999999999999999999", "5e-324"])
    return repr(round(rng.random(), rng.choice([1, 4, 17])))


def make_case(k):
    studies = rng.sample(range(1, 30000), rng.choice([1, 1, 2, 3, 8, 30]) if k else 400)
    answers, rows = [], []
    style = rng.choice(["soft", "soft", "soft", "hard"])
    for s in studies:
        broken = rng.random() < rng.choice([0.1, 0.5])
        labels = [int(broken and rng.random() < 0.5) for _ in ORDER[1:]]
        for variable, label in zip(ORDER, [int(any(labels))] + labels):
            answers.append([f"1.2.826.0.1.3680043.{s}_{variable}", str(label)])
            rows.append([f"1.2.826.0.1.3680043.{s}_{variable}", prediction(style)])
    if rng.random() < 0.2:  # one bad value
        rows[rng.randrange(len(rows))][1] = rng.choice(
            ["", "nan", "abc", "inf", "-0.1", "1.5", "-0.0", "1.0000000000000002"])
    if k % 31 == 8:  # a True/False column: pandas reads it as bool
        rows = [[i, rng.choice(["True", "False"])] for i, _ in rows]
    rows = spoil(rows, lambda: f"1.2.826.0.1.3680043.{rng.randrange(30000)}_C{rng.randrange(8)}")
    header = "row_id,fractured"
    r = rng.random()
    if r < 0.04:
        header = rng.choice(["row_id,prediction", "id,fractured"])
    elif r < 0.08:  # reordered, with an extra column
        header, rows = "fractured,row_id,notes", [[row[1], row[0], "x"] for row in rows]
    elif r < 0.1:
        rows = []
    return csv_text("row_id,fractured", answers), csv_text(header, rows)
