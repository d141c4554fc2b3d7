"""Upstream's grade() for bms-molecular-translation (its prepare_for_metric:
the same length, image_id and InChI columns, sort, the same ids, astype(str);
then np.mean of Levenshtein.distance per image), restated, on the reference
environment's Levenshtein 0.25.1, numpy 1.26.4 and pandas 2.2.2. Cases:
InChI strings (quoted: they hold commas) with characters changed, dropped,
added or cut off, layers missing, the sample submission's constant guess,
non-ASCII characters (distances count code points); empty and NA cells (the
text "nan"), columns that read as int64 or float64 ("1.0", "nan"); hex ids,
all-digit ids (int64 when every id is), dropped, duplicated and foreign ids;
missing and extra columns; empty submissions and empty files.
See //tools/upstream_grade:driver.py for the names this script is given."""
from Levenshtein import distance

MIN_SCORED = 140
MIN_RAISED = 46


def grade(submission, answers):
    if len(submission) != len(answers):
        raise ValueError("length")
    if "image_id" not in submission.columns or "InChI" not in submission.columns:
        raise ValueError("missing column")
    submission = submission.sort_values("image_id")
    answers = answers.sort_values("image_id")
    if (submission["image_id"].values != answers["image_id"].values).any():
        raise ValueError("ids")
    truth, predicted = answers["InChI"].astype(str), submission["InChI"].astype(str)
    return np.mean([distance(t, p) for t, p in zip(truth, predicted)])


def inchi():
    carbons = rng.randint(1, 30)
    formula = f"C{carbons}H{rng.randint(1, 40)}" + rng.choice(["", "N2", "O", "ClNO2", "BrS"])
    bonds = "-".join(str(rng.randint(1, carbons + 5)) for _ in range(rng.randint(1, 12)))
    hydrogens = ",".join(str(rng.randint(1, carbons + 5)) for _ in range(rng.randint(1, 5)))
    return f"InChI=1S/{formula}/c{bonds}/h{hydrogens}H" + rng.choice(["", "", "/t7-/m0/s1"])


def guess(truth, faults):
    r = rng.random()
    if r < faults:
        return rng.choice(["", "NA", "nan", "null"])  # the text "nan"
    if r < 0.25:
        return truth
    if r < 0.35:
        return "InChI=1S/H2O/h1H2"  # the sample submission's guess
    chars = list(truth)
    if r < 0.45:
        return "".join(chars[:rng.randint(0, len(chars))])
    for _ in range(rng.randint(1, 6)):
        position = rng.randrange(len(chars) + 1)
        edit = rng.random()
        if edit < 0.3 and position < len(chars):
            chars.pop(position)
        elif edit < 0.6:
            chars.insert(position, rng.choice("CHNO0123456789/-,()é\u00b2"))
        elif position < len(chars):
            chars[position] = rng.choice("CHNO123")
    return "".join(chars)


def new_id():
    if rng.random() < 0.05:
        return f"{rng.randrange(10 ** 12):012d}"  # all digits
    return f"{rng.getrandbits(48):012x}"


def quote(field):
    if "," in field or '"' in field or rng.random() < 0.3:
        return '"' + field.replace('"', '""') + '"'
    return field


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 400]) if k else 3000
    ids = [new_id() for _ in range(n)]
    if k % 11 == 6:
        ids = [f"{rng.randrange(10 ** 12):012d}" for _ in ids]  # an int64 id column
    truths = [inchi() for _ in ids]
    faults = 0.05 if k % 3 else 0.0
    rows = [[i, guess(t, faults)] for i, t in zip(ids, truths)]
    if k % 17 == 3:
        rows = [[i, rng.choice(["1", "0", "2"])] for i, _ in rows]  # int64: "1"
        if rng.random() < 0.5:
            rows[0][1] = rng.choice(["", "1.5"])  # float64: "1.0", "nan"
    rows = spoil(rows, new_id)
    rows = [[i, quote(s)] for i, s in rows]
    header = "image_id,InChI"
    if k % 29 == 11:
        header = rng.choice(["image_id,inchi", "id,InChI"])
    if k % 31 == 13:
        rows = []
    if k % 37 == 17:
        header, rows = "image_id,InChI,score", [r + ["0.5"] for r in rows]
    answers = csv_text("image_id,InChI", [[i, quote(t)] for i, t in zip(ids, truths)])
    if k % 43 == 20:
        return answers, ""  # an empty file: no columns at all
    return answers, csv_text(header, rows)
