"""Upstream's grade() for AI4Code (its prepare_for_metric: length, columns, the
same id set, cell_order through astype(str) and split(), equal item counts per
row; then its pooled Kendall tau, which ranks the answer's cells by their
position in the submitted list and counts inversions with bisect), restated,
on the reference environment's pandas 2.2.2. Upstream pairs the submission's
lists as the "ground truth" and the answers' as the "predictions"; kept here.
Cases: notebooks of 1..20 cells (all single-cell: tau divides by zero),
orders kept, reversed, shuffled or nearly sorted; a cell dropped, repeated or
foreign; empty orders ("nan"); ids and cell ids all digits or "1e5"-like, so
that pandas reads them as numbers; dropped, duplicated and foreign notebook
ids; missing columns. See //tools/upstream_grade:driver.py for the names this
script is given."""
from bisect import bisect

MIN_SCORED = 106
MIN_RAISED = 84


def inversions(ranks):
    count, seen = 0, []
    for i, rank in enumerate(ranks):
        j = bisect(seen, rank)
        count += i - j
        seen.insert(j, rank)
    return count


def kendall_tau(ground_truth, predictions):
    total, most = 0, 0
    for truth, predicted in zip(ground_truth, predictions):
        total += inversions([truth.index(item) for item in predicted])
        most += len(truth) * (len(truth) - 1)
    return 1 - 4 * total / most


def grade(submission, answers):
    if len(submission) != len(answers):
        raise ValueError("length")
    if "id" not in submission.columns or "cell_order" not in submission.columns:
        raise ValueError("columns")
    if set(submission["id"]) != set(answers["id"]):
        raise ValueError("ids")
    submission["cell_order"] = submission["cell_order"].astype(str)
    answers["cell_order"] = answers["cell_order"].astype(str)
    submission = submission.sort_values("id")
    answers = answers.sort_values("id")
    # As upstream: the submitted lists stand as ground truth, the answers' as predictions.
    truths, predictions = [], []
    for (_, submitted), (_, answer) in zip(submission.iterrows(), answers.iterrows()):
        truth, predicted = submitted["cell_order"].split(), answer["cell_order"].split()
        if len(truth) != len(predicted):
            raise ValueError("item counts")
        truths.append(truth)
        predictions.append(predicted)
    return kendall_tau(truths, predictions)


def hex_id(digits, numeric):
    if numeric:
        return "".join(rng.choice("0123456789") for _ in range(digits))
    return "".join(rng.choice("0123456789abcdef") for _ in range(digits))


def reorder(cells):
    cells = list(cells)
    r = rng.random()
    if r < 0.15:
        return cells
    if r < 0.25:
        return cells[::-1]
    if r < 0.6:
        rng.shuffle(cells)
        return cells
    for _ in range(rng.randint(1, 3)):  # nearly right: a few swaps
        i, j = rng.randrange(len(cells)), rng.randrange(len(cells))
        cells[i], cells[j] = cells[j], cells[i]
    return cells


def make_case(k):
    count = rng.choice([1, 2, 5, 30]) if k % 50 else 300
    numeric_cells = k % 11 == 5  # a single digit-only cell reads as a number
    ids = [hex_id(14, k % 13 == 7) for _ in range(count)]
    if k % 17 == 3:
        ids = [f"{i}1e{k % 5}" for i in range(count)]  # distinct, read as floats
    orders = []
    for _ in ids:
        cells = rng.choice([1, 2, 3, 8, 20]) if k % 19 != 2 else 1
        orders.append([hex_id(8, numeric_cells) for _ in range(cells)])
    subs = []
    fault = rng.choice([0, 0, 0, 0.02, 0.2])
    for notebook, order in zip(ids, orders):
        predicted = reorder(order)
        r = rng.random() / fault if fault else 1
        if r < 0.25:
            predicted = predicted[1:]
        elif r < 0.5:
            predicted = predicted + [rng.choice(order)]
        elif r < 0.75:
            predicted[0] = hex_id(8, numeric_cells)
        elif r < 0.9 and len(predicted) > 1:
            predicted[1] = predicted[0]
        elif r < 1:
            predicted = []
        separator = " " if k % 7 else rng.choice(["  ", "\t", "\u3000", "\x1f", " \u00a0"])
        subs.append([notebook, separator.join(predicted)])
    subs = spoil(subs, lambda: hex_id(14, False))
    header = "id,cell_order"
    r = rng.random()
    if r < 0.05:
        header = rng.choice(["id,order", "Id,cell_order"])
    elif r < 0.1:
        header = "cell_order,id"
        subs = [[o, i] for i, o in subs]
    answers = csv_text("id,cell_order", [[i, " ".join(o)] for i, o in zip(ids, orders)])
    return answers, csv_text(header, subs)
