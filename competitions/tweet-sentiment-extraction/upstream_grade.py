"""Upstream's grade() for tweet-sentiment-extraction (its prepare_for_metric:
fillna(""), astype(str); then the mean, with np.mean, of the competition's
word-level jaccard of set(text.lower().split())), restated, on the reference
environment's numpy 1.26.4 and pandas 2.2.2 (Python 3.11). Cases: spans cut
from tweets, case changes, repeated words, punctuation, URLs and emoji,
Final_Sigma and dotted I, Unicode spaces; empty and NA cells (the empty
text: ZeroDivisionError against an empty answer); columns that read as
numbers (str() of the float: "5.0", "1e+16") or booleans; hex ids that read
as numbers; dropped, duplicated and foreign ids; missing columns; empty
submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
MIN_SCORED = 133
MIN_RAISED = 50

ID, TEXT = "textID", "selected_text"


def jaccard(first, second):
    a, b = set(first.lower().split()), set(second.lower().split())
    both = a.intersection(b)
    return float(len(both)) / (len(a) + len(b) - len(both))


def grade(submission, answers):
    if ID not in submission.columns or TEXT not in submission.columns:
        raise ValueError("missing column")
    if len(submission) != len(answers):
        raise ValueError("length")
    submission = submission.sort_values(ID)
    answers = answers.sort_values(ID)
    if (submission[ID].values != answers[ID].values).any():
        raise ValueError("ids")
    predicted = submission[TEXT].fillna("").astype(str).tolist()
    truth = answers[TEXT].fillna("").astype(str).tolist()
    return float(np.mean([jaccard(p, t) for p, t in zip(predicted, truth)]))


WORDS = ["I", "i", "love", "LOVE", "this", "so", "sooo", "much!!", "bad", "sad", ":(", ":)",
         "http://t.co/x", "@user", "#day", "\U0001f600", "ΟΔΟΣ", "İzmir", "don`t", "it,", "5",
         "5.0", "1e+16", "1e-07", "-0.0", "inf", "0.1"]
SPACES = [" ", " ", " ", "  ", "\u00a0", "\u2003", "\u200b", "\t", "\x1f", "\x85"]


def quote(field):
    if rng.random() < 0.5 or any(c in field for c in ',"\n\r') or field != field.strip():
        return '"' + field.replace('"', '""') + '"'
    return field


def tweet():
    words = [rng.choice(WORDS) for _ in range(rng.randint(1, 10))]
    return "".join(w + rng.choice(SPACES) for w in words).rstrip(" ")


def guess(truth, faults):
    r = rng.random()
    if r < faults:
        return rng.choice(["", "NA", "nan", " "])  # no words
    words = truth.split(" ")
    if r < 0.3:
        return truth
    if r < 0.5:
        start = rng.randrange(len(words))
        return " ".join(words[start:start + rng.randint(1, 3)])
    if r < 0.6:
        return truth.upper()
    return tweet()


def new_id():
    if rng.random() < 0.05:
        return str(rng.randrange(10 ** 10))  # all digits
    return f"{rng.getrandbits(40):010x}"


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 400]) if k else 3000
    ids = [new_id() for _ in range(n)]
    if k % 11 == 6:
        ids = [str(rng.randrange(10 ** 10)) for _ in ids]  # an int64 id column
    empty = 0.02 if k % 3 == 0 else 0.0
    truths = [tweet() if rng.random() >= empty else "" for _ in ids]
    faults = 0.05 if k % 4 else 0.0
    rows = [[i, guess(t, faults)] for i, t in zip(ids, truths)]
    if k % 17 == 3:
        numbers = ["5", "5.0", "1e16", "0.1", "-0", "1e-7", "", "inf"]
        rows = [[i, rng.choice(numbers)] for i, _ in rows]  # a float column
    if k % 19 == 5:
        rows = [[i, rng.choice(["True", "False", "TRUE"])] for i, _ in rows]  # a boolean column
    rows = spoil(rows, new_id)
    rows = [[i, quote(s)] for i, s in rows]
    header = f"{ID},{TEXT}"
    if k % 29 == 11:
        header = rng.choice(["textid,selected_text", "textID,text"])
    if k % 31 == 13:
        rows = []
    if k % 37 == 17:
        header, rows = f"{ID},{TEXT},sentiment", [r + ["neutral"] for r in rows]
    answers = csv_text(f"{ID},{TEXT}", [[i, quote(t)] for i, t in zip(ids, truths)])
    return answers, csv_text(header, rows)
