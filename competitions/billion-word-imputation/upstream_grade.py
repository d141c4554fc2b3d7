"""Upstream's grade() for billion-word-imputation (its prepare_for_metric, then
the mean of Levenshtein.distance over the id-sorted rows), restated, on the
reference environment's Levenshtein 0.25.1, numpy 1.26.4 and pandas 2.2.2.
Cases: quoted sentences with commas, doubled quotes and newlines, non-ASCII
and astral characters (distances count code points), a word dropped or added
back, blank sentences, line breaks and CRLF line ends, empty cells and NA
spellings (NaN: TypeError upstream), columns that read as numbers or
booleans, ids spelled as floats or left empty, dropped, duplicated and
foreign ids, missing columns, empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from Levenshtein import distance

MIN_SCORED = 105
MIN_RAISED = 78


def grade(submission, answers):
    if "id" not in submission.columns or "sentence" not in submission.columns:
        raise ValueError("missing column")
    if len(submission) != len(answers):
        raise ValueError("length")
    submission = submission.sort_values("id").reset_index(drop=True)
    answers = answers.sort_values("id").reset_index(drop=True)
    if (submission["id"].values != answers["id"].values).any():
        raise ValueError("ids")
    return np.mean([distance(t, p) for t, p in zip(answers["sentence"], submission["sentence"])])


WORDS = ["the", "The", "dog", "barked", ",", ".", '"', "'s", "à", "Paris", "naïve", "中文",
         "\U0001f600", "1990", "$", "5.5", "NA", "-", "a", "of", "cafés"]


def quote(field):
    if rng.random() < 0.5 or any(c in field for c in ',"\n\r') or field != field.strip():
        return '"' + field.replace('"', '""') + '"'
    return field


def sentence():
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 12)))


def guess(truth, faults):
    r = rng.random()
    if r < faults:
        return rng.choice(["", "NA", "nan", "null", "None"])  # NaN: distance raises TypeError
    if r < 0.04:
        return rng.choice(["True", "17", "1e3", "#", "x", " ", "   "])  # text among text rows
    if r < 0.05:
        return truth.replace(" ", rng.choice(["\n", "\r\n", "\t"]), 1)
    words = truth.split(" ")
    if r < 0.5 and len(words) > 1:
        words.pop(rng.randrange(len(words)))
    elif r < 0.7:
        words.insert(rng.randrange(len(words) + 1), rng.choice(WORDS))
    elif r < 0.8:
        return sentence()
    return " ".join(words) + rng.choice(["", "", "", " ", "  "])


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 400]) if k else 3000
    ids = rng.sample(range(10 * n + 10), n)
    truths = [sentence() for _ in ids]
    faults = 0.01 / n if k % 5 else 1 / n
    rows = [[str(i), guess(t, faults)] for i, t in zip(ids, truths)]
    if k % 17 == 3:
        rows = [[i, rng.choice(["1", "2.5", "-3"])] for i, _ in rows]  # a numeric column
    if k % 19 == 5:
        rows = [[i, rng.choice(["True", "False"])] for i, _ in rows]  # a boolean column
    if k % 13 == 7:
        rows = [[f"{i}.0", s] for i, s in rows]  # float ids equal the int ones
    rows = spoil(rows, lambda: rng.choice([str(10 * n + 11), "", "x7"]))
    rows = [[i, quote(s)] for i, s in rows]
    header = "id,sentence"
    if k % 29 == 11:
        header = rng.choice(["id,Sentence", "ID,sentence", "sentence"])
        if header == "sentence":
            rows = [r[1:] for r in rows]
    if k % 31 == 13:
        rows = []
    if k % 37 == 17:
        header, rows = "id,sentence,extra", [r + ["x"] for r in rows]
    answers = csv_text('"id","sentence"', [[str(i), quote(t)] for i, t in zip(ids, truths)])
    submission = csv_text(header, rows)
    if k % 7 == 4:
        submission = submission.replace("\n", "\r\n")  # Windows line ends, inside quotes too
    return answers, submission
