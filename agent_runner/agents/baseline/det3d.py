"""3D object detection from lidar (Lyft / nuScenes layout): bring each
sweep's points into world coordinates (calibrated sensor, then ego pose),
drop the ground (the lowest layer of points), cluster the rest in the
ground plane (DBSCAN), fit an oriented box to each cluster (principal axis
for the heading, extents for the size) and name its class with a
classifier of box sizes trained on the training annotations."""
import json
import os

import numpy as np
import pandas as pd

import models
from common import log, read_sample, write_df


def quat_to_rot(q):
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def _tables(ctx, prefix):
    def load(name):
        p = ctx.path(f"{prefix}_data", f"{name}.json")
        return json.load(open(p)) if os.path.exists(p) else []
    return {k: load(k) for k in ("sample_data", "calibrated_sensor", "ego_pose", "sample_annotation", "category",
                                 "instance")}


def _sweeps(ctx, prefix, t):
    """sample token -> world-frame points (N x 3) of its lidar sweep(s)."""
    cs = {c["token"]: c for c in t["calibrated_sensor"]}
    ep = {e["token"]: e for e in t["ego_pose"]}
    out = {}
    for s in sorted(t["sample_data"], key=lambda s: s["token"]):
        if s.get("fileformat") != "bin" or not s.get("is_key_frame", True):
            continue
        fn = s["filename"]
        path = ctx.path(f"{prefix}_{fn}") if not fn.startswith(prefix) else ctx.path(fn)
        if not os.path.exists(path):
            path = ctx.path(f"{prefix}_lidar", os.path.basename(fn))
        if not os.path.exists(path):
            continue
        a = np.fromfile(path, dtype=np.float32)
        cols = 5 if a.size % 5 == 0 else 4
        pts = a.reshape(-1, cols)[:, :3].astype(np.float64)
        c, e = cs[s["calibrated_sensor_token"]], ep[s["ego_pose_token"]]
        pts = pts @ quat_to_rot(c["rotation"]).T + np.array(c["translation"])
        pts = pts @ quat_to_rot(e["rotation"]).T + np.array(e["translation"])
        out.setdefault(s["sample_token"], []).append(pts)
    return {k: np.vstack(v) for k, v in out.items()}


def _boxes_from_points(pts, eps, min_pts):
    from sklearn.cluster import DBSCAN
    if len(pts) == 0:
        return []
    ground = np.percentile(pts[:, 2], 2)
    above = pts[pts[:, 2] > ground + 0.15]
    if len(above) < min_pts:
        return []
    lab = DBSCAN(eps=eps, min_samples=min_pts).fit_predict(above[:, :2])
    boxes = []
    for k in sorted(set(lab) - {-1}):
        p = above[lab == k]
        xy = p[:, :2] - p[:, :2].mean(0)
        cov = np.cov(xy.T) if len(p) > 2 else np.eye(2)
        vals, vecs = np.linalg.eigh(cov)
        axis = vecs[:, np.argmax(vals)]
        yaw = float(np.arctan2(axis[1], axis[0]))
        R = np.array([[np.cos(yaw), np.sin(yaw)], [-np.sin(yaw), np.cos(yaw)]])
        loc = xy @ R.T
        lo, hi = loc.min(0), loc.max(0)
        c_loc = (lo + hi) / 2
        center_xy = p[:, :2].mean(0) + c_loc @ R
        length, width = hi[0] - lo[0], hi[1] - lo[1]
        top = p[:, 2].max()
        height = top - ground
        boxes.append(dict(x=center_xy[0], y=center_xy[1], z=ground + height / 2, w=max(width, 0.1),
                          l=max(length, 0.1), h=max(height, 0.1), yaw=yaw, n=len(p)))
    return boxes


def lyft3d(ctx):
    tr, te = _tables(ctx, "train"), _tables(ctx, "test")
    cat = {c["token"]: c["name"] for c in tr["category"]}
    inst = {i["token"]: cat.get(i.get("category_token"), "car") for i in tr["instance"]}
    ann = pd.DataFrame([dict(sample=a["sample_token"], w=a["size"][0], l=a["size"][1], h=a["size"][2],
                             x=a["translation"][0], y=a["translation"][1],
                             cls=inst.get(a.get("instance_token"), a.get("category_name", "car")))
                        for a in tr["sample_annotation"]])
    train_pts = _sweeps(ctx, "train", tr)
    # choose the clustering radius by how well the fitted boxes' centres
    # match the training boxes (within 1 m), on up to 20 training sweeps
    keys = sorted(train_pts)[:20]

    def match(eps):
        hit, tot = 0, 0
        for k in keys:
            b = _boxes_from_points(train_pts[k], eps, 5)
            t = ann[ann["sample"] == k]
            tot += len(t) + len(b)
            for _, r in t.iterrows():
                hit += 2 * any(np.hypot(bb["x"] - r.x, bb["y"] - r.y) < 1.0 for bb in b)
        return hit / max(tot, 1)
    eps = max((0.4, 0.6, 0.8, 1.0), key=match)
    log(f"clustering radius {eps} m (training centre-match F1 {match(eps):.3f})")
    # class from box size: classifier on the training annotations' sizes
    classes = sorted(ann.cls.unique())
    y = ann.cls.map({c: i for i, c in enumerate(classes)}).values
    feats = lambda d: np.column_stack([d["w"], d["l"], d["h"], np.asarray(d["w"]) * np.asarray(d["l"])])  # noqa
    from sklearn.ensemble import RandomForestClassifier
    clf = RandomForestClassifier(n_estimators=100, random_state=ctx.seed, n_jobs=models.n_jobs(len(ann)), min_samples_leaf=1)
    clf.fit(feats(ann), y)
    sub = read_sample(ctx, keep_default_na=False)
    test_pts = _sweeps(ctx, "test", te)
    out = []
    for sid in sub.Id:
        boxes = _boxes_from_points(test_pts.get(sid, np.zeros((0, 3))), eps, 5)
        if not boxes:
            out.append("")
            continue
        B = pd.DataFrame(boxes)
        P = clf.predict_proba(feats(B))
        toks = []
        for (_, b), p in zip(B.iterrows(), P):
            toks.append(f"{p.max():.3f} {b.x:.3f} {b.y:.3f} {b.z:.3f} {b.w:.3f} {b.l:.3f} {b.h:.3f} {b.yaw:.4f} "
                        f"{classes[int(p.argmax())]}")
        out.append(" ".join(toks))
    log(f"{sum(len(o.split()) // 9 for o in out)} boxes over {len(out)} test samples")
    sub["PredictionString"] = out
    write_df(ctx, sub)
