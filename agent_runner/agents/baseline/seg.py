"""Segmentation and detection: a per-pixel classifier on cheap local
features (channel values, box-filtered means and spreads at a few scales,
position), its probability threshold tuned for the competition's metric on
held-out training images; and, for detection tasks, boxes placed from the
bright regions of the image or from the training set's box priors."""
import os
import re

import numpy as np
import pandas as pd

import models
from common import log, read_sample, write_df


# ---- run-length encoding ---------------------------------------------------------------

def rle_encode(mask, order="F"):
    """'start length' pairs (1-based) of a boolean mask, pixels numbered
    down the columns (order='F') or along the rows (order='C')."""
    m = np.asarray(mask, dtype=bool).ravel(order=order)
    if not m.any():
        return ""
    p = np.concatenate([[0], m.astype(np.int8), [0]])
    runs = np.where(p[1:] != p[:-1])[0] + 1
    runs[1::2] -= runs[::2]
    return " ".join(map(str, runs))


def rle_decode(s, shape, order="F"):
    m = np.zeros(shape[0] * shape[1], dtype=bool)
    if isinstance(s, str) and s.strip() and s.strip() != "-":
        v = np.array(s.split(), dtype=np.int64)
        for a, n in zip(v[0::2], v[1::2]):
            m[a - 1: a - 1 + n] = True
    return m.reshape(shape, order=order)


# ---- pixel features and model --------------------------------------------------------------

def box_mean(a, r):
    """Mean over a (2r+1)^2 window, edges padded by reflection."""
    p = np.pad(a, r, mode="reflect" if min(a.shape) > r else "edge")
    c = np.cumsum(np.cumsum(p, 0), 1)
    c = np.pad(c, ((1, 0), (1, 0)))
    k = 2 * r + 1
    h, w = a.shape
    return (c[k:k + h, k:k + w] - c[:h, k:k + w] - c[k:k + h, :w] + c[:h, :w]) / (k * k)


def pixel_features(chans, scales=(1, 3)):
    """(H*W, F) features of a list of same-sized 2-d channels."""
    h, w = chans[0].shape
    cols = []
    for a in chans:
        a = np.asarray(a, dtype=np.float64)
        mu, sd = a.mean(), a.std() + 1e-9
        z = (a - mu) / sd
        cols += [a, z]
        for r in scales:
            m = box_mean(a, r)
            cols += [m, np.sqrt(np.clip(box_mean(a * a, r) - m * m, 0, None)), a - m]
    yy, xx = np.mgrid[0:h, 0:w]
    cols += [yy / max(h - 1, 1), xx / max(w - 1, 1)]
    return np.column_stack([c.ravel() for c in cols])


class PixelModel:
    """A per-pixel binary classifier (lightgbm) trained on a sample of the
    pixels of the training images."""

    def __init__(self, seed, max_pixels=40_000):
        self.seed, self.max_pixels, self.m = seed, max_pixels, None

    def fit(self, feats, masks):
        X = np.vstack(feats)
        y = np.concatenate([np.asarray(m).ravel() for m in masks]).astype(int)
        rng = np.random.RandomState(self.seed)
        if len(y) > self.max_pixels:
            pick = np.sort(rng.choice(len(y), self.max_pixels, replace=False))
            X, y = X[pick], y[pick]
        if y.min() == y.max():
            self.const = float(y[0])
            return self
        import lightgbm as lgb
        self.m = lgb.LGBMClassifier(**models.lgb_params(self.seed, "binary", len(y), X.shape[1], n_estimators=100))
        self.m.fit(X, y)
        return self

    def predict(self, F, shape):
        if self.m is None:
            return np.full(shape, getattr(self, "const", 0.0))
        return self.m.predict_proba(F)[:, 1].reshape(shape)


def tune(values, score):
    """The value with the best score (ties: the first)."""
    best, best_s = None, -np.inf
    for v in values:
        s = score(v)
        if s > best_s + 1e-12:
            best, best_s = v, s
    return best, best_s


def split_fit_tune(seed, feats, masks, shapes, thresholds, metric, extra=(None,)):
    """Fit on 3/4 of the images, tune (threshold, extra) on the rest with
    metric(pred_masks, true_masks, extra) -> higher is better. The model
    fitted on the 3/4 is kept (refitting on everything would double the
    cost for little gain). Returns (model, threshold, extra)."""
    n = len(feats)
    rng = np.random.RandomState(seed)
    order = rng.permutation(n)
    va = set(order[: max(1, n // 4)].tolist()) if n >= 4 else set()
    tr = [i for i in range(n) if i not in va] or list(range(n))
    va = sorted(va) or tr
    m = PixelModel(seed).fit([feats[i] for i in tr], [masks[i] for i in tr])
    probs = [m.predict(feats[i], shapes[i]) for i in va]
    truth = [np.asarray(masks[i], dtype=bool).reshape(shapes[i]) for i in va]
    (th, ex), s = tune([(t, e) for t in thresholds for e in extra],
                       lambda te: metric([p >= te[0] for p in probs], truth, te[1]))
    log(f"pixel model: threshold {th}{'' if ex is None else f', {ex}'} (held-out score {s:.4f})")
    return m, th, ex


def dice(p, t):
    s = p.sum() + t.sum()
    return 1.0 if s == 0 else 2.0 * (p & t).sum() / s


# ---- tgs-salt-identification-challenge -------------------------------------------------------

def _iou_score(p, t):
    if t.sum() == 0:
        return float(p.sum() == 0)
    iou = (p & t).sum() / max((p | t).sum(), 1)
    return np.mean([iou > th for th in np.arange(0.5, 1.0, 0.05)])


def tgs_salt(ctx):
    from PIL import Image
    train = pd.read_csv(ctx.path("train.csv"), keep_default_na=False)
    sub = read_sample(ctx, keep_default_na=False)
    n = ctx.scale(len(train), 4000)
    train = train.iloc[:n]

    def img(d, i):
        return np.asarray(Image.open(ctx.path(d, "images", f"{i}.png")).convert("L"), dtype=np.float64) / 255

    def mask(i):
        p = ctx.path("train", "masks", f"{i}.png")
        return np.asarray(Image.open(p).convert("L")) > 127
    ims = [img("train", i) for i in train.id]
    feats = [pixel_features([a]) for a in ims]
    masks = [mask(i) for i in train.id]
    shapes = [a.shape for a in ims]

    def metric(preds, truths, min_area):
        return np.mean([_iou_score(p if p.sum() >= min_area else np.zeros_like(p), t)
                        for p, t in zip(preds, truths)])
    m, th, min_area = split_fit_tune(ctx.seed, feats, masks, shapes, (0.3, 0.4, 0.5, 0.6, 0.7), metric,
                                     extra=(0, 20, 100, 300))
    out = []
    for i in sub.id:
        a = img("test", i)
        p = m.predict(pixel_features([a]), a.shape) >= th
        out.append(rle_encode(p if p.sum() >= min_area else np.zeros_like(p), "F"))
    sub["rle_mask"] = out
    write_df(ctx, sub)


# ---- contrails -------------------------------------------------------------------------------

def contrails(ctx):
    sub = read_sample(ctx, dtype={"record_id": str}, keep_default_na=False)

    def chans(d, rid):
        bands = sorted(f for f in ctx.listdir(d, rid) if f.startswith("band_"))
        arrs = [np.load(ctx.path(d, rid, f)) for f in bands]
        t = arrs[0].shape[2] // 2 if arrs[0].ndim == 3 else None  # the labelled (middle) frame
        frame = [a[..., t] if t is not None else a for a in arrs]
        diffs = [frame[k] - frame[k + 1] for k in range(len(frame) - 1)]
        return frame + diffs
    recs = []
    for d in ("train", "validation"):
        for rid in ctx.listdir(d):
            if os.path.exists(ctx.path(d, rid, "human_pixel_masks.npy")):
                recs.append((d, rid))
    n = ctx.scale(len(recs), 3000)
    recs = recs[:n]
    feats, masks, shapes = [], [], []
    for d, rid in recs:
        c = chans(d, rid)
        feats.append(pixel_features(c, scales=(1,)))
        masks.append(np.load(ctx.path(d, rid, "human_pixel_masks.npy"))[..., 0] > 0)
        shapes.append(c[0].shape)

    def metric(preds, truths, _):  # global dice over all images
        inter = sum((p & t).sum() for p, t in zip(preds, truths))
        s = sum(p.sum() + t.sum() for p, t in zip(preds, truths))
        return 2 * inter / s if s else 1.0
    m, th, _ = split_fit_tune(ctx.seed, feats, masks, shapes, (0.2, 0.3, 0.4, 0.5, 0.6, 0.7), metric)
    out = []
    for rid in sub.record_id:
        c = chans("test", rid)
        p = m.predict(pixel_features(c, scales=(1,)), c[0].shape) >= th
        out.append(rle_encode(p, "F") or "-")
    sub["encoded_pixels"] = out
    write_df(ctx, sub)


# ---- hubmap-kidney-segmentation ----------------------------------------------------------------

def hubmap(ctx):
    from PIL import Image
    train = pd.read_csv(ctx.path("train.csv"), keep_default_na=False)
    sub = read_sample(ctx, keep_default_na=False)

    def load(d, i):
        im = Image.open(ctx.path(d, f"{i}.tiff")).convert("RGB")
        scale = 1
        while max(im.size) // scale > 1024:  # real images are huge: work on a reduced copy
            scale *= 2
        small = im.resize((im.size[0] // scale, im.size[1] // scale), Image.BILINEAR) if scale > 1 else im
        a = np.asarray(small, dtype=np.float64) / 255
        return [a[..., 0], a[..., 1], a[..., 2]], (im.size[1], im.size[0]), scale
    feats, masks, shapes = [], [], []
    for i, enc in zip(train.id, train.encoding):
        c, full, scale = load("train", i)
        m = rle_decode(enc, full, "F")
        if scale > 1:
            m = m[::scale, ::scale][: c[0].shape[0], : c[0].shape[1]]
        feats.append(pixel_features(c))
        masks.append(m)
        shapes.append(c[0].shape)

    def metric(preds, truths, _):
        return np.mean([dice(p, t) for p, t in zip(preds, truths)])
    m, th, _ = split_fit_tune(ctx.seed, feats, masks, shapes, (0.3, 0.4, 0.5, 0.6, 0.7), metric)
    out = []
    for i in sub.id:
        c, full, scale = load("test", i)
        p = m.predict(pixel_features(c), c[0].shape) >= th
        if scale > 1:
            p = np.kron(p, np.ones((scale, scale), dtype=bool))[: full[0], : full[1]]
            p = np.pad(p, ((0, full[0] - p.shape[0]), (0, full[1] - p.shape[1])))
        out.append(rle_encode(p, "F"))
    sub["predicted"] = out
    write_df(ctx, sub)


# ---- uw-madison-gi-tract-image-segmentation ----------------------------------------------------

def _uw_index(ctx, d):
    """{'<case>_<day>_slice_<nnnn>': (path, height, width)} of the slices under d."""
    out = {}
    for rel in ctx.walk_files(d, ext=".png"):
        parts = rel.split(os.sep)
        m = re.match(r"slice_(\d+)_(\d+)_(\d+)_", parts[-1])
        if m and len(parts) >= 3:
            out[f"{parts[-3]}_slice_{m.group(1)}"] = (ctx.path(d, rel), int(m.group(3)), int(m.group(2)))
    return out


def uw_madison(ctx):
    from PIL import Image
    train = pd.read_csv(ctx.path("train.csv"), keep_default_na=False)
    test = pd.read_csv(ctx.path("test.csv"))
    classes = list(dict.fromkeys(train["class"]))
    tri, tei = _uw_index(ctx, "train"), _uw_index(ctx, "test")

    def load(path):
        a = np.asarray(Image.open(path), dtype=np.float64)
        return a / (a.max() + 1e-9)

    def slice_feats(key, index):
        path, h, w = index[key]
        a = load(path)
        num = int(key.rsplit("_", 1)[1])
        F = pixel_features([a])
        return np.hstack([F, np.full((len(F), 1), num)]), a.shape
    ids = [k for k in dict.fromkeys(train.id) if k in tri]
    n = ctx.scale(len(ids), 3000)
    ids = ids[:: max(1, len(ids) // n)]
    cache = {k: slice_feats(k, tri) for k in ids}
    seg = {(i, c): s for i, c, s in zip(train.id, train["class"], train.segmentation)}
    models_ = {}
    for c in classes:
        feats = [cache[k][0] for k in ids]
        shapes = [cache[k][1] for k in ids]
        masks = [rle_decode(seg.get((k, c), ""), cache[k][1], "C") for k in ids]

        def metric(preds, truths, _):
            d = [dice(p, t) for p, t in zip(preds, truths) if p.any() or t.any()]
            return np.mean(d) if d else 1.0
        log(f"organ {c}:")
        models_[c] = split_fit_tune(ctx.seed, feats, masks, shapes, (0.3, 0.4, 0.5, 0.6, 0.7), metric)
    out = []
    tcache = {}
    for i, c in zip(test.id, test["class"]):
        if i not in tei or c not in models_:
            out.append("")
            continue
        if i not in tcache:
            tcache[i] = slice_feats(i, tei)
        F, shape = tcache[i]
        m, th, _ = models_[c]
        out.append(rle_encode(m.predict(F, shape) >= th, "C"))
    write_df(ctx, pd.DataFrame({"id": test.id, "class": test["class"], "predicted": out}))


# ---- vesuvius-challenge-ink-detection ----------------------------------------------------------

def vesuvius(ctx):
    from PIL import Image
    sub = read_sample(ctx, dtype={"Id": str})

    def load(d, frag):
        layers = sorted(f for f in ctx.listdir(d, frag, "surface_volume") if f.endswith((".tif", ".tiff", ".png")))
        k = max(1, len(layers) // 12)  # at most a dozen layers
        vol = [np.asarray(Image.open(ctx.path(d, frag, "surface_volume", f)).convert("L"), dtype=np.float64) / 255
               for f in layers[::k]]
        mask = np.asarray(Image.open(ctx.path(d, frag, "mask.png")).convert("L")) > 0
        mean = np.mean(vol, axis=0)
        mid = np.mean(vol[len(vol) // 3: max(len(vol) // 3 + 1, 2 * len(vol) // 3)], axis=0)
        return pixel_features(vol + [mean, mid - mean]), mask, mean.shape
    frags = [f for f in ctx.listdir("train") if ctx.exists("train", f, "inklabels.png")]
    data = {}
    for f in frags:
        F, mask, shape = load("train", f)
        ink = np.asarray(Image.open(ctx.path("train", f, "inklabels.png")).convert("L")) > 127
        data[f] = (F, mask, shape, ink)

    def fbeta(p, t):
        tp, fp, fn = (p & t).sum(), (p & ~t).sum(), (~p & t).sum()
        return 1.25 * tp / max(1.25 * tp + 0.25 * fn + fp, 1e-9)
    # leave-one-fragment-out threshold choice
    ths = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
    score = {t: [] for t in ths}
    for f in frags:
        rest = [g for g in frags if g != f] or [f]
        m = PixelModel(ctx.seed).fit([data[g][0][data[g][1].ravel()] for g in rest],
                                     [data[g][3].ravel()[data[g][1].ravel()] for g in rest])
        F, mask, shape, ink = data[f]
        p = m.predict(F, shape) * mask
        for t in ths:
            score[t].append(fbeta(p >= t, ink & mask))
    th = max(ths, key=lambda t: np.mean(score[t]))
    log(f"ink threshold {th} (leave-one-fragment-out F0.5 {np.mean(score[th]):.4f})")
    m = PixelModel(ctx.seed).fit([data[g][0][data[g][1].ravel()] for g in frags],
                                 [data[g][3].ravel()[data[g][1].ravel()] for g in frags])
    out = []
    for frag in sub.Id:
        F, mask, shape = load("test", str(frag))
        out.append(rle_encode((m.predict(F, shape) >= th) & mask, "C"))
    sub["Predicted"] = out
    write_df(ctx, sub)


# ---- vinbigdata-chest-xray-abnormalities-detection -----------------------------------------

def _quadrant(a):
    """Index (0-3) of the brightest quadrant of an image."""
    h, w = a.shape
    q = [a[:h // 2, :w // 2].mean(), a[:h // 2, w // 2:].mean(), a[h // 2:, :w // 2].mean(), a[h // 2:, w // 2:].mean()]
    return int(np.argmax(q))


def vinbigdata(ctx):
    """Per class, the probability that the image holds that finding (one
    logistic regression per class on a thumbnail and intensity statistics),
    and as its box the median training box of that class among training
    images whose brightest quadrant is the same; 'No finding' (14) gets its
    probability with the box 0 0 1 1."""
    from image import gray_features, read_dicom
    from sklearn.linear_model import LogisticRegression
    train = pd.read_csv(ctx.path("train.csv"))
    sub = read_sample(ctx)
    ids = sorted(train.image_id.unique())
    n = ctx.scale(len(ids), 6000)
    ids = ids[:: max(1, len(ids) // n)]

    def feats(d, i):
        a, _ = read_dicom(ctx.path(d, f"{i}.dicom"))
        f = gray_features(a, size=4)
        q = _quadrant(a)
        return np.concatenate([f, np.eye(4)[q]]), q
    tr = [feats("train", i) for i in ids]
    te = [feats("test", i) for i in sub.image_id]
    X, Xt = np.array([f for f, _ in tr]), np.array([f for f, _ in te])
    qtr = dict(zip(ids, [q for _, q in tr]))
    log(f"features of {len(X)} training and {len(Xt)} test radiographs")
    present = train.groupby("image_id").class_id.apply(set)
    classes = sorted(int(c) for c in train.class_id.unique())
    Xs, Xts = models._scaled(X, Xt)
    boxes = train.dropna(subset=["x_min"]).copy()
    boxes["q"] = boxes.image_id.map(qtr)
    boxes = boxes.dropna(subset=["q"])
    parts = {}
    for c in classes:
        y = np.array([c in present.get(i, set()) for i in ids], dtype=int)
        if y.min() == y.max():
            p = np.full(len(Xt), float(y.mean()))
        else:
            p = LogisticRegression(C=1.0, max_iter=300).fit(Xs, y).predict_proba(Xts)[:, 1]
        parts[c] = p
    med = boxes.groupby(["class_id", "q"])[["x_min", "y_min", "x_max", "y_max"]].median()
    med_all = boxes.groupby("class_id")[["x_min", "y_min", "x_max", "y_max"]].median()
    out = []
    for k, (_, q) in enumerate(te):
        toks = []
        for c in classes:
            if c == 14:
                toks.append(f"14 {parts[c][k]:.4f} 0 0 1 1")
                continue
            b = med.loc[(c, q)] if (c, q) in med.index else (med_all.loc[c] if c in med_all.index else None)
            if b is None:
                continue
            toks.append(f"{c} {parts[c][k]:.4f} " + " ".join(f"{v:.1f}" for v in b.values))
        out.append(" ".join(toks) if toks else "14 1 0 0 1 1")
    sub["PredictionString"] = out
    write_df(ctx, sub)


# ---- siim-covid19-detection ------------------------------------------------------------------

def _bright_boxes(a, th):
    """Bounding boxes (xmin, ymin, xmax, ymax, mean brightness) of the
    connected regions brighter than th (image scaled to [0, 1])."""
    from scipy import ndimage
    lab, n = ndimage.label(a > th)
    out = []
    for k, sl in enumerate(ndimage.find_objects(lab), 1):
        if sl is None:
            continue
        region = lab[sl] == k
        if region.sum() < 4:
            continue
        ys, xs = sl
        out.append((xs.start, ys.start, xs.stop, ys.stop, float(a[sl][region].mean())))
    return out


def _iou(a, b):
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / u if u > 0 else 0.0


def siim_covid(ctx):
    """Study level: multinomial logistic regression on image statistics
    (averaged over a study's images) and the number of bright regions; all
    four classes are listed with their probabilities. Image level: the
    bright connected regions as opacity boxes (threshold tuned on training
    boxes), confidence from their brightness, plus 'none' with the
    probability of a negative study."""
    from image import gray_features, read_dicom
    study = pd.read_csv(ctx.path("train_study_level.csv"))
    img = pd.read_csv(ctx.path("train_image_level.csv"))
    sub = read_sample(ctx)

    def images_under(d, sid):
        return [(os.path.basename(f)[:-4], ctx.path(d, sid, f)) for f in ctx.walk_files(d, sid, ext=".dcm")]

    def norm(a):
        lo, hi = np.percentile(a, 1), np.percentile(a, 99)
        return np.clip((a - lo) / (hi - lo + 1e-9), 0, 1)
    # threshold for the bright regions: best mean IoU with the training boxes
    train_imgs = {}
    for sid in study.id.str.replace("_study", "", regex=False):
        for iid, p in images_under("train", sid):
            train_imgs[iid] = (sid, norm(read_dicom(p)[0]))
    truth = {}
    for iid, lab in zip(img.id.str.replace("_image", "", regex=False), img.label.astype(str)):
        t = lab.split()
        truth[iid] = [tuple(map(float, t[k + 2:k + 6])) for k in range(0, len(t), 6) if t[k] == "opacity"]

    def match_score(th):
        s = []
        for iid, boxes in truth.items():
            if iid not in train_imgs:
                continue
            pred = _bright_boxes(train_imgs[iid][1], th)
            hits = sum(any(_iou(b, p) > 0.5 for p in pred) for b in boxes)
            s.append((hits - 0.5 * max(len(pred) - hits, 0)) / max(len(boxes), 1) if boxes else -0.5 * len(pred))
        return np.mean(s) if s else 0.0
    th = max((0.5, 0.6, 0.7, 0.8, 0.9), key=match_score)
    log(f"bright-region threshold {th} (training match score {match_score(th):.3f})")

    def study_feats(imgs):
        fs = [np.concatenate([gray_features(a, size=4), [len(_bright_boxes(a, th))]]) for a in imgs]
        return np.mean(fs, axis=0)
    cols = ["Negative for Pneumonia", "Typical Appearance", "Indeterminate Appearance", "Atypical Appearance"]
    names = ["negative", "typical", "indeterminate", "atypical"]
    by_study = {}
    for iid, (sid, a) in train_imgs.items():
        by_study.setdefault(sid, []).append(a)
    sids = [s for s in study.id.str.replace("_study", "", regex=False) if s in by_study]
    X = np.array([study_feats(by_study[s]) for s in sids])
    y = study.set_index(study.id.str.replace("_study", "", regex=False)).loc[sids, cols].values.argmax(1)
    test_studies = [i[:-6] for i in sub.id if i.endswith("_study")]
    test_imgs = {}
    for sid in test_studies:
        for iid, p in images_under("test", sid):
            test_imgs[iid] = (sid, norm(read_dicom(p)[0]))
    tby = {}
    for iid, (sid, a) in test_imgs.items():
        tby.setdefault(sid, []).append(a)
    Xt = np.array([study_feats(tby[s]) if s in tby else X.mean(0) for s in test_studies])
    P = models.classify(X, y, Xt, ctx.seed, metric="logloss", kinds=("linear",), Cs=(0.1, 1.0), k=3,
                        name="study class")
    if P.shape[1] < 4:
        P = np.hstack([P, np.zeros((len(P), 4 - P.shape[1]))])
    pstudy = dict(zip(test_studies, P))
    out = []
    for i in sub.id:
        if i.endswith("_study"):
            p = pstudy.get(i[:-6], np.full(4, 0.25))
            out.append(" ".join(f"{n} {v:.4f} 0 0 1 1" for n, v in zip(names, p)))
        else:
            iid = i[:-6]
            if iid not in test_imgs:
                out.append("none 1 0 0 1 1")
                continue
            sid, a = test_imgs[iid]
            p_neg = pstudy.get(sid, np.full(4, 0.25))[0]
            toks = [f"opacity {c:.4f} {x0} {y0} {x1} {y1}" for x0, y0, x1, y1, c in _bright_boxes(a, th)]
            toks.append(f"none {p_neg:.4f} 0 0 1 1")
            out.append(" ".join(toks))
    sub["PredictionString"] = out
    write_df(ctx, sub)


# ---- kuzushiji-recognition ---------------------------------------------------------------------

def kuzushiji(ctx):
    """Characters as the dark connected regions of a page (threshold tuned on
    the training pages' boxes); each region's shape (width, height, area,
    fill, darkness) classified into a character by a classifier trained on
    the regions matched to training boxes; the prediction is the region's
    centre."""
    import io as _io
    import zipfile
    from PIL import Image
    from scipy import ndimage
    train = pd.read_csv(ctx.path("train.csv"), keep_default_na=False)
    sub = read_sample(ctx, keep_default_na=False)
    zt, zs = zipfile.ZipFile(ctx.path("train_images.zip")), zipfile.ZipFile(ctx.path("test_images.zip"))
    it = {os.path.basename(n)[:-4]: n for n in zt.namelist() if n.endswith(".jpg")}
    its = {os.path.basename(n)[:-4]: n for n in zs.namelist() if n.endswith(".jpg")}
    n = ctx.scale(len(train), 2000)
    train = train.iloc[:n]

    def page(z, name):
        a = np.asarray(Image.open(_io.BytesIO(z.read(name))).convert("L"), dtype=np.float64) / 255
        return 1.0 - a  # ink is dark: make it high

    def regions(a, th):
        lab, _ = ndimage.label(a > th)
        out = []
        for k, sl in enumerate(ndimage.find_objects(lab), 1):
            if sl is None:
                continue
            reg = lab[sl] == k
            if reg.sum() < 3:
                continue
            ys, xs = sl
            h, w = ys.stop - ys.start, xs.stop - xs.start
            cy, cx = ndimage.center_of_mass(reg)
            out.append(((xs.start + cx + 0.5, ys.start + cy + 0.5), [w, h, reg.sum(), reg.mean(), w / h,
                                                                    a[sl][reg].mean()]))
        return out

    def truth(labels):
        t = str(labels).split()
        return [(t[k], *map(float, t[k + 1:k + 5])) for k in range(0, len(t) - 4, 5)]
    pages = [(page(zt, it[i]), truth(l)) for i, l in zip(train.image_id, train.labels) if i in it]

    def inside(pt, b):
        return b[1] < pt[0] < b[1] + b[3] and b[2] < pt[1] < b[2] + b[4]

    def match(th):
        X, y, hit, tot = [], [], 0, 0
        for a, boxes in pages:
            regs = regions(a, th)
            tot += len(boxes) + len(regs)
            for pt, f in regs:
                b = next((b for b in boxes if inside(pt, b)), None)
                if b is not None:
                    X.append(f)
                    y.append(b[0])
                    hit += 2
        return X, y, hit / max(tot, 1)
    th = max((0.2, 0.3, 0.4, 0.5, 0.6), key=lambda t: match(t)[2])
    X, y, rate = match(th)
    log(f"ink threshold {th}: {len(X)} training regions matched (F1 of region centres {rate:.3f})")
    if not X:
        from common import NoModel
        raise NoModel("its placeholder labels unchanged (no character regions found)")
    from sklearn.ensemble import RandomForestClassifier
    clf = RandomForestClassifier(n_estimators=100, random_state=ctx.seed, n_jobs=models.n_jobs(len(X)), min_samples_leaf=2)
    clf.fit(np.array(X), np.array(y))
    out = []
    for i in sub.image_id:
        if i not in its:
            out.append("")
            continue
        regs = regions(page(zs, its[i]), th)
        if not regs:
            out.append("")
            continue
        lab = clf.predict(np.array([f for _, f in regs]))
        out.append(" ".join(f"{u} {int(round(p[0]))} {int(round(p[1]))}" for (p, _), u in zip(regs, lab)))
    sub["labels"] = out
    write_df(ctx, sub)
