"""Upstream's grade() for h-and-m-personalized-fashion-recommendations (its
prepare_for_metric: exact column set, submission customers a superset of the
answers', isin filter, sort, astype(str).str.split(" "); then
mlebench.metrics.mean_average_precision_at_k with k=12), restated, on the
reference environment's numpy 1.26.4 and pandas 2.2.2. Cases: zero-padded
article ids, more than twelve predictions, repeated and foreign articles;
prediction columns that read as int64 (the padding lost: "0706016001" is
"706016001") or float64 ("706016001.0", "nan"); double and trailing spaces
(empty tokens); extra customers (ignored) and repeated ones (zip pairs rows
off by one); missing customers, extra or renamed columns, empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
MIN_SCORED = 155
MIN_RAISED = 28

COLUMNS = {"customer_id", "prediction"}


average_precision = average_precision


def grade(submission, answers):
    if set(submission.columns) != COLUMNS:
        raise ValueError("columns")
    if not set(submission["customer_id"]) >= set(answers["customer_id"]):
        raise ValueError("customers")
    submission = submission[submission["customer_id"].isin(answers["customer_id"])]
    submission = submission.sort_values("customer_id").reset_index(drop=True)
    answers = answers.sort_values("customer_id").reset_index(drop=True)
    actual = answers["prediction"].astype(str).str.split(" ").apply(set).tolist()
    predicted = submission["prediction"].astype(str).str.split(" ").tolist()
    return np.mean([average_precision(a, p, 12) for a, p in zip(actual, predicted)])


def customer():
    return f"{rng.getrandbits(256):064x}"


def article(pool):
    return rng.choice(pool)


def guess(truth, pool):
    r = rng.random()
    if r < 0.2:
        tokens = list(truth)
    elif r < 0.7:
        tokens = [article(pool) for _ in range(rng.randint(0, 14))]
        for t in truth:
            if rng.random() < 0.5:
                tokens.insert(rng.randint(0, len(tokens)), t)
    else:
        tokens = [article(pool) for _ in range(rng.choice([1, 12, 13, 20]))]
    if rng.random() < 0.1 and tokens:
        tokens.append(tokens[0])  # a repeat counts once
    text = " ".join(tokens)
    if rng.random() < 0.05:
        text = text.replace(" ", "  ", 1) + rng.choice(["", " "])  # empty tokens
    return text


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 400]) if k else 2000
    pool = [f"0{rng.randrange(100000000, 999999999)}" for _ in range(rng.choice([3, 30, 300]))]
    ids = [customer() for _ in range(n)]
    single = k % 7 == 2  # one purchase each: the answers' column reads as int64
    truths = [[article(pool)] if single else rng.sample(pool, rng.randint(1, min(5, len(pool))))
              for _ in ids]
    rows = [[i, guess(t, pool)] for i, t in zip(ids, truths)]
    if k % 5 == 1:
        rows = [[i, article(pool)] for i, _ in rows]  # one prediction each: int64 too
        if rng.random() < 0.5:
            rows[rng.randrange(n)][1] = ""  # float64: "706016001.0" and "nan"
    if k % 9 == 4:
        rows += [[customer(), guess([], pool)] for _ in range(rng.randint(1, 5))]  # ignored
    if k % 8 == 3:
        rows.append(list(rng.choice(rows)))  # a customer twice: zip pairs rows off by one
    rows = spoil(rows, lambda: rng.choice([customer(), ""]))
    rows = [[i, f'"{p}"' if rng.random() < 0.3 else p] for i, p in rows]
    header = "customer_id,prediction"
    if k % 29 == 11:
        header = rng.choice(["customer_id,predictions", "customer,prediction"])
    if k % 31 == 13:
        rows = []
    if k % 37 == 17:
        header, rows = "customer_id,prediction,score", [r + ["1"] for r in rows]
    if k % 41 == 19:
        header, rows = "prediction,customer_id", [r[::-1] for r in rows]  # order is free
    answers = csv_text("customer_id,prediction", [[i, " ".join(t)] for i, t in zip(ids, truths)])
    return answers, csv_text(header, rows)
