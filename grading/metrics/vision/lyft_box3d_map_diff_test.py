"""Reference for lyft_box3d_map_diff_test.cc.

Writes random cases of the Lyft 3-D detection grade and the expected result
of each. The reference restates, in plain Python with numpy, upstream's
parse_row and Lyft's mAP_evaluation.py (Box3D checks, greedy matching at each
IoU threshold, get_ap) on the real pyquaternion 0.9.9 (the axis-angle
constructor, rotation_matrix) and shapely 2.0.6 (ground-polygon
intersections), the reference environment's, as upstream imports them.
(Until 2026-12-02 the pyquaternion pieces were restated too; on these cases
the outputs are byte-identical.)

Output format, per case:
  case <num_samples>
  h<hex of answer PredictionString> h<hex of submission PredictionString>   (one line per sample)
  raise | <repr of the score>
Usage: lyft_box3d_map_diff_test.py OUT_PATH
"""

import math
import random
import sys

import numpy as np
from pyquaternion import Quaternion
from shapely.geometry import Polygon

THRESHOLDS = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95]
CLASSES = ["car", "bus", "pedestrian", "truck", "Car"]


# ---- pyquaternion, as upstream's parse_row and Box3D call it ----
def axis_z_quaternion(yaw):
    return list(Quaternion(axis=[0, 0, 1], radians=yaw))  # ValueError for +-inf


def yaw_cos_sin(rotation):
    matrix = Quaternion(rotation).rotation_matrix
    return matrix[0, 0], matrix[1, 0]


# ---- parse_row ----
def parse(text, token):
    if text.strip() == "":
        return []
    parts = text.split(" ")
    if len(parts) % 9:
        raise ValueError("token count")
    boxes = []
    for start in range(0, len(parts), 9):
        group = parts[start:start + 9]
        numbers = [float(v) for v in group[:8]]
        boxes.append(dict(token=token, score=numbers[0], xyz=numbers[1:4], size=numbers[4:7],
                          rotation=axis_z_quaternion(numbers[7]), name=group[8]))
    return boxes


# ---- Box3D ----
class Solid:
    def __init__(self, box):
        if not isinstance(box["token"], str):
            raise TypeError("token")
        for group in (box["xyz"], box["size"], box["rotation"]):
            if np.any(np.isnan(group)):
                raise ValueError("nan")
        assert all(v > 0 for v in box["size"])
        width, length, height = box["size"]
        cx, cy, cz = box["xyz"]
        self.volume = np.prod(box["size"])
        self.bottom = cz - height / 2
        self.top = cz + height / 2
        c, s = yaw_cos_sin(box["rotation"])
        hl, hw = length / 2, width / 2
        corners = [
            (cx + hl * c + hw * s, cy + hl * s - hw * c),
            (cx + hl * c - hw * s, cy + hl * s + hw * c),
            (cx - hl * c - hw * s, cy - hl * s + hw * c),
            (cx - hl * c + hw * s, cy - hl * s - hw * c),
        ]

        def square(a, b, d):
            dot = (b[0] - a[0]) * (d[0] - a[0]) + (b[1] - a[1]) * (d[1] - a[1])
            return np.isclose(dot, 0)

        p0, p1, p2, p3 = corners
        assert square(p0, p1, p3) and square(p1, p0, p2)
        assert square(p2, p1, p3) and square(p3, p0, p2)
        self.ground = Polygon(corners + [p0])

    def iou(self, other):
        low = max(other.bottom, self.bottom)
        high = min(other.top, self.top)
        inter = max(0, high - low) * self.ground.intersection(other.ground).area
        return np.clip(inter / (self.volume + other.volume - inter), 0, 1)


def class_aps(truths, predictions):
    """The class AP at each threshold. Nothing before the threshold test
    depends on the threshold, so the boxes and overlaps are built once."""
    solids = [Solid(b) for b in truths]
    ranked = sorted(predictions, key=lambda b: b["score"], reverse=True)
    best = []
    for box in ranked:
        mine = Solid(box)
        overlaps = [mine.iou(t) for t in solids]
        best.append((np.max(overlaps), np.argmax(overlaps)))
    aps = []
    for threshold in THRESHOLDS:
        taken = np.zeros(len(solids))
        hits = np.zeros(len(ranked))
        misses = np.zeros(len(ranked))
        for k, (value, where) in enumerate(best):
            if value > threshold and taken[where] == 0:
                hits[k] = 1
                taken[where] = 1
            else:
                misses[k] = 1
        hits = np.cumsum(hits)
        misses = np.cumsum(misses)
        recall = np.concatenate(([0.0], hits / float(len(truths)), [1.0]))
        precision = np.concatenate(
            ([0.0], hits / np.maximum(hits + misses, np.finfo(np.float64).eps), [0.0]))
        for i in range(precision.size - 1, 0, -1):
            precision[i - 1] = np.maximum(precision[i - 1], precision[i])
        steps = np.where(recall[1:] != recall[:-1])[0]
        aps.append(np.sum((recall[steps + 1] - recall[steps]) * precision[steps + 1]))
    return aps


def grade(rows):
    values = []
    for answer_text, submission_text in rows:
        truths = parse(answer_text, "tok")
        predictions = parse(submission_text, "tok")
        names = sorted({b["name"] for b in truths})
        aps = np.zeros((len(THRESHOLDS), len(names)))
        for c, name in enumerate(names):
            mine = [b for b in predictions if b["name"] == name]
            if mine:
                aps[:, c] = class_aps([b for b in truths if b["name"] == name], mine)
        values.extend(np.mean(aps[t]) for t in range(len(THRESHOLDS)))
    return np.mean(values)


# ---- random cases ----
def fmt(rng, value):
    if rng.random() < 0.8:
        return repr(float(value))
    return "%.4f" % value


def box_text(rng, score, xyz, size, yaw, name):
    numbers = [score] + list(xyz) + list(size) + [yaw]
    return " ".join([fmt(rng, v) for v in numbers] + [name])


def random_box(rng, names, around=None):
    name = rng.choice(names)
    if around is not None and rng.random() < 0.85:
        x, y, z, w, l, h, yaw = around
        x += rng.gauss(0, 0.4)
        y += rng.gauss(0, 0.4)
        z += rng.gauss(0, 0.2)
        w *= math.exp(rng.gauss(0, 0.15))
        l *= math.exp(rng.gauss(0, 0.15))
        h *= math.exp(rng.gauss(0, 0.15))
        yaw += rng.gauss(0, 0.3)
        roll = rng.random()
        if roll < 0.15:
            x, y, z, w, l, h, yaw = around  # exact copy
        elif roll < 0.25:
            x, y, z, w, l, h, yaw = around  # axis-aligned, touching or nearly
            yaw = 0.0
            x += l / 2 + rng.choice([l / 2, l / 2 - 1e-9, 0.25])
    else:
        x, y = rng.uniform(2000, 2010), rng.uniform(600, 610)
        z = rng.uniform(-20, -17)
        w, l, h = rng.uniform(0.5, 3), rng.uniform(0.5, 6), rng.uniform(0.5, 3)
        yaw = rng.uniform(-math.pi, math.pi)
    return name, [x, y, z, w, l, h, yaw]


def spoil(rng, numbers):
    index = rng.randrange(7)
    numbers[index] = rng.choice([float("nan"), float("inf"), -float("inf"), 0.0, -1.0, 1e300])
    return numbers


def random_row(rng, names, count, around=None, scores=None):
    texts = []
    geometry = []
    for _ in range(count):
        base = rng.choice(around) if around else None
        name, numbers = random_box(rng, names, base[1] if base else None)
        if base is not None and rng.random() < 0.7:
            name = base[0]
        if rng.random() < 0.008:
            numbers = spoil(rng, numbers)
        score = rng.choice(scores) if scores else rng.random()
        if rng.random() < 0.01:
            score = float("nan")
        geometry.append((name, numbers))
        texts.append(box_text(rng, score, numbers[:3], numbers[3:6], numbers[6], name))
    text = " ".join(texts)
    roll = rng.random()
    if roll < 0.005:
        text = text.replace(" ", "  ", 1)
    elif roll < 0.01:
        text = text + " 1"
    elif roll < 0.015 and text:
        text = text.replace(" ", " x", 1)
    elif roll < 0.1 and not text:
        text = rng.choice([" ", "\t", "  \n"])
    return text, geometry


def main():
    rng = random.Random(20240613)
    lines = []
    for case in range(600):
        num_samples = rng.randint(1, 4)
        rows = []
        for _ in range(num_samples):
            names = rng.sample(CLASSES, rng.randint(1, 3))
            num_truths = rng.choice([0] + [rng.randint(1, 6)] * 12)
            answer, geometry = random_row(rng, names, num_truths, scores=[1.0])
            extra = names + ([rng.choice(CLASSES)] if rng.random() < 0.3 else [])
            scores = [0.2, 0.5, 0.9] if rng.random() < 0.5 else None
            num_predictions = rng.randint(0, 8)
            submission, _ = random_row(rng, extra, num_predictions, around=geometry, scores=scores)
            rows.append((answer, submission))
        try:
            result = repr(float(grade(rows)))
        except Exception:  # any exception fails upstream's grade
            result = "raise"
        lines.append("case %d" % num_samples)
        for answer, submission in rows:
            lines.append("h%s h%s" % (answer.encode().hex(), submission.encode().hex()))
        lines.append(result)
    with open(sys.argv[1], "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
