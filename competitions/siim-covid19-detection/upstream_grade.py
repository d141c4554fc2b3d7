"""Upstream's grade() for siim-covid19-detection (length, columns, ids equal
after sorting, both PredictionStrings parsed with strip/split and float() in
sixes; then its calculate_map: per answers class, each image's predictions
sorted by confidence (Python's stable sort, descending), greedy matching to
the unmatched true box of best IoU above 0.5, false negatives as (1, 0),
empty images as (0, 0), an assert against all-positive labels, and
scikit-learn's average_precision_score; numpy's mean of the APs), restated, on
the reference environment's pandas 2.2.2, numpy 1.26.4 and scikit-learn 1.5.1.
Cases: studies ("negative|typical|indeterminate|atypical 1 0 0 1 1") and
images ("none 1 0 0 1 1" or opacity boxes) in prepare's shape; predictions of
several classes per row, tied, zero, "1e-3" and NaN/inf confidences, boxes
jittered around IoU 0.5, zero-area and inverted boxes, classes the answers
lack; perfect submissions (all-positive labels: the assert raises);
malformed strings (token counts, text numbers, empty cells); dropped,
duplicated and foreign ids; missing columns.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import average_precision_score

MIN_SCORED = 127
MIN_RAISED = 63


def iou(a, b):
    width = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    height = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = width * height
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def mean_average_precision(submitted, truth):
    aps = []
    for cls in sorted({box[0] for boxes in truth for box in boxes}):
        y_true, y_score = [], []
        for predictions, answers in zip(submitted, truth):
            gt = [box[2:] for box in answers if box[0] == cls]
            predictions.sort(key=lambda box: box[1], reverse=True)
            matched = [False] * len(gt)
            pairs = []
            for box in predictions:
                if box[0] != cls:
                    continue
                best, best_index = 0, -1
                for i, true_box in enumerate(gt):
                    if matched[i]:
                        continue
                    overlap = iou(box[2:], true_box)
                    if overlap > best and overlap > 0.5:
                        best, best_index = overlap, i
                if best_index != -1:
                    matched[best_index] = True
                pairs.append((1 if best_index != -1 else 0, box[1]))
            pairs.extend([(1, 0)] * matched.count(False))
            if not pairs:
                pairs.append((0, 0))  # a true negative
            y_true.extend(p[0] for p in pairs)
            y_score.extend(p[1] for p in pairs)
        if not y_true:
            raise ValueError("empty y_true")
        assert not all(y == 1 for y in y_true), "all positive"
        aps.append(average_precision_score(y_true, y_score))
    return np.mean(aps) if aps else 0.0


def parse(text):
    tokens = text.strip().split()
    return [(tokens[i], *(float(tokens[i + j]) for j in range(1, 6)))
            for i in range(0, len(tokens), 6)]


def grade(submission, answers):
    if len(submission) != len(answers):
        raise ValueError("length")
    for column in ("id", "PredictionString"):
        if column not in submission.columns:
            raise ValueError(f"missing {column}")
    submission = submission.sort_values("id")
    answers = answers.sort_values("id")
    if (submission["id"].values != answers["id"].values).any():
        raise ValueError("ids")
    submitted = submission["PredictionString"].apply(parse)
    truth = answers["PredictionString"].apply(parse)
    return mean_average_precision(submitted, truth) if len(submitted) > 0 else 0.0


STUDY = ["negative", "typical", "indeterminate", "atypical"]


def confidence():
    r = rng.random()
    if r < 0.3:
        return rng.choice(["1", "0.5", "0", "1e-3", "0.25"])
    if r < 0.31:
        return rng.choice(["nan", "inf", "-1"])
    return repr(round(rng.random(), rng.choice([2, 6, 17])))


def jitter(box, scale):
    return [v + rng.uniform(-scale, scale) for v in box]


def image_prediction(boxes, perfect):
    parts = []
    if perfect:
        return " ".join(f"{c} 1 {' '.join(map(repr, b))}" for c, b in boxes)
    for cls, box in boxes:
        if rng.random() < 0.8:
            scale = rng.choice([0, 5, 200, 400]) if cls == "opacity" else 0
            parts.append((cls, jitter(box, scale)))
    for _ in range(rng.choice([0, 1, 2])):
        x, y = rng.uniform(0, 3000), rng.uniform(0, 3000)
        cls = rng.choice(["opacity", "none", "opacity", "typical"])
        parts.append((cls, [x, y, x + rng.uniform(-10, 900), y + rng.uniform(0, 900)]))
    if not parts:
        parts.append(("none", [0, 0, 1, 1]))
    return " ".join(f"{c} {confidence()} {' '.join(repr(round(v, 5)) for v in b)}"
                    for c, b in parts)


def make_case(k):
    studies = rng.choice([1, 2, 5, 20]) if k % 50 else 150
    perfect = k % 10 == 9
    answers, subs = [], []
    for _ in range(studies):
        study = f"{rng.getrandbits(48):012x}"
        label = rng.choice(STUDY[:2] if k % 4 else STUDY)
        answers.append([f"{study}_study", f"{label} 1 0 0 1 1"])
        if perfect:
            predicted = f"{label} 1 0 0 1 1"
        else:
            predicted = " ".join(f"{c} {confidence()} 0 0 1 1"
                                 for c in rng.sample(STUDY, rng.choice([1, 1, 2, 4])))
        subs.append([f"{study}_study", predicted])
        for _ in range(rng.choice([1, 1, 2])):
            image = f"{rng.getrandbits(48):012x}_image"
            boxes = [("none", [0, 0, 1, 1])]
            if rng.random() < 0.6:
                boxes = []
                for _ in range(rng.randint(1, 3)):
                    x, y = rng.uniform(0, 2500), rng.uniform(0, 2500)
                    boxes.append(("opacity", [round(v, 5) for v in
                                              (x, y, x + rng.uniform(100, 1200),
                                               y + rng.uniform(100, 1500))]))
            answers.append([image, " ".join(f"{c} 1 {' '.join(map(repr, b))}" for c, b in boxes)])
            subs.append([image, image_prediction(boxes, perfect)])
    if k % 20 == 19:  # opacity images only, found perfectly: every label is 1
        kept = [i for i, a in enumerate(answers) if a[1].startswith("opacity")] or [0]
        answers, subs = [answers[i] for i in kept], [subs[i] for i in kept]
    if k % 6 == 2:
        i = rng.randrange(len(subs))
        subs[i][1] = rng.choice(["", subs[i][1] + " opacity 0.5 1 2", "none one 0 0 1 1",
                                 "none 0.5 0 0 1 1 ", "  typical 0.5 0 0 1 1",
                                 subs[i][1].replace(" ", "\t"), subs[i][1].replace(" ", "\u3000"),
                                 "none 1_0 0 0 1 1", "none 0.5 ٠ 0 1 1"])
    subs = spoil(subs, lambda: f"{rng.getrandbits(48):012x}_image")
    header = "id,PredictionString"
    r = rng.random()
    if r < 0.04:
        header = rng.choice(["Id,PredictionString", "id,prediction_string"])
    elif r < 0.08:
        header = "PredictionString,id"
        subs = [[p, i] for i, p in subs]
    return csv_text("id,PredictionString", answers), csv_text(header, subs)
