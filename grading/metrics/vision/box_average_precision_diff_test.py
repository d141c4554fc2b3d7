"""Reference for box_average_precision_diff_test.cc.

Writes random cases and their expected results. The references restate, in
plain numpy, (1) siim-covid19-detection's calculate_map/calculate_iou with
sklearn >= 1.5's average_precision_score (Debian ships sklearn 1.2 and no
pycocotools, so both are restated rather than imported), and (2)
pycocotools' COCOeval bbox evaluate/accumulate/summarize as vinbigdata's
grader configures it (iouThrs [t], default areaRng/maxDets/recThrs, ids from
0). Usage: box_average_precision_diff_test.py OUT_PATH
"""

import sys

import numpy as np


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
def coco_iou(d, g):
    w = np.fmin(d[2] + d[0], g[2] + g[0]) - np.fmax(d[0], g[0])
    if w <= 0:
        return 0.0
    h = np.fmin(d[3] + d[1], g[3] + g[1]) - np.fmax(d[1], g[1])
    if h <= 0:
        return 0.0
    i = w * h
    return i / (d[2] * d[3] + g[2] * g[3] - i)


def coco_ap(num_images, gts, dts, thr):
    # gts/dts: lists of dicts with image, category, bbox, area, score; id = index.
    cats = sorted({g["category"] for g in gts})
    lo, hi = 0, 1e5**2
    rec_thrs = np.linspace(0.0, 1.00, int(np.round((1.00 - 0.0) / 0.01)) + 1, endpoint=True)
    R = len(rec_thrs)
    precision = -np.ones((1, R, len(cats)))
    for k, cat in enumerate(cats):
        E = []
        for img in range(num_images):
            g = [dict(x, id=i) for i, x in enumerate(gts) if x["image"] == img and x["category"] == cat]
            d = [dict(x, id=i) for i, x in enumerate(dts) if x["image"] == img and x["category"] == cat]
            if not g and not d:
                continue
            for x in g:
                x["_ignore"] = 1 if (x["area"] < lo or x["area"] > hi) else 0
            gi = np.argsort([x["_ignore"] for x in g], kind="mergesort")
            g = [g[i] for i in gi]
            di = np.argsort([-x["score"] for x in d], kind="mergesort")
            d = [d[i] for i in di[0:100]]
            G, D = len(g), len(d)
            gtm = np.zeros((1, G))
            dtm = np.zeros((1, D))
            gtIg = np.array([x["_ignore"] for x in g])
            dtIg = np.zeros((1, D))
            if G and D:
                ious = np.array([[coco_iou(a["bbox"], b["bbox"]) for b in g] for a in d])
                for dind, dd in enumerate(d):
                    iou = min([thr, 1 - 1e-10])
                    m = -1
                    for gind in range(G):
                        if gtm[0, gind] > 0:
                            continue
                        if m > -1 and gtIg[m] == 0 and gtIg[gind] == 1:
                            break
                        if ious[dind, gind] < iou:
                            continue
                        iou = ious[dind, gind]
                        m = gind
                    if m == -1:
                        continue
                    dtIg[0, dind] = gtIg[m]
                    dtm[0, dind] = g[m]["id"]
                    gtm[0, m] = dd["id"]
            a = np.array([x["area"] < lo or x["area"] > hi for x in d]).reshape((1, D))
            dtIg = np.logical_or(dtIg, np.logical_and(dtm == 0, a))
            E.append(dict(dtScores=[x["score"] for x in d], dtm=dtm, dtIg=dtIg, gtIg=gtIg))
        if not E:
            continue
        sc = np.concatenate([e["dtScores"][0:100] for e in E])
        inds = np.argsort(-sc, kind="mergesort")
        dtm = np.concatenate([e["dtm"][:, 0:100] for e in E], axis=1)[:, inds]
        dtIg = np.concatenate([e["dtIg"][:, 0:100] for e in E], axis=1)[:, inds]
        gtIg = np.concatenate([e["gtIg"] for e in E])
        npig = np.count_nonzero(gtIg == 0)
        if npig == 0:
            continue
        tps = np.logical_and(dtm, np.logical_not(dtIg))
        fps = np.logical_and(np.logical_not(dtm), np.logical_not(dtIg))
        tp = np.cumsum(tps, axis=1).astype(float)[0]
        fp = np.cumsum(fps, axis=1).astype(float)[0]
        nd = len(tp)
        rc = tp / npig
        pr = (tp / (fp + tp + np.spacing(1))).tolist()
        q = [0.0] * R
        for i in range(nd - 1, 0, -1):
            if pr[i] > pr[i - 1]:
                pr[i - 1] = pr[i]
        try:
            for ri, pi in enumerate(np.searchsorted(rc, rec_thrs, side="left")):
                q[ri] = pr[pi]
        except IndexError:
            pass
        precision[0, :, k] = np.array(q)
    s = precision
    return -1.0 if len(s[s > -1]) == 0 else float(np.mean(s[s > -1]))


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
        lines.append(repr(coco_ap(num_images, gts, dts, thr)))
        out.extend(lines)

    with open(sys.argv[1], "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
