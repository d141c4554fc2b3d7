"""Reference for box_average_precision_diff_test.cc.

Writes random cases and their expected results:
(1) siim-covid19-detection's calculate_map/calculate_iou, restated in plain
    numpy (upstream's grade.py is not importable here) with sklearn >= 1.5's
    average_precision_score restated too;
(2) vinbigdata's score from pycocotools 2.0.8's real COCOeval (the reference
    environment), set up as upstream's VinBigDataEval does: images numbered
    in order, categories from the truths, bbox as [x_min, y_min, x_max,
    y_max] (COCO reads the last two as width and height), iouThrs [t],
    summarize()'s stats[0]. (Until 2026-12-02 a numpy restatement of COCOeval
    stood in for it; on these cases the two agreed bit for bit.)
Usage: box_average_precision_diff_test.py OUT_PATH
"""

import contextlib
import io
import sys

import numpy as np
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval


# ---- sklearn >= 1.5 average_precision_score (binary) ----
def binary_ap(y_true, y_score):
    y_true = np.asarray(y_true, dtype=float)
    y_score = np.asarray(y_score, dtype=float)
    if not np.all(np.isfinite(y_score)):
        raise ValueError("Input contains NaN or infinity")
    order = np.argsort(y_score, kind="mergesort")[::-1]
    y_score = y_score[order]
    y_true = y_true[order]
    distinct = np.where(np.diff(y_score))[0]
    idx = np.r_[distinct, y_true.size - 1]
    tps = np.cumsum(y_true)[idx]
    fps = 1 + idx - tps
    ps = tps + fps
    precision = np.zeros_like(tps)
    np.divide(tps, ps, out=precision, where=(ps != 0))
    recall = tps / tps[-1]
    precision = np.hstack((precision[::-1], 1))
    recall = np.hstack((recall[::-1], 0))
    return -np.sum(np.diff(recall) * np.array(precision)[:-1])


# ---- siim calculate_map ----
def corner_iou(b1, b2):
    xa0, ya0, xa1, ya1 = b1
    xb0, yb0, xb1, yb1 = b2
    iw = max(0, min(xa1, xb1) - max(xa0, xb0))
    ih = max(0, min(ya1, yb1) - max(ya0, yb0))
    inter = iw * ih
    union = (xa1 - xa0) * (ya1 - ya0) + (xb1 - xb0) * (yb1 - yb0) - inter
    return inter / union if union > 0 else 0.0


def greedy_map(preds, truths, thr):
    aps = []
    for cls in sorted({b[0] for s in truths for b in s}):
        pairs = []
        for sp, st in zip(preds, truths):
            own = []
            gts = [b[2:] for b in st if b[0] == cls]
            sp.sort(key=lambda b: b[1], reverse=True)
            used = [False] * len(gts)
            for p in sp:
                if p[0] != cls:
                    continue
                best, bi = 0, -1
                for i, g in enumerate(gts):
                    if used[i]:
                        continue
                    v = corner_iou(p[2:], g)
                    if v > best and v > thr:
                        best, bi = v, i
                if bi != -1:
                    used[bi] = True
                    own.append((1, p[1]))
                else:
                    own.append((0, p[1]))
            own.extend([(1, 0)] * used.count(False))
            if not own:
                own.append((0, 0))
            pairs.extend(own)
        yt = [a for a, _ in pairs]
        if all(y == 1 for y in yt):
            raise AssertionError("all ones")
        aps.append(binary_ap(yt, [b for _, b in pairs]))
    return np.mean(aps) if aps else 0.0


# ---- pycocotools COCOeval (bbox), restated ----
def pycocotools_ap(num_images, gts, dts, thr):
    """stats[0] of COCOeval, as upstream's VinBigDataEval.evaluate runs it."""
    cats = sorted({g["category"] for g in gts})
    images = [{"id": i} for i in range(num_images)]
    categories = [{"id": c, "name": c, "supercategory": "none"} for c in cats]

    def annotation(k, x, with_score):
        a = {"id": k, "image_id": x["image"], "category_id": x["category"],
             "bbox": np.array(x["bbox"]), "segmentation": [], "ignore": 0,
             "area": x["area"], "iscrowd": 0}
        if with_score:
            a["score"] = x["score"]
        return a

    with contextlib.redirect_stdout(io.StringIO()):  # pycocotools prints progress
        coco_ds = COCO()
        coco_ds.dataset = {"type": "instances", "images": images, "categories": categories,
                           "annotations": [annotation(k, g, False) for k, g in enumerate(gts)]}
        coco_ds.createIndex()
        coco_dt = COCO()
        coco_dt.dataset = {"images": images.copy(), "categories": categories.copy(),
                           "annotations": [annotation(k, d, True) for k, d in enumerate(dts)]}
        coco_dt.createIndex()
        evaluation = COCOeval(coco_ds, coco_dt, "bbox")
        evaluation.params.imgIds = sorted(coco_ds.getImgIds())
        evaluation.params.useCats = True
        evaluation.params.iouType = "bbox"
        evaluation.params.iouThrs = np.array([thr])
        evaluation.evaluate()
        evaluation.accumulate()
        evaluation.summarize()
    return float(evaluation.stats[0])


def main():
    rng = np.random.RandomState(20261129)
    out = []
    labels = ["negative", "typical", "none", "opacity", "atypical"]
    specials = [float("nan"), float("inf"), -float("inf")]

    def rand_box(grid):
        x0, y0 = rng.randint(0, grid, size=2)
        w, h = rng.randint(0, grid // 2 + 2, size=2)
        if rng.rand() < 0.05:
            w = -w
        return [float(x0), float(y0), float(x0 + w), float(y0 + h)]

    # Greedy (siim) cases.
    for case in range(300):
        n = rng.randint(0, 8) if case % 10 else rng.randint(20, 200)
        if case == 299:
            n = 12000  # many distinct scores: numpy's blocked pairwise sum
        thr = 0.5
        grid = rng.choice([4, 8, 30])
        truth_labels = labels[: rng.randint(1, 5)]
        pred_labels = labels[: rng.randint(1, 6)]
        truths, preds = [], []
        for _ in range(n):
            t = []
            for _ in range(rng.randint(0, 4)):
                t.append((str(rng.choice(truth_labels)), 1.0, *rand_box(grid)))
            p = []
            for _ in range(rng.randint(0, 5) if rng.rand() < 0.9 else 70):
                if t and rng.rand() < 0.5:
                    base = t[rng.randint(len(t))]
                    box = [c + rng.randint(-1, 2) for c in base[2:]]
                    lab = base[0] if rng.rand() < 0.8 else str(rng.choice(pred_labels))
                else:
                    box, lab = rand_box(grid), str(rng.choice(pred_labels))
                conf = float(rng.choice([0.0, 0.25, 0.5, 1.0])) if rng.rand() < 0.5 else float(rng.rand())
                if n < 1000 and rng.rand() < 0.003 and lab in truth_labels:
                    conf = specials[rng.randint(3)]
                elif lab not in truth_labels and rng.rand() < 0.2:
                    # Never scored, but reorders the sample's boxes in
                    # CPython's sort.
                    conf = float("nan")
                p.append((lab, conf, *box))
            truths.append(t)
            preds.append(p)
        # NaN/inf confidences raise on labels with truths; elsewhere they
        # only decide where CPython's list.sort puts the boxes.
        lines = [f"greedy {n} {thr!r}"]
        for p, t in zip(preds, truths):
            lines.append(f"sample {len(p)} {len(t)}")
            for b in p + t:
                lines.append(" ".join([b[0]] + [repr(float(v)) for v in b[1:]]))
        try:
            result = repr(float(greedy_map([list(x) for x in preds], truths, thr)))
        except (AssertionError, ValueError):
            result = "raise"
        lines.append(result)
        out.extend(lines)

    # COCO (vinbigdata) cases.
    for case in range(300):
        num_images = rng.randint(0, 6) if case != 299 else 80
        ncat = rng.randint(1, 5)
        grid = rng.choice([4, 10, 40])
        gts, dts = [], []
        for img in range(num_images):
            for _ in range(rng.randint(0, 4)):
                b = rand_box(grid)
                gts.append(dict(image=img, category=int(rng.randint(ncat)), bbox=b,
                                area=(b[2] - b[0]) * (b[3] - b[1]), score=0.0))
        many = case % 25 == 0
        for _ in range(1000 if case == 299 else 260 if many else rng.randint(0, 12)):
            img = int(rng.randint(max(num_images, 1)))
            same = [g for g in gts if g["image"] == img]
            if same and rng.rand() < 0.6:
                base = same[rng.randint(len(same))]
                b = [c + rng.randint(-1, 2) for c in base["bbox"]]
                cat = base["category"] if rng.rand() < 0.8 else int(rng.randint(ncat + 1))
            else:
                b, cat = rand_box(grid), int(rng.randint(ncat + 1))
            score = float(rng.choice([0.1, 0.5, 0.9])) if rng.rand() < 0.5 else float(rng.rand())
            if rng.rand() < 0.01:
                score = float("nan")
            dts.append(dict(image=img, category=cat, bbox=[float(v) for v in b],
                            area=(b[2] - b[0]) * (b[3] - b[1]), score=score))
        thr = float(rng.choice([0.4, 0.5, 0.0]))
        lines = [f"coco {num_images} {len(gts)} {len(dts)} {thr!r}"]
        for x in gts + dts:
            lines.append(" ".join([str(x["image"]), str(x["category"])] +
                                  [repr(float(v)) for v in x["bbox"]] +
                                  [repr(float(x["area"])), repr(float(x["score"]))]))
        lines.append(repr(pycocotools_ap(num_images, gts, dts, thr)))
        out.extend(lines)

    with open(sys.argv[1], "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
