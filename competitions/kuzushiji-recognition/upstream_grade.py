"""Upstream's grade() for kuzushiji-recognition (its prepare_for_metric: length,
columns, image_ids equal after sorting, every non-empty prediction string a
multiple of three tokens whose X and Y pass Python's float(); then its
kuzushiji_metric.kuzushiji_f1: per page, each true box in order takes the first
unused prediction of its label strictly inside it, numpy's string-to-float
casts and argmax; F1 over the pooled counts), restated without upstream's
multiprocessing pool (which only maps score_page over the pages), on the
reference environment's pandas 2.2.2 and numpy 1.26.4. Cases: pages with no
characters (empty labels), centres inside, on the edges of, and outside boxes,
wrong labels, two predictions for one box, extra predictions, empty
predictions; coordinates spelled "1_0", "١٢", "1e2", "inf", "nan", "12.0";
malformed strings (token counts, text coordinates, double spaces, a number
where a string belongs); dropped, duplicated and foreign image_ids; missing
columns and empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""

MIN_SCORED = 122
MIN_RAISED = 68


def score_page(preds, truth):
    if pd.isna(truth) and pd.isna(preds):
        return 0, 0, 0
    if pd.isna(truth):
        return 0, len(preds.split(" ")) // 3, 0
    if pd.isna(preds):
        return 0, 0, len(truth.split(" ")) // 5
    truth = truth.split(" ")
    if len(truth) % 5:
        raise ValueError("malformed solution")
    labels = np.array(truth[0::5])
    xmin, ymin = np.array(truth[1::5]).astype(float), np.array(truth[2::5]).astype(float)
    xmax = xmin + np.array(truth[3::5]).astype(float)
    ymax = ymin + np.array(truth[4::5]).astype(float)
    preds = preds.split(" ")
    if len(preds) % 3:
        raise ValueError("malformed prediction")
    pred_labels = np.array(preds[0::3])
    xs, ys = np.array(preds[1::3]).astype(float), np.array(preds[2::3]).astype(float)
    unused = np.ones(len(pred_labels)).astype(bool)
    tp = fn = 0
    for x0, x1, y0, y1, label in zip(xmin, xmax, ymin, ymax, labels):
        hit = (x0 < xs) & (x1 > xs) & (y0 < ys) & (y1 > ys) & (pred_labels == label) & unused
        if hit.sum() == 0:
            fn += 1
        else:
            tp += 1
            unused[np.argmax(hit)] = False
    return tp, unused.sum(), fn


def grade(submission, answers):
    if len(submission) != len(answers):
        raise ValueError("length")
    if not {"image_id", "labels"}.issubset(submission.columns):
        raise ValueError("columns")
    submission = submission.sort_values("image_id").reset_index(drop=True)
    answers = answers.sort_values("image_id").reset_index(drop=True)
    if not all(submission["image_id"] == answers["image_id"]):
        raise ValueError("image ids")
    for pred in submission["labels"]:
        if pd.isna(pred):
            continue
        tokens = pred.split(" ")
        if len(tokens) % 3:
            raise ValueError("malformed")
        for i in range(1, len(tokens), 3):  # X then Y; the first failure raises either way
            float(tokens[i])
        for i in range(2, len(tokens), 3):
            float(tokens[i])
    if not all(submission["image_id"].values == answers["image_id"].values):
        raise ValueError("image ids")  # kuzushiji_f1's own check, as upstream repeats it
    counts = [score_page(p, t) for p, t in zip(submission["labels"].values,
                                               answers["labels"].values)]
    tp, fp, fn = (sum(c[i] for c in counts) for i in range(3))
    if tp + fp == 0 or tp + fn == 0:
        return 0.0
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    if precision > 0 and recall > 0:
        return float(2 * precision * recall / (precision + recall))
    return 0.0


LABELS = ["U+306F", "U+304C", "U+3044", "U+003F", "U+FF2F", "U+5B50"]


def spelled(value):
    r = rng.random()
    if r < 0.03:
        return rng.choice(["1_0", "١٢", "1e2", "inf", "-inf", "nan", "12.0", "+3", "infinity",
                           "\t12", "12\u3000"])
    if r < 0.1:
        return repr(value + 0.5)
    return str(value)


def page_prediction(boxes, fault):
    parts = []
    for label, x, y, w, h in boxes:
        r = rng.random()
        if r < 0.5:
            cx, cy = x + w // 2, y + h // 2
        elif r < 0.6:
            cx, cy = rng.choice([(x, y + h // 2), (x + w, y + 1), (x + 1, y + h)])  # edges
        elif r < 0.7:
            cx, cy = x + w + 5, y + h // 2
        elif r < 0.8:
            cx, cy = x + w // 2, y + h // 2
            label = rng.choice(LABELS)
        else:
            continue
        parts.append([label, spelled(cx), spelled(cy)])
        if rng.random() < 0.1:
            parts.append(list(parts[-1]))  # two predictions for one box
    for _ in range(rng.choice([0, 0, 1, 3])):
        parts.append([rng.choice(LABELS), str(rng.randint(0, 3000)), str(rng.randint(0, 4000))])
    rng.shuffle(parts)
    text = " ".join(" ".join(p) for p in parts)
    if rng.random() < fault:
        text = rng.choice([text + " U+306F 12", text + " U+306F abc 12", text.replace(" ", "  ", 1),
                           "U+306F 1 2 ", "7"])
    return text


def make_case(k):
    pages = rng.choice([1, 2, 5, 30]) if k % 50 else 400
    book = rng.choice(["100241706", "200003076", "umgy011", "hnsd004"])
    ids = [f"{book}_{i:05d}_{rng.randint(1, 2)}" if book[0].isdigit() else f"{book}-{i:03d}"
           for i in rng.sample(range(1000), pages)]
    fault = rng.choice([0, 0, 0, 0.02, 0.2])
    answers, subs = [], []
    for image in ids:
        boxes = [(rng.choice(LABELS[:3] if k % 3 else LABELS), rng.randint(0, 3000),
                  rng.randint(0, 4000), rng.randint(0 if k % 7 == 2 else 1, 150),
                  rng.randint(1, 150)) for _ in range(rng.choice([0, 1, 3, 15]))]
        answers.append([image, " ".join(" ".join(map(str, b)) for b in boxes)])
        predicted = page_prediction(boxes, fault) if rng.random() > 0.1 else ""
        subs.append([image, predicted])
    subs = spoil(subs, lambda: f"{book}_99999_1")
    header = "image_id,labels"
    r = rng.random()
    if r < 0.04:
        header = rng.choice(["image_id,label", "id,labels"])
    elif r < 0.08:
        header = "labels,image_id"
        subs = [[p, i] for i, p in subs]
    elif r < 0.1:
        subs = []
    return csv_text("image_id,labels", answers), csv_text(header, subs)
