"""Upstream's grade() for 3d-object-detection-for-autonomous-vehicles (length,
columns, Ids equal after sorting, missing submission strings as "", its
parse_row: nines of tokens, Python float(), pyquaternion's axis-angle
Quaternion for the yaw; then per sample and IoU threshold 0.5..0.95 Lyft's
mAP_evaluation: Box3D's checks (str token, NaN, positive sizes, orthogonal
corners with np.isclose) on the boxes of the classes both sides have, ground
polygons from Quaternion.rotation_matrix, shapely 2.0.6 intersections, np.clip
IoUs, predictions ranked by sorted(..., reverse=True), np.max/np.argmax
matching, np.cumsum, the precision envelope and get_ap; np.mean over classes,
then over everything), restated without the multiprocessing pool, on the
reference environment's pandas 2.2.2, numpy 1.26.4, pyquaternion 0.9.9 and
shapely 2.0.6. IoUs are computed once per box pair and reused for every
threshold (upstream recomputes the same values). Cases: samples of 0..6
boxes of a few classes; predictions exact, jittered around the thresholds,
rotated, resized, of the wrong or an absent class, extra, tied, NaN and
"1e-3" scores; zero and negative sizes and NaN coordinates (raising only
where a box is built), infinite yaws (raising in parse_row), text numbers,
token counts, doubled spaces, empty strings; answers without boxes (NaN);
numeric Ids; dropped, duplicated and foreign Ids; missing columns.
See //tools/upstream_grade:driver.py for the names this script is given."""
import warnings

from pyquaternion import Quaternion
from shapely.geometry import Polygon

CASES = 150  # shapely and pyquaternion make a case some 10 ms
MIN_SCORED = 88
MIN_RAISED = 55

THRESHOLDS = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95]


def parse_row(token, text):
    if text.strip() == "":
        return []
    tokens = text.split(" ")
    if len(tokens) % 9:
        raise ValueError("token count")
    boxes = []
    for i in range(0, len(tokens), 9):
        part = tokens[i:i + 9]
        score = float(part[0])
        translation = [float(x) for x in part[1:4]]
        size = [float(x) for x in part[4:7]]
        rotation = list(Quaternion(axis=[0, 0, 1], radians=float(part[7])))
        boxes.append({"token": token, "translation": translation, "size": size,
                      "rotation": rotation, "name": part[8], "score": score})
    return boxes


def orthogonal(a, b, c):
    with np.errstate(invalid="ignore"):  # infinite corners: NaN, not close
        return np.isclose((b[0] - a[0]) * (c[0] - a[0]) + (b[1] - a[1]) * (c[1] - a[1]), 0)


class Box:
    """Box3D's checks and the pieces of it that the IoU uses."""

    def __init__(self, box):
        if not isinstance(box["token"], str):
            raise TypeError("sample token")
        for key in ("translation", "size", "rotation"):
            if np.any(np.isnan(box[key])):
                raise ValueError(f"NaN {key}")
        self.volume = np.prod(box["size"])
        assert np.all([x > 0 for x in box["size"]])
        width, length, height = box["size"]
        x, y, z = box["translation"]
        self.min_z, self.max_z = z - height / 2, z + height / 2
        matrix = Quaternion(box["rotation"]).rotation_matrix
        cos, sin = matrix[0, 0], matrix[1, 0]
        corners = [
            (x + length / 2 * cos + width / 2 * sin, y + length / 2 * sin - width / 2 * cos),
            (x + length / 2 * cos - width / 2 * sin, y + length / 2 * sin + width / 2 * cos),
            (x - length / 2 * cos - width / 2 * sin, y - length / 2 * sin + width / 2 * cos),
            (x - length / 2 * cos + width / 2 * sin, y - length / 2 * sin - width / 2 * cos),
        ]
        p0, p1, p2, p3 = corners
        assert orthogonal(p0, p1, p3)
        assert orthogonal(p1, p0, p2)
        assert orthogonal(p2, p1, p3)
        assert orthogonal(p3, p0, p2)
        self.polygon = Polygon(corners + [p0])

    def iou(self, other):
        height = max(0, min(other.max_z, self.max_z) - max(other.min_z, self.min_z))
        intersection = height * self.polygon.intersection(other.polygon).area
        return np.clip(intersection / (self.volume + other.volume - intersection), 0, 1)


def average_precision(recalls, precisions):
    recalls = np.concatenate(([0.0], recalls, [1.0]))
    precisions = np.concatenate(([0.0], precisions, [0.0]))
    for i in range(precisions.size - 1, 0, -1):  # the envelope
        precisions[i - 1] = np.maximum(precisions[i - 1], precisions[i])
    steps = np.where(recalls[1:] != recalls[:-1])[0]
    return np.sum((recalls[steps + 1] - recalls[steps]) * precisions[steps + 1])


def class_precisions(truths, predictions):
    """The class's AP at each threshold (recall_precision for one sample)."""
    truth_boxes = [Box(t) for t in truths]
    predictions = sorted(predictions, key=lambda p: p["score"], reverse=True)
    overlaps = [[Box(p).iou(t) for t in truth_boxes] for p in predictions]
    aps = []
    for threshold in THRESHOLDS:
        checked = np.zeros(len(truth_boxes))
        tp, fp = np.zeros(len(predictions)), np.zeros(len(predictions))
        for i, row in enumerate(overlaps):
            best, j = np.max(row), np.argmax(row)
            if best > threshold and checked[j] == 0:
                tp[i] = 1.0
                checked[j] = 1
            else:
                fp[i] = 1.0
        fp, tp = np.cumsum(fp, axis=0), np.cumsum(tp, axis=0)
        recalls = tp / float(len(truth_boxes))
        assert np.all(0 <= recalls) & np.all(recalls <= 1)
        precisions = tp / np.maximum(tp + fp, np.finfo(np.float64).eps)
        assert np.all(0 <= precisions) & np.all(precisions <= 1)
        aps.append(average_precision(recalls, precisions))
    return aps


def sample_maps(truths, predictions):
    names = sorted({t["name"] for t in truths})
    per_class = np.zeros((len(THRESHOLDS), len(names)))
    for c, name in enumerate(names):
        mine = [p for p in predictions if p["name"] == name]
        if mine:
            per_class[:, c] = class_precisions([t for t in truths if t["name"] == name], mine)
    with warnings.catch_warnings():  # no classes: the mean of nothing, NaN
        warnings.simplefilter("ignore", RuntimeWarning)
        return [np.mean(per_class[t]) for t in range(len(THRESHOLDS))]


def grade(submission, answers):
    if len(submission) != len(answers):
        raise ValueError("length")
    for column in ("Id", "PredictionString"):
        if column not in submission.columns:
            raise ValueError(f"missing {column}")
    submission = submission.sort_values("Id")
    answers = answers.sort_values("Id")
    if (submission["Id"].values != answers["Id"].values).any():
        raise ValueError("ids")
    submission["PredictionString"] = submission["PredictionString"].fillna("")
    predicted = [parse_row(r["Id"], r["PredictionString"]) for _, r in submission.iterrows()]
    truths = [parse_row(r["Id"], r["PredictionString"]) for _, r in answers.iterrows()]
    maps = [m for t, p in zip(truths, predicted) for m in sample_maps(t, p)]
    return np.mean(maps)


CLASSES = ["car", "pedestrian", "truck", "bicycle", "other_vehicle"]


def random_box():
    return [rng.uniform(0, 3000), rng.uniform(0, 3000), rng.uniform(-30, -10),
            rng.uniform(0.5, 3), rng.uniform(0.5, 9), rng.uniform(1, 4), rng.uniform(-3.2, 3.2)]


def tweak(box):
    x, y, z, w, l, h, yaw = box
    r = rng.random()
    if r < 0.25:
        return list(box)
    if r < 0.6:
        d = rng.choice([0.05, 0.2, 0.5])
        return [x + rng.uniform(-d, d), y + rng.uniform(-d, d), z + rng.uniform(-d, d),
                w * rng.uniform(0.85, 1.15), l * rng.uniform(0.85, 1.15), h, yaw]
    if r < 0.75:
        return [x, y, z, w, l, h, yaw + rng.choice([0.1, 0.5, np.pi / 2, np.pi])]
    return [x + rng.uniform(-3, 3), y + rng.uniform(-3, 3), z, w, l, h, yaw]


def box_text(score, box, name):
    return " ".join([score] + [repr(v) for v in box] + [name])


def score_text():
    r = rng.random()
    if r < 0.35:
        return rng.choice(["1.0", "0.5", "0", "1e-3"])
    if r < 0.37:
        return rng.choice(["nan", "-1", "2"])
    return repr(round(rng.random(), rng.choice([2, 17])))


def make_case(k):
    numeric = k % 29 == 7
    samples = rng.choice([1, 2, 4, 8]) if k % 50 else 30
    classes = CLASSES[:rng.choice([1, 2, 5])]
    answers, subs = [], []
    for s in range(samples):
        token = str(10 ** 9 + s) if numeric else f"{rng.getrandbits(256):064x}"
        truth = [(rng.choice(classes), random_box()) for _ in range(rng.choice([1, 1, 2, 3, 6]))]
        if k % 31 == 11 and s == 0:
            truth = []
        answers.append([token, " ".join(box_text("1.0", b, c) for c, b in truth) or " "])
        predicted = []
        for name, box in truth:
            if rng.random() < 0.85:
                predicted.append((score_text(), tweak(box), name))
            if rng.random() < 0.1:
                predicted.append((score_text(), tweak(box), rng.choice(CLASSES + ["bus"])))
        for _ in range(rng.choice([0, 0, 1, 2])):
            predicted.append((score_text(), random_box(), rng.choice(classes)))
        parts = [box_text(*p) for p in predicted]
        if rng.random() < 0.08 and parts:
            i = rng.randrange(len(parts))
            tokens = parts[i].split(" ")
            j = rng.randrange(1, 8)
            tokens[j] = rng.choice(["0", "-1.5", "nan", "inf", "x", "1_0"])
            parts[i] = " ".join(tokens)
        text = " ".join(parts)
        if rng.random() < 0.04:
            text = rng.choice([text + " car", text.replace(" ", "  ", 1), " " + text, "  ",
                               "\u3000", text + "\t"])
        subs.append([token, text])
    subs = spoil(subs, lambda: f"{rng.getrandbits(256):064x}")
    header = "Id,PredictionString"
    r = rng.random()
    if r < 0.04:
        header = rng.choice(["id,PredictionString", "Id,Prediction"])
    elif r < 0.08:
        header = "PredictionString,Id"
        subs = [[p, i] for i, p in subs]
    return csv_text("Id,PredictionString", answers), csv_text(header, subs)
