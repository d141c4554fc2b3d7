"""What several competitions' upstream_grade.py scripts share.

driver.py runs this file in each script's namespace before the script, so these
functions see the script's own names (ID, TARGET, rng, its case helpers); a
script uses one by naming it, e.g. `grade = grade_auroc`. Each section says
which of the script's names its functions use. Restated from upstream's
mlebench/competitions/utils.py helpers and the graders that call them; our own
code, like the scripts.
"""
from sklearn.metrics import accuracy_score, f1_score, roc_auc_score


# ROC AUC graders: upstream's prepare_for_auroc_metric, then roc_auc_score. They use the
# script's ID and TARGET; make_auroc_case also its LARGE (rows of case 0), ODD (odd score
# cells), new_ids(n), foreign_id(), respell(id) and answers_text(ids, labels), and scores(n)
# (usually auroc_scores).
def grade_auroc(submission, answers):
    # prepare_for_auroc_metric: the answers' asserts, then the submission's
    # checks in upstream's order.
    assert ID in answers.columns and TARGET in answers.columns
    if ID not in submission.columns:
        raise ValueError("no id column")
    if TARGET not in submission.columns:
        raise ValueError("no target column")
    if len(submission) != len(answers):
        raise ValueError("row count")
    pd.to_numeric(submission[TARGET])  # text raises ValueError
    if submission[TARGET].min() < 0 or submission[TARGET].max() > 1:
        raise ValueError("not a probability")
    submission = submission.sort_values(ID)
    answers = answers.sort_values(ID)
    if (submission[ID].values != answers[ID].values).any():
        raise ValueError("ids differ")
    return roc_auc_score(y_true=answers[TARGET].to_numpy(), y_score=submission[TARGET].to_numpy())

def auroc_scores(n):
    """n score cells: one style per case, a few odd cells in some cases."""
    style = rng.random()
    if style < 0.04:
        return [rng.choice(["True", "False"]) for _ in range(n)]
    if style < 0.08:
        return ["0.5"] * n
    faults = rng.choice([0, 0, 0, 0, 0.01, 0.05])
    ties = rng.random() < 0.3
    cells = []
    for _ in range(n):
        if rng.random() < faults:
            cells.append(rng.choice(ODD))
        elif ties:
            cells.append(rng.choice(["0", "1", "0.25", "0.5", "0.75"]))
        else:
            cells.append(repr(round(rng.random(), rng.choice([1, 3, 17]))))
    return cells

def make_auroc_case(k):
    n = rng.choice([1, 2, 3, 3, 10, 10, 50, 50, 400]) if k else LARGE
    ids = new_ids(n)
    rate = rng.choice([0.1, 0.3, 0.5])
    labels = [int(rng.random() < rate) for _ in ids]
    labels[:2] = [0, 1][:n]  # both classes, the ids being random
    if k % 19 == 4:
        labels = [labels[0]] * n  # one class only: roc_auc_score raises
    rows = [[respell(i), c] for i, c in zip(ids, scores(n))]
    if k % 13 == 6 and n > 1:
        rows[1] = [rows[0][0], rows[1][1]]  # an id twice, one missing: same length
    rows = spoil(rows, foreign_id)
    header = [ID, TARGET]
    shape = k % 29
    if shape == 3:
        header[1] = TARGET.upper()  # the target column misnamed
    elif shape == 8:
        header[0] = "ID_" + ID  # the id column misnamed
    elif shape == 12:
        rows = []  # a header alone
    elif shape == 17:
        header, rows = header[::-1], [r[::-1] for r in rows]  # columns swapped: fine
    elif shape == 21:
        header, rows = header + ["extra"], [r + ["x"] for r in rows]  # an extra column: fine
    return answers_text(ids, labels), csv_text(",".join(header), rows)


# Accuracy graders: upstream's prepare_for_accuracy_metric, then accuracy_score. They use
# the script's ID, TARGET, CLASSES (label spellings), ODD, new_id() and predictions(truth)
# (usually accuracy_predictions); FLOAT_IDS = True lets some cases spell ids as floats.
def grade_accuracy(submission, answers):
    if TARGET not in answers.columns or ID not in answers.columns:
        raise AssertionError("answers")
    if len(submission) != len(answers):
        raise ValueError("length")
    if TARGET not in submission.columns or ID not in submission.columns:
        raise ValueError("missing column")
    submission = submission.sort_values(ID)
    answers = answers.sort_values(ID)
    if (submission[ID].values != answers[ID].values).any():
        raise ValueError("ids")
    return accuracy_score(y_true=answers[TARGET].to_numpy(), y_pred=submission[TARGET].to_numpy())

def accuracy_predictions(truth):
    mode = rng.random()
    if mode < 0.08:
        return [rng.choice(CLASSES)] * len(truth)  # constant
    preds = [t if rng.random() < 0.6 else rng.choice(CLASSES) for t in truth]
    if mode < 0.2:
        preds = [p + ".0" for p in preds]  # a float column of integral values
    elif mode < 0.45:
        for _ in range(rng.randint(1, 2)):
            preds[rng.randrange(len(preds))] = rng.choice(ODD)
    return preds

def make_accuracy_case(k):
    n = 5000 if k == 0 else rng.choice([1, 2, 3, 10, 50, 400])
    ids = list(dict.fromkeys(new_id() for _ in range(n)))
    truth = [rng.choice(CLASSES) for _ in ids]
    if k % 11 == 3:
        truth = [truth[0]] * len(ids)  # one class: a binary target
    elif k % 11 == 7:
        truth = [rng.choice(CLASSES[:2]) for _ in ids]  # two classes
    rows = spoil([[i, p] for i, p in zip(ids, predictions(truth))], new_id)
    if k % 29 == 5 and rows:
        rows[-1] = [""] + rows[-1][1:]  # a missing id
    elif k % 29 == 9 and globals().get("FLOAT_IDS", False):
        rows = [[i + ".0"] + rest for i, *rest in rows]  # float ids, equal as numbers
    header = f"{ID},{TARGET}"
    r = rng.random()
    if r < 0.03:
        header = f"{ID},{TARGET}s"
    elif r < 0.06:
        header, rows = TARGET, [row[1:] for row in rows]
    elif r < 0.1:
        header, rows = f"{TARGET},extra,{ID}", [[row[1], "x", row[0]] for row in rows]
    elif r < 0.12:
        rows = []
    answers = csv_text(f"{ID},{TARGET}", [[i, t] for i, t in zip(ids, truth)])
    return answers, csv_text(header, rows)


# Multi-class log loss graders: the one-hot inputs upstream's helper builds.
def one_hot_log_loss_inputs(submission, answers, id_column):
    # Upstream's competitions/utils.py helper, without the softmax it skips here.
    if not set(submission.columns) >= set(answers.columns):
        raise ValueError("submission lacks an answers column")
    if id_column not in submission.columns:
        raise ValueError("no id column")
    kept = submission[[c for c in answers.columns if c in set(submission.columns)]]
    kept = kept.sort_values(by=id_column).reset_index(drop=True)
    truth = answers.sort_values(by=id_column).reset_index(drop=True)
    assert kept[id_column].tolist() == truth[id_column].tolist(), "ids differ"
    assert list(kept.columns) == list(truth.columns), "column order"
    return truth.drop(columns=[id_column]).to_numpy(), kept.drop(columns=[id_column]).to_numpy()


# Segmentation graders: upstream's rle_decode.
def rle_decode(rle, height, width):
    # mlebench.competitions.utils.rle_decode: 1-based column-major runs.
    assert isinstance(rle, str)
    assert isinstance(height, int) and isinstance(width, int)
    if not rle.strip():
        return np.zeros((height, width), dtype=bool)
    values = [int(token) for token in rle.split()]
    starts, lengths = values[0::2], values[1::2]
    assert starts == sorted(starts)
    assert all(v > 0 for v in starts) and all(v > 0 for v in lengths)
    begins = np.array(starts) - 1
    ends = begins + lengths
    flat = np.zeros(height * width, dtype=bool)
    for lo, hi in zip(begins, ends):
        assert not flat[lo:hi].any()
        flat[lo:hi] = True
    return flat.reshape((width, height)).T


# MAP@k graders: upstream's apk.
def average_precision(actual, predicted, k):
    predicted = predicted[:k]
    score, hits = 0.0, 0.0
    for i, p in enumerate(predicted):
        if p in actual and p not in predicted[:i]:
            hits += 1.0
            score += hits / (i + 1.0)
    if not actual:
        return 0.0
    return score / min(len(actual), k)


# The herbarium family (id-label macro F1). They use the script's ID, TARGET and
# CATEGORIES (how many category ids the competition has).
def grade_id_label_macro_f1(submission, answers):
    if len(submission) != len(answers):
        raise ValueError("length")
    if ID not in submission.columns or TARGET not in submission.columns:
        raise ValueError("columns")
    assert ID in answers.columns and TARGET in answers.columns
    submission = submission.sort_values(ID)
    answers = answers.sort_values(ID)
    if (submission[ID].values != answers[ID].values).any():
        raise ValueError("ids")
    y_true = [int(v) for v in answers[TARGET]]
    y_pred = [int(v) for v in submission[TARGET]]
    return f1_score(y_true=y_true, y_pred=y_pred, average="macro")


# Labels int() takes or rejects; int() takes Unicode digits and spaces.
HERBARIUM_ODD = ["abc", "", "2.5", "1e3", "inf", "-1", "True", "1_0", " 3", "0x10", "-0", "1.0",
                 "99999999999999999999", "18446744073709551615", "9223372036854775807", "nan",
                 "\u0663", "\u00a07", "\uff11\uff10", "\u00b2"]


def herbarium_label(pool, truth):
    r = rng.random()
    if r < 0.03:
        return rng.choice(HERBARIUM_ODD)
    if r < 0.5:
        return truth
    return str(rng.choice(pool))


def make_herbarium_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 400]) if k % 50 else 3000
    pool = rng.sample(range(CATEGORIES), rng.choice([1, 2, 5, 50, 1000]))
    base = rng.choice([0, 1, 10 ** 6])
    ids = [str(base + i) for i in range(n)]
    truth = [str(rng.choice(pool)) for _ in ids]
    rows = [[i, label(pool, t)] for i, t in zip(ids, truth)]
    if k % 13 == 3:
        rows = [[i, rng.choice(["True", "False"])] for i, _ in rows]
    if k % 11 == 5:
        rows = [[i + ".0", p] for i, p in rows]  # float ids still equal the answers' ints
    rows = spoil(rows, lambda: rng.choice(["x1", str(base + n + 1), "", str(base) + ".5"]))
    header = f"{ID},{TARGET}"
    if k % 17 == 6:
        header = rng.choice([f"{ID},predicted", f"id,{TARGET}", ID])
        if header == ID:
            rows = [[r[0]] for r in rows]
    elif k % 17 == 9:
        header, rows = f"{TARGET},{ID},extra", [[p, i, "z"] for i, p in rows]
    answers = csv_text(f"{ID},{TARGET}", [[i, t] for i, t in zip(ids, truth)])
    if k % 29 == 7:
        return answers, rng.choice(["", f"{ID},{TARGET}\n"])
    return answers, csv_text(header, rows)


# The text normalization pair (English, Russian): accuracy of the answers' after column as
# str. They use the script's ID, TARGET, TOKENS, NUMBERS, new_id(), field(value, quote_all)
# and quoted(value).
def grade_text_normalization(submission, answers):
    if TARGET not in answers.columns or ID not in answers.columns:
        raise AssertionError("answers")
    if len(submission) != len(answers):
        raise ValueError("length")
    if TARGET not in submission.columns or ID not in submission.columns:
        raise ValueError("missing column")
    submission = submission.sort_values(ID)
    answers = answers.sort_values(ID)
    if (submission[ID].values != answers[ID].values).any():
        raise ValueError("ids")
    submission[TARGET] = submission[TARGET].astype(str)
    answers[TARGET] = answers[TARGET].astype(str)
    return accuracy_score(y_pred=submission[TARGET].to_numpy(),
                          y_true=answers[TARGET].to_numpy())

def make_text_normalization_case(k):
    n = 4000 if k == 0 else rng.choice([1, 2, 3, 10, 50, 400])
    ids = list(dict.fromkeys(new_id() for _ in range(n)))
    pool = TOKENS
    if k % 13 == 4:
        pool = NUMBERS  # numeric answers: an int or float column
    truth = [rng.choice(pool) for _ in ids]
    if k % 11 == 3:
        truth = [truth[0]] * len(ids)
    mode = rng.random()
    if mode < 0.08:
        preds = [rng.choice(pool)] * len(ids)
    elif mode < 0.25:
        preds = [rng.choice(NUMBERS) for _ in ids]  # a numeric submission column
    else:
        preds = [t if rng.random() < 0.7 else rng.choice(TOKENS) for t in truth]
    quote_all = rng.random() < 0.3
    rows = spoil([[i, p] for i, p in zip(ids, preds)], new_id)
    if k % 29 == 5 and rows:
        rows[-1] = [""] + rows[-1][1:]  # a missing id
    rows = [[field(i, quote_all), field(p, quote_all)] for i, p in rows]
    header = f"{ID},{TARGET}"
    r = rng.random()
    if r < 0.03:
        header = f"{ID},before"
    elif r < 0.06:
        header, rows = TARGET, [row[1:] for row in rows]
    elif r < 0.1:
        header, rows = f"{TARGET},extra,{ID}", [[row[1], "x", row[0]] for row in rows]
    elif r < 0.12:
        rows = []
    answers = csv_text(f"{quoted(ID)},{quoted(TARGET)}",
                       [[quoted(i), quoted(t)] for i, t in zip(ids, truth)])
    return answers, csv_text(header, rows)
