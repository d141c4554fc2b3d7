"""Upstream's grade() for multi-modal-gesture-recognition (its
prepare_for_metric: astype(str), then list(map(int, s.split())) per row; then
final_edit_distance: np.sum of Levenshtein.distance over the id-sorted rows,
divided by the number of true gestures), restated, on the reference
environment's Levenshtein 0.25.1, numpy 1.26.4 and pandas 2.2.2 (Python 3.11).
Cases: gestures 1..20 dropped, added, swapped or repeated; tokens int()
takes ("05", "+3", "1_0", integers beyond 64 bits, non-ASCII decimal digits)
and rejects ("2.0", "x", "1__0", a superscript two); ints equal by hash(), as
distance compares them; Unicode spaces str.split() splits on; empty
sequences (a quoted space); single-gesture columns that read as int64, as
float64 (a missing cell makes "5.0" and "nan") or as uint64; dropped,
duplicated and foreign ids, float-spelled ids, missing columns, empty
submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from Levenshtein import distance

MIN_SCORED = 140
MIN_RAISED = 44


def grade(submission, answers):
    if len(submission) != len(answers):
        raise ValueError("length")
    if "Id" not in submission.columns or "Sequence" not in submission.columns:
        raise ValueError("missing column")
    submission = submission.sort_values("Id")
    answers = answers.sort_values("Id")
    if (submission["Id"].values != answers["Id"].values).any():
        raise ValueError("ids")
    truth = [[int(t) for t in s.split()] for s in answers["Sequence"].astype(str)]
    predicted = [[int(t) for t in s.split()] for s in submission["Sequence"].astype(str)]
    distances = np.sum([distance(t, p) for t, p in zip(truth, predicted)])
    return distances / sum(len(t) for t in truth)


# Levenshtein.distance compares ints by hash(): 2**61 + 5 is 6, 2**64 - 1 is 7,
# -(2**61) is -2, but -1 only -1.
ODD_TOKENS = ["05", "+3", "1_0", "-1", "-2", "0", "99999999999999999999", "099999999999999999999",
              "18446744073709551615", "2305843009213693957", "-2305843009213693952", "2.0", "x",
              "1__0", "1e1", "\u0665", "\uff11\uff12", "\u00b2"]


def sequence(gestures):
    return [rng.randint(1, 20) for _ in range(gestures)]


def guess(truth, odd):
    r = rng.random()
    tokens = [str(g) for g in truth]
    if r < 0.2:
        return tokens
    if r < 0.6:
        for _ in range(rng.randint(1, 3)):
            edit = rng.random()
            if edit < 0.3 and tokens:
                tokens.pop(rng.randrange(len(tokens)))
            elif edit < 0.6:
                tokens.insert(rng.randrange(len(tokens) + 1), str(rng.randint(1, 20)))
            elif tokens:
                tokens[rng.randrange(len(tokens))] = str(rng.randint(1, 20))
    else:
        tokens = [str(g) for g in sequence(rng.randint(0, 12))]
    if rng.random() < odd and tokens:
        tokens[rng.randrange(len(tokens))] = rng.choice(ODD_TOKENS)
    return tokens


def join(tokens):
    if not tokens:
        return '" "'  # an empty sequence, not a missing cell
    text = "".join(t + rng.choice([" ", " ", " ", "  ", "\u00a0", "\u3000"]) for t in tokens)
    return '"' + text.rstrip() + '"' if rng.random() < 0.7 else text.rstrip().replace("\u3000", " ")


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 400]) if k else 3000
    ids = rng.sample(range(300, 300 + 3 * n), n)
    single = k % 7 == 3  # one gesture a row: the column reads as int64
    truths = [sequence(1 if single else rng.randint(1, 20)) for _ in ids]
    odd = 0.3 / n if k % 4 else 0.0
    rows = [[str(i), guess(t, odd)] for i, t in zip(ids, truths)]
    if single:
        extra = rng.choice([[], [], [""], ["5.0"], ["18446744073709551615"], ["-3"]])
        rows = [[i, [str(t[0])]] for i, t in zip((r[0] for r in rows), truths)]
        for token in extra:
            rows[rng.randrange(n)][1] = [token] if token else []
        rows = [[i, " ".join(s) if s else ""] for i, s in rows]
    else:
        rows = [[i, join(s)] for i, s in rows]
    if k % 13 == 7:
        rows = [[f"{i}.0", s] for i, s in rows]  # float ids equal the int ones
    rows = spoil(rows, lambda: rng.choice([str(300 + 3 * n), "", "x7"]))
    header = "Id,Sequence"
    if k % 29 == 11:
        header = rng.choice(["id,Sequence", "Id,sequence"])
    if k % 31 == 13:
        rows = []
    if k % 37 == 17:
        header, rows = "Id,Sequence,Usage", [r + ["Private"] for r in rows]
    answers = csv_text("Id,Sequence", [[str(i), " ".join(map(str, t))]
                                       for i, t in zip(ids, truths)])
    return answers, csv_text(header, rows)
