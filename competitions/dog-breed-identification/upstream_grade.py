"""Upstream's grade() for dog-breed-identification (prepare_for_metric, its
one_hot_dfs_to_log_loss_inputs helper, then log_loss on the one-hot answers),
restated, on the reference environment's pandas 2.2.2, numpy 1.26.4 and
scikit-learn 1.5.1. Cases: soft, one-hot and constant rows; zeros (clipped);
row sums just inside and outside isclose's tolerance; NaN, text, negative,
above-one and inf cells; missing breed or id columns, extra or doubled
columns; dropped, duplicated and foreign ids; empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import log_loss

MIN_SCORED = 95
MIN_RAISED = 95

# Upstream's dogs.py, in its order: the answers' columns after "id".
BREEDS = """
    affenpinscher afghan_hound african_hunting_dog airedale american_staffordshire_terrier
    appenzeller australian_terrier basenji basset beagle bedlington_terrier
    bernese_mountain_dog black-and-tan_coonhound blenheim_spaniel bloodhound bluetick
    border_collie border_terrier borzoi boston_bull bouvier_des_flandres boxer
    brabancon_griffon briard brittany_spaniel bull_mastiff cairn cardigan
    chesapeake_bay_retriever chihuahua chow clumber cocker_spaniel collie
    curly-coated_retriever dandie_dinmont dhole dingo doberman english_foxhound english_setter
    english_springer entlebucher eskimo_dog flat-coated_retriever french_bulldog
    german_shepherd german_short-haired_pointer giant_schnauzer golden_retriever gordon_setter
    great_dane great_pyrenees greater_swiss_mountain_dog groenendael ibizan_hound irish_setter
    irish_terrier irish_water_spaniel irish_wolfhound italian_greyhound japanese_spaniel
    keeshond kelpie kerry_blue_terrier komondor kuvasz labrador_retriever lakeland_terrier
    leonberg lhasa malamute malinois maltese_dog mexican_hairless miniature_pinscher
    miniature_poodle miniature_schnauzer newfoundland norfolk_terrier norwegian_elkhound
    norwich_terrier old_english_sheepdog otterhound papillon pekinese pembroke pomeranian pug
    redbone rhodesian_ridgeback rottweiler saint_bernard saluki samoyed schipperke
    scotch_terrier scottish_deerhound sealyham_terrier shetland_sheepdog shih-tzu
    siberian_husky silky_terrier soft-coated_wheaten_terrier staffordshire_bullterrier
    standard_poodle standard_schnauzer sussex_spaniel tibetan_mastiff tibetan_terrier
    toy_poodle toy_terrier vizsla walker_hound weimaraner welsh_springer_spaniel
    west_highland_white_terrier whippet wire-haired_fox_terrier yorkshire_terrier
""".split()


one_hot_log_loss_inputs = one_hot_log_loss_inputs


def grade(submission, answers):
    if not all(b in submission.columns for b in BREEDS):
        raise ValueError("a breed column is missing")
    if "id" not in submission.columns:
        raise ValueError("no id column")
    if len(submission) != len(answers):
        raise ValueError("length")
    assert "id" in answers.columns and all(b in answers.columns for b in BREEDS)
    probabilities = submission[BREEDS]
    if not np.all(np.isclose(probabilities.sum(axis=1), 1, atol=1e-6)):
        raise ValueError("rows must sum to one")
    if not ((probabilities >= 0) & (probabilities <= 1)).all().all():
        raise ValueError("range")
    y_true, y_pred = one_hot_log_loss_inputs(submission, answers, "id")
    return log_loss(y_true=y_true, y_pred=y_pred)


def new_id():
    return f"{rng.getrandbits(128):032x}"


def probability_row(style):
    """The breed cells of one row, as text."""
    cells = ["0"] * len(BREEDS)
    if style == "one-hot":
        cells[rng.randrange(len(BREEDS))] = rng.choice(["1", "1.0", "1e0"])
        return cells
    if style == "uniform":
        return [repr(1 / len(BREEDS))] * len(BREEDS)
    chosen = rng.sample(range(len(BREEDS)), rng.choice([1, 2, 5, 120]))
    weights = [rng.random() for _ in chosen]
    total = sum(weights)
    for c, w in zip(chosen, weights):
        cells[c] = repr(w / total)
    if style == "rounded":  # sums drift from one by up to ~ len(chosen) * 5e-4
        digits = rng.choice([3, 7])
        cells = [c if c == "0" else repr(round(float(c), digits)) for c in cells]
    elif style == "near" and rng.random() < 0.2:  # just in or out of atol 1e-6 + rtol 1e-5
        c = chosen[0]
        cells[c] = repr(float(cells[c]) + rng.choice([9e-6, 1.05e-5, -1.05e-5, 1.2e-5, -2e-5]))
    return cells


def fault(cells):
    r = rng.random()
    c = rng.randrange(len(cells))
    if r < 0.3:
        cells[c] = rng.choice(["", "abc", "nan", "inf", "-inf"])
    elif r < 0.6:  # out of range, still summing to one
        d = rng.randrange(len(cells))
        if d != c:
            cells[c], cells[d] = "1.5", "-0.5"
    else:
        cells[c] = rng.choice(["1e-300", "5e-324", "0.0", "-0.0"])
    return cells


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 40, 200]) if k else 800
    ids = [new_id() for _ in range(n)]
    truth = [rng.randrange(len(BREEDS)) for _ in ids]
    if k % 13 == 3:
        truth = [rng.randrange(2) for _ in ids]  # few breeds present
    answers = [[i] + ["1" if t == b else "0" for b in range(len(BREEDS))]
               for i, t in zip(ids, truth)]
    style = rng.choice(["soft", "soft", "one-hot", "uniform", "rounded", "near"])
    rows = []
    for i, t in zip(ids, truth):
        if style == "one-hot" and rng.random() < 0.5:
            cells = ["1" if t == b else "0" for b in range(len(BREEDS))]
        else:
            cells = probability_row(style)
        rows.append([i] + cells)
    if rng.random() < 0.25:
        rows[0] = rows[0][:1] + fault(rows[0][1:])
    rows = spoil(rows, new_id)
    header = ["id"] + BREEDS
    r = rng.random()
    if r < 0.04:  # a breed column missing
        drop = rng.randrange(1, len(header))
        header = header[:drop] + header[drop + 1:]
        rows = [row[:drop] + row[drop + 1:] for row in rows]
    elif r < 0.07:  # no id column
        header = ["image"] + header[1:]
    elif r < 0.12:  # an extra column, and the columns shuffled
        order = list(range(len(header)))
        rng.shuffle(order)
        header = [header[o] for o in order] + ["extra"]
        rows = [[row[o] for o in order] + ["0.5"] for row in rows]
    elif r < 0.16:  # a breed column twice: pandas names the second "<breed>.1", unused
        c = rng.randrange(1, len(header))
        header = header + [header[c]]
        rows = [row + [rng.choice(["0.7", "abc"])] for row in rows]
    elif r < 0.18:
        rows = []
    return csv_text(",".join(["id"] + BREEDS), answers), csv_text(",".join(header), rows)
