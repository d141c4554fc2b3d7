"""Upstream's grade() for plant-seedlings-classification (its
prepare_for_metric: both columns, equal lengths, files equal after
sort_values, the species as .tolist(); then f1_score(average="micro")),
restated, on the reference environment's pandas 2.2.2, numpy 1.26.4 and
scikit-learn 1.5.1. Cases: "<hex>.png" file names (foreign, repeated,
dropped, missing, upper-cased), the twelve species or a single one, species
the answers lack, misspelt and re-cased names, missing cells among names (numpy
makes them "nan"), all-number, all-boolean and all-missing species columns;
missing, renamed and extra columns, header-only and empty files.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import f1_score

MIN_SCORED = 140
MIN_RAISED = 46

ID, TARGET = "file", "species"
SPECIES = ["Black-grass", "Charlock", "Cleavers", "Common Chickweed", "Common wheat", "Fat Hen",
           "Loose Silky-bent", "Maize", "Scentless Mayweed", "Shepherds Purse",
           "Small-flowered Cranesbill", "Sugar beet"]


def grade(submission, answers):
    assert ID in answers.columns and TARGET in answers.columns
    if ID not in submission.columns:
        raise ValueError("no file column")
    if TARGET not in submission.columns:
        raise ValueError("no species column")
    if len(submission) != len(answers):
        raise ValueError("length")
    submission = submission.sort_values(ID)
    answers = answers.sort_values(ID)
    if (submission[ID].values != answers[ID].values).any():
        raise ValueError("files")
    y_true = answers[TARGET].tolist()
    y_pred = submission[TARGET].tolist()
    return f1_score(y_true=y_true, y_pred=y_pred, average="micro")


def new_id():
    return f"{rng.getrandbits(36):09x}.png"


def prediction(pool, truth):
    r = rng.random()
    if r < 0.04:
        return rng.choice(["", "black-grass", "Maize ", "nan", "1", "True", '"Fat Hen"', "Rose"])
    if r < 0.6:
        return truth
    return rng.choice(pool if rng.random() < 0.8 else SPECIES)


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 400]) if k % 50 else 2000
    pool = rng.sample(SPECIES, rng.choice([1, 2, 5, 12]))
    ids = list(dict.fromkeys(new_id() for _ in range(n)))
    truth = [rng.choice(pool) for _ in ids]
    rows = [[i, prediction(pool, t)] for i, t in zip(ids, truth)]
    if k % 13 == 3:
        rows = [[i, rng.choice(["0", "1", "True", "False", ""])] for i, _ in rows]
        rows = [[i, p if k % 39 == 3 else rng.choice([p, "2"])] for i, p in rows]
    rows = spoil(rows, lambda: rng.choice([new_id(), "", ids[0].upper(), ids[0][:-4]]))
    header = f"{ID},{TARGET}"
    if k % 17 == 6:
        header = rng.choice([f"{ID},Species", f"filename,{TARGET}", ID])
        if header == ID:
            rows = [[r[0]] for r in rows]
    elif k % 17 == 9:
        header, rows = f"{TARGET},{ID},extra", [[p, i, "z"] for i, p in rows]
    answers = csv_text(f"{ID},{TARGET}", [[i, t] for i, t in zip(ids, truth)])
    if k % 29 == 7:
        return answers, rng.choice(["", f"{ID},{TARGET}\n"])
    return answers, csv_text(header, rows)
