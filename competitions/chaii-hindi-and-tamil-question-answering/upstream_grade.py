"""Upstream's grade() for chaii-hindi-and-tamil-question-answering (its
prepare_for_grading: fillna(""), set(text.lower().split()) per row, binarized
with MultiLabelBinarizer(sparse_output=True) over all words; then
jaccard_score(average="samples")), restated, on the reference environment's
scikit-learn 1.5.1, scipy 1.14.1 and pandas 2.2.2. Cases: Hindi and Tamil
words, case folding (Final_Sigma, dotted I, sharp s), Unicode spaces that
str.split() splits on (and zero-width ones it does not), repeated words,
empty cells and NA spellings (the empty set), fewer than two words in all (not
multilabel: raises), columns that read as numbers or booleans (no .lower()),
dropped, duplicated and foreign ids, missing columns, empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import jaccard_score
from sklearn.preprocessing import MultiLabelBinarizer

MIN_SCORED = 128
MIN_RAISED = 56

TEXT = "PredictionString"


def grade(submission, answers):
    if len(submission) != len(answers):
        raise ValueError("length")
    if TEXT not in submission.columns or "id" not in submission.columns:
        raise ValueError("missing column")
    submission = submission.sort_values("id")
    answers = answers.sort_values("id")
    if (submission["id"].values != answers["id"].values).any():
        raise ValueError("ids")
    predicted = [set(s.lower().split()) for s in submission[TEXT].fillna("").tolist()]
    truth = [set(s.lower().split()) for s in answers[TEXT].fillna("").tolist()]
    binarizer = MultiLabelBinarizer(classes=list(set.union(*truth, *predicted)),
                                    sparse_output=True)
    y_true = binarizer.fit_transform(truth)
    y_pred = binarizer.transform(predicted)
    return jaccard_score(y_pred=y_pred, y_true=y_true, average="samples")


WORDS = ["भारत", "नई", "दिल्ली", "சென்னை", "தமிழ்", "1947", "New", "Delhi", "delhi", "DELHI",
         "ΟΔΟΣ", "οδος", "İstanbul", "straße", "STRASSE", "ǅ", "x", "-", "(2)"]
SPACES = [" ", " ", " ", "  ", "\u00a0", "\u2003", "\u3000", "\t", "\u200b", "\x1f", "\x85"]


def quote(field):
    if rng.random() < 0.5 or any(c in field for c in ',"\n\r\t') or field != field.strip():
        return '"' + field.replace('"', '""') + '"'
    return field


def text(vocabulary):
    words = [rng.choice(vocabulary) for _ in range(rng.randint(1, 4))]
    return "".join(w + rng.choice(SPACES) for w in words).rstrip(" ")


def guess(truth, vocabulary, faults):
    r = rng.random()
    if r < faults:
        return rng.choice(["", "NA", "nan"])  # NaN: the empty set
    if r < 0.3:
        return truth
    if r < 0.5:
        return truth.upper() if rng.random() < 0.5 else truth + " " + rng.choice(vocabulary)
    return text(vocabulary)


def new_id():
    return f"{rng.getrandbits(36):09x}"


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 400]) if k else 3000
    vocabulary = WORDS if k % 11 else rng.sample(WORDS, 1)  # one word in all: not multilabel
    ids = [new_id() for _ in range(n)]
    truths = [text(vocabulary) for _ in ids]
    faults = 0.1 if k % 3 else 0.0
    rows = [[i, guess(t, vocabulary, faults)] for i, t in zip(ids, truths)]
    if k % 17 == 3:
        rows = [[i, rng.choice(["1947", "2.5", ""])] for i, _ in rows]  # a numeric column
    if k % 19 == 5:
        rows = [[i, rng.choice(["True", "False"])] for i, _ in rows]  # a boolean column
    if k % 23 == 8:
        rows = [[i, ""] for i, _ in rows]  # all empty: every set empty
    rows = spoil(rows, new_id)
    rows = [[i, quote(s)] for i, s in rows]
    header = f"id,{TEXT}"
    if k % 29 == 11:
        header = rng.choice(["id,prediction_string", "ID,PredictionString"])
    if k % 31 == 13:
        rows = []
    if k % 37 == 17:
        header, rows = f"id,{TEXT},answer_start", [r + ["12"] for r in rows]
    answers = csv_text(f"id,{TEXT}", [[i, quote(t)] for i, t in zip(ids, truths)])
    return answers, csv_text(header, rows)
