"""Upstream's grade() for detecting-insults-in-social-commentary
(prepare_for_auroc_metric with id_col='Comment', target_col='Insult', then
roc_auc_score), restated, on the reference environment's pandas 2.2.2 and
scikit-learn 1.5.1. The rows pair on the comment text itself: Kaggle's quoted
comments with escapes, commas, quotes, line breaks and non-ASCII text, blank
comments (NaN ids) and comments repeated in the answers (their pairing is
numpy's unstable object sort). Cases: tied, constant, boolean and rounded
scores; out-of-range, missing, infinite and text cells and odd float
spellings; dropped, duplicated, foreign and unquoted comments; missing, swapped
and extra columns; header-only submissions; one-class answers. Same score bit
for bit, or invalid where upstream raises.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import roc_auc_score

ID, TARGET = "Comment", "Insult"
MIN_SCORED = 93
MIN_RAISED = 97


grade = grade_auroc


# Cell spellings a submission's scores may take, besides plain probabilities.
ODD = ["abc", "", "nan", "inf", "-inf", "1.5", "-0.1", "1e-3", "1E-300", "0.0", "1.0", " 0.5",
       "-0", "+0.5", "1_0", ".5", "5.", "1e400", "-1e-400", "True", "0x1", "2", "-1"]
# Few words, so that short comments repeat now and then, as real ones do.
WORDS = ["you", "idiot", "are", "the", "game", "lol", "\\\\n", "\\xa0", "caf\u00e9", "don\\'t",
         "a,b", 'say "no"', "\u4f60\u597d", "ok"]


scores = auroc_scores


def comment(short):
    """A comment as Kaggle writes it: the text wrapped in literal quotes."""
    words = [rng.choice(WORDS) for _ in range(rng.randint(1, 2 if short else 12))]
    return '"' + " ".join(words) + ("\n" if rng.random() < 0.03 else "") + '"'


def field(text):
    """A CSV field: quoted (doubling inner quotes) unless it is blank."""
    return '"' + text.replace('"', '""') + '"' if text else ""


def date():
    if rng.random() < 0.2:
        return ""  # Kaggle leaves some dates blank
    return f"2012{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}{rng.randint(0, 235959):06d}Z"


def make_case(k):
    n = rng.choice([1, 2, 3, 3, 10, 10, 50, 50, 400]) if k else 3000
    short = rng.random() < 0.25  # repeated comments
    comments = [comment(short) for _ in range(n)]
    if rng.random() < 0.05:
        comments[0] = ""  # a blank comment: a NaN id, never equal to itself
    rate = rng.choice([0.1, 0.3, 0.5])
    labels = [int(rng.random() < rate) for _ in comments]
    labels[:2] = [0, 1][:n]  # both classes
    if k % 19 == 4:
        labels = [labels[0]] * n  # one class only: roc_auc_score raises
    dates = [date() for _ in comments]
    rows = [[c, d, s] for c, d, s in zip(comments, dates, scores(n))]
    if k % 13 == 6 and n > 1:
        rows[1] = [rows[0][0]] + rows[1][1:]  # a comment twice, one missing: same length
    if k % 17 == 9:
        rows[0] = [rows[0][0].strip('"')] + rows[0][1:]  # the literal quotes dropped
    rows = spoil(rows, lambda: comment(False))
    # Submission columns Insult,Date,Comment, as the sample submission has them.
    header = [TARGET, "Date", ID]
    rows = [[s, d, field(c)] for c, d, s in rows]
    shape = k % 29
    if shape == 3:
        header[0] = "insult"  # the target column misnamed
    elif shape == 8:
        header, rows = header[:2], [r[:2] for r in rows]  # no Comment column
    elif shape == 12:
        rows = []  # a header alone
    elif shape == 17:
        header, rows = header[::-1], [r[::-1] for r in rows]  # columns reordered: fine
    elif shape == 21:
        header, rows = [TARGET, ID], [[r[0], r[2]] for r in rows]  # no Date: fine
    usage = ["PrivateTest" if rng.random() < 0.7 else "PublicTest" for _ in comments]
    answers = [[str(l), d, field(c), u] for l, d, c, u in zip(labels, dates, comments, usage)]
    return csv_text("Insult,Date,Comment,Usage", answers), csv_text(",".join(header), rows)
