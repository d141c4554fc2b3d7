"""Signals, sequences and physical measurements: summary statistics of each
recording (or physically motivated estimates) and a linear model or
lightgbm on top (models.py)."""
import json
import os

import numpy as np
import pandas as pd

import models
from common import log, read_member, read_sample, write_df


def signal_stats(a):
    """Statistics of a 1-d signal (NaNs ignored; all-NaN gives NaNs)."""
    a = np.asarray(a, dtype=np.float64)
    a = a[np.isfinite(a)]
    if a.size < 2:
        return [np.nan] * 10
    d = np.diff(a)
    spec = np.abs(np.fft.rfft(a - a.mean())) ** 2
    thirds = np.array_split(spec, 3)
    tot = spec.sum() + 1e-12
    return [np.log1p(a.std()), np.log1p(np.abs(a).mean()), np.log1p(np.abs(a).max()), np.log1p(d.std()),
            float(pd.Series(a).kurt()), float(pd.Series(a).skew()),
            thirds[0].sum() / tot, thirds[1].sum() / tot, np.log1p(np.percentile(np.abs(a), 90)), a.mean()]


# ---- predict-volcanic-eruptions-ingv-oe --------------------------------------------

def volcano(ctx):
    train = pd.read_csv(ctx.path("train.csv"))
    sub = read_sample(ctx)
    n = ctx.scale(len(train), 5000)
    if n < len(train):
        train = train.sample(n=n, random_state=ctx.seed)

    def feats(d, seg):
        df = pd.read_csv(ctx.path(d, f"{seg}.csv"), dtype=np.float32)
        row = []
        for c in df.columns:
            row += signal_stats(df[c].values)
        return row
    X = np.array([feats("train", s) for s in train.segment_id], dtype=np.float64)
    Xt = np.array([feats("test", s) for s in sub.segment_id], dtype=np.float64)
    log(f"features of {len(X)} training and {len(Xt)} test segments")
    y = train.time_to_eruption.values.astype(float)
    pred = models.regress(X, y, Xt, ctx.seed, metric="mae", kinds=("gbm",), name="time_to_eruption")
    sub["time_to_eruption"] = np.round(np.clip(pred, 0, None), 1)
    write_df(ctx, sub)


# ---- hms-harmful-brain-activity-classification ------------------------------------

HMS_VOTES = ["seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"]


def hms(ctx):
    """Vote shares from spectrogram band powers and EEG statistics: one
    row per recording, a classifier on the expert-consensus class, blended
    with the prior; KL-divergence is log-loss against soft labels."""
    train = pd.read_csv(ctx.path("train.csv"))
    test = pd.read_csv(ctx.path("test.csv"))

    def spec_feats(d, sid):
        p = ctx.path(d, f"{sid}.parquet")
        if not os.path.exists(p):
            return None
        s = pd.read_parquet(p).drop(columns=["time"], errors="ignore")
        v = np.log1p(np.nan_to_num(s.values.astype(np.float64).clip(0, None))).mean(0)
        # 4 regions x 100 frequencies -> 20 frequency bands, regions averaged and separately
        return np.concatenate([v.reshape(-1, 5).mean(1)])

    def eeg_feats(d, eid):
        p = ctx.path(d, f"{eid}.parquet")
        if not os.path.exists(p):
            return None
        e = pd.read_parquet(p)
        a = np.nan_to_num(e.values.astype(np.float64))
        spec = np.abs(np.fft.rfft(a - a.mean(0), axis=0)) ** 2
        bands = np.array_split(np.log1p(spec), 10, axis=0)
        return np.concatenate([[b.mean() for b in bands], np.log1p(a.std(0))])

    def feats(df, prefix):
        rows = []
        for sid, eid in zip(df.spectrogram_id, df.eeg_id):
            a, b = spec_feats(f"{prefix}_spectrograms", sid), eeg_feats(f"{prefix}_eegs", eid)
            rows.append((a, b))
        da = next((len(a) for a, _ in rows if a is not None), 0)
        db = next((len(b) for _, b in rows if b is not None), 0)
        return np.array([np.concatenate([a if a is not None else np.full(da, np.nan),
                                         b if b is not None else np.full(db, np.nan)]) for a, b in rows])
    # one training row per recording (its windows' votes summed)
    g = train.groupby("eeg_id")
    rec = g[HMS_VOTES].sum()
    rec["spectrogram_id"] = g.spectrogram_id.first()
    rec = rec.reset_index()
    shares = rec[HMS_VOTES].values / np.maximum(rec[HMS_VOTES].values.sum(1, keepdims=True), 1)
    X = feats(rec, "train")
    Xt = feats(test, "test")
    X = np.nan_to_num(X, nan=np.nanmean(X) if np.isfinite(X).any() else 0)
    Xt = np.nan_to_num(Xt, nan=np.nanmean(X))
    log(f"features of {len(X)} training recordings and {len(Xt)} test rows")
    y = shares.argmax(1)
    P = models.classify(X, y, Xt, ctx.seed, metric="logloss", kinds=("linear",), Cs=(0.03, 0.3, 3.0), k=3,
                        name="consensus")
    if P.shape[1] < len(HMS_VOTES):
        P = np.hstack([P, np.zeros((len(P), len(HMS_VOTES) - P.shape[1]))])
    # soften towards the mean vote shares (experts disagree)
    prior = shares.mean(0)
    P = 0.7 * P + 0.3 * prior
    P = np.clip(P, 1e-4, None)
    P = P / P.sum(1, keepdims=True)
    out = pd.DataFrame(np.round(P, 8), columns=HMS_VOTES)
    out = out.div(out.sum(1), axis=0)
    out.insert(0, "eeg_id", test.eeg_id.values)
    write_df(ctx, out)


# ---- seti-breakthrough-listen ----------------------------------------------------------

def seti(ctx):
    labels = pd.read_csv(ctx.path("train_labels.csv"))
    sub = read_sample(ctx)
    n = ctx.scale(len(labels), 20000)
    if n < len(labels):
        labels = labels.sample(n=n, random_state=ctx.seed).sort_index()

    def feats(d, i):
        a = np.load(ctx.path(d, i[0], f"{i}.npy")).astype(np.float32)  # (6, time, freq)
        a = (a - a.mean()) / (a.std() + 1e-6)
        on, off = a[0::2], a[1::2]
        pf_on, pf_off = on.mean(1), off.mean(1)  # per-cadence frequency profiles
        diff = pf_on.mean(0) - pf_off.mean(0)
        return np.array([diff.max(), diff.std(), (on.max((1, 2)) - off.max((1, 2))).mean(),
                         on.max() - off.max(), on.std() - off.std(), pf_on.max(1).mean() - pf_off.max(1).mean(),
                         np.abs(np.diff(on, axis=1)).mean() - np.abs(np.diff(off, axis=1)).mean()]
                        + list(np.sort(diff)[-3:]))
    X = np.array([feats("train", i) for i in labels.id])
    Xt = np.array([feats("test", i) for i in sub.id])
    log(f"features of {len(X)} training and {len(Xt)} test cadences")
    p = models.binary(X, labels.target.values, Xt, ctx.seed, metric="auc")
    sub["target"] = np.round(p, 6)
    write_df(ctx, sub)


# ---- icecube-neutrinos-in-deep-ice -----------------------------------------------------

def _angles_to_vec(az, zen):
    return np.column_stack([np.cos(az) * np.sin(zen), np.sin(az) * np.sin(zen), np.cos(zen)])


def _vec_to_angles(v):
    v = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
    az = np.mod(np.arctan2(v[:, 1], v[:, 0]), 2 * np.pi)
    zen = np.arccos(np.clip(v[:, 2], -1, 1))
    return az, zen


def _linefit(pulses, geom):
    """Per event: the direction the particle came from (minus the velocity of
    a charge-weighted straight-line fit of pulse positions against time),
    plus a few event statistics."""
    xyz = geom[pulses.sensor_id.values]
    t = pulses.time.values.astype(np.float64)
    q = pulses.charge.values.astype(np.float64)
    w = q * np.where(pulses.auxiliary.values, 0.3, 1.0)
    ev = pulses.event_id.values
    order = np.argsort(ev, kind="stable")
    ev, xyz, t, w = ev[order], xyz[order], t[order], w[order]
    ids, start = np.unique(ev, return_index=True)
    bounds = list(start) + [len(ev)]
    rows = []
    for k in range(len(ids)):
        s, e = bounds[k], bounds[k + 1]
        ww, tt, pp = w[s:e], t[s:e], xyz[s:e]
        sw = ww.sum() + 1e-12
        tm = (ww * tt).sum() / sw
        pm = (ww[:, None] * pp).sum(0) / sw
        var_t = (ww * (tt - tm) ** 2).sum() / sw
        v = ((ww * (tt - tm))[:, None] * (pp - pm)).sum(0) / sw / (var_t + 1e-9)
        rows.append(np.concatenate([-v, pm, [e - s, np.log1p(sw), np.sqrt(var_t)]]))
    return pd.DataFrame(np.array(rows), index=ids)


def icecube(ctx):
    geom_df = pd.read_csv(ctx.path("sensor_geometry.csv"))
    geom = np.zeros((int(geom_df.sensor_id.max()) + 1, 3))
    geom[geom_df.sensor_id.values] = geom_df[["x", "y", "z"]].values
    meta = pd.read_parquet(ctx.path("train_meta.parquet"))
    n = ctx.scale(meta.batch_id.nunique(), 50)
    batches = sorted(meta.batch_id.unique())[:n]
    feats = []
    for b in batches:
        p = ctx.path("train", f"batch_{b}.parquet")
        if os.path.exists(p):
            pulses = pd.read_parquet(p).reset_index()
            feats.append(_linefit(pulses, geom))
    F = pd.concat(feats)
    meta = meta.set_index("event_id").loc[F.index.intersection(meta.event_id)]
    F = F.loc[meta.index]
    true = _angles_to_vec(meta.azimuth.values, meta.zenith.values)
    tf = pd.concat([_linefit(pd.read_parquet(ctx.path("test", f)).reset_index(), geom)
                    for f in ctx.listdir("test") if f.endswith(".parquet")])
    sub = read_sample(ctx)
    Ft = tf.reindex(sub.event_id.values)
    log(f"line fits of {len(F)} training and {len(Ft)} test events")

    def ang(a, b):
        a = a / np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-12)
        b = b / np.maximum(np.linalg.norm(b, axis=1, keepdims=True), 1e-12)
        return np.arccos(np.clip((a * b).sum(1), -1, 1))
    lf = F.values[:, :3]
    log(f"training mean angular error: line fit {ang(lf, true).mean():.3f}, "
        f"constant {ang(np.tile(true.mean(0), (len(true), 1)), true).mean():.3f}")
    # refine: regress each component of the true direction on the fit's features
    X, Xt = F.values, np.nan_to_num(Ft.values)
    V = np.column_stack([models.regress(X, true[:, j], Xt, ctx.seed, metric="rmse", kinds=("gbm",),
                                        name=f"direction {'xyz'[j]}") for j in range(3)])
    bad = ~np.isfinite(V).all(1) | (np.linalg.norm(V, axis=1) < 1e-9)
    V[bad] = true.mean(0)
    az, zen = _vec_to_angles(V)
    write_df(ctx, pd.DataFrame({"event_id": sub.event_id, "azimuth": np.round(az, 6), "zenith": np.round(zen, 6)}))


# ---- statoil-iceberg-classifier-challenge ----------------------------------------------

def statoil(ctx):
    train = json.loads(read_member(ctx.path("train.json.7z")))
    test = json.loads(read_member(ctx.path("test.json.7z")))

    def feats(r):
        out = []
        for band in ("band_1", "band_2"):
            a = np.asarray(r[band], dtype=np.float64)
            s = int(round(np.sqrt(a.size)))
            img = a.reshape(s, s)
            c = img[s // 4: s - s // 4, s // 4: s - s // 4]
            out += [a.max(), a.mean(), a.std(), np.percentile(a, 90), np.percentile(a, 99), c.mean(), c.max(),
                    (a > a.mean() + 2 * a.std()).mean()]
        ang = r.get("inc_angle")
        out.append(float(ang) if isinstance(ang, (int, float)) else np.nan)
        return out
    X = np.array([feats(r) for r in train])
    Xt = np.array([feats(r) for r in test])
    X[:, -1] = np.where(np.isnan(X[:, -1]), np.nanmedian(X[:, -1]), X[:, -1])
    Xt[:, -1] = np.where(np.isnan(Xt[:, -1]), np.nanmedian(X[:, -1]), Xt[:, -1])
    y = np.array([int(r["is_iceberg"]) for r in train])
    p = models.binary(X, y, Xt, ctx.seed, metric="logloss")
    sub = read_sample(ctx)
    pred = dict(zip([r["id"] for r in test], p))
    sub["is_iceberg"] = np.round(np.clip([pred.get(i, y.mean()) for i in sub.id], 0.005, 0.995), 6)
    write_df(ctx, sub)


# ---- stanford-covid-vaccine ------------------------------------------------------------

_TARGETS = ["reactivity", "deg_Mg_pH10", "deg_pH10", "deg_Mg_50C", "deg_50C"]


def _rna_rows(recs):
    rows = []
    for r in recs:
        seq, st, lt = r["sequence"], r["structure"], r["predicted_loop_type"]
        n = len(seq)
        for i in range(n):
            f = {"pos": i, "rel": i / n, "n": n}
            for off in (-2, -1, 0, 1, 2):
                j = i + off
                f[f"b{off}"] = "ACGU".find(seq[j]) if 0 <= j < n else -1
                f[f"s{off}"] = "(.)".find(st[j]) if 0 <= j < n else -1
                f[f"l{off}"] = "SMIBHEX".find(lt[j]) if 0 <= j < n else -1
            rows.append(f)
    return pd.DataFrame(rows)


def stanford_covid(ctx):
    def load(name):
        with open(ctx.path(name)) as fh:
            txt = fh.read().strip()
        return json.loads(txt) if txt.startswith("[") else [json.loads(line) for line in txt.splitlines() if line]
    train = [r for r in load("train.json") if r.get("SN_filter", 1) == 1] or load("train.json")
    test = load("test.json")
    sub = read_sample(ctx)
    # training rows: the scored positions only
    Xtr, Y = [], []
    for r in train:
        k = int(r["seq_scored"])
        F = _rna_rows([r]).iloc[:k]
        Xtr.append(F)
        Y.append(np.column_stack([np.asarray(r[t][:k], dtype=float) for t in _TARGETS]))
    Xtr, Y = pd.concat(Xtr).values.astype(float), np.vstack(Y)
    Ft = _rna_rows(test)
    ids = [f"{r['id']}_{i}" for r in test for i in range(len(r["sequence"]))]
    Ft.index = ids
    Xt = Ft.reindex(sub.id_seqpos).fillna(-1).values.astype(float)
    out = pd.DataFrame({"id_seqpos": sub.id_seqpos})
    for j, t in enumerate(_TARGETS):
        if t in ("deg_pH10", "deg_50C"):  # not scored: cheap linear model
            out[t] = np.round(models.regress(Xtr, Y[:, j], Xt, ctx.seed, kinds=("linear",), alphas=(10.0,), name=t), 5)
        else:
            out[t] = np.round(models.regress(Xtr, Y[:, j], Xt, ctx.seed, kinds=("gbm",), name=t), 5)
    write_df(ctx, out)


# ---- nfl-player-contact-detection -------------------------------------------------------

def nfl_contact(ctx):
    labels = pd.read_csv(ctx.path("train_labels.csv"))
    sub = read_sample(ctx)
    cols = ["x_position", "y_position", "speed", "distance", "direction", "orientation", "acceleration", "sa"]

    def fe(pairs, track):
        tr = track.set_index(["game_play", "step", "nfl_player_id"])[cols + ["team"]]
        p1 = tr.reindex(pd.MultiIndex.from_arrays([pairs.game_play, pairs.step, pairs.p1]))
        g = pairs.p2 == "G"
        p2id = pd.to_numeric(pairs.p2.where(~g), errors="coerce").fillna(-1).astype(int)
        p2 = tr.reindex(pd.MultiIndex.from_arrays([pairs.game_play, pairs.step, p2id]))
        f = pd.DataFrame(index=pairs.index)
        f["ground"] = g.astype(float).values
        for c in cols:
            f[f"{c}_1"] = p1[c].values
            f[f"{c}_2"] = p2[c].values
        f["dist"] = np.sqrt((p1.x_position.values - p2.x_position.values) ** 2 +
                            (p1.y_position.values - p2.y_position.values) ** 2)
        f["same_team"] = (p1.team.values == p2.team.values).astype(float)
        f["speed_min"] = np.fmin(f.speed_1, f.speed_2)
        return f

    def parse(df):
        parts = df.contact_id.str.split("_", expand=True)
        return pd.DataFrame({"game_play": parts[0] + "_" + parts[1], "step": parts[2].astype(int),
                             "p1": parts[3].astype(int), "p2": parts[4]}, index=df.index)
    train_track = pd.read_csv(ctx.path("train_player_tracking.csv"))
    test_track = pd.read_csv(ctx.path("test_player_tracking.csv"))
    X = fe(parse(labels), train_track)
    Xt = fe(parse(sub), test_track)
    p = models.binary(X.values, labels.contact.values, Xt.values, ctx.seed, metric="acc", kinds=("gbm",))
    # threshold chosen to maximise MCC would need OOF; 0.5 on a calibrated model is close
    sub["contact"] = (p > 0.5).astype(int)
    write_df(ctx, sub)


# ---- smartphone-decimeter-2022 ---------------------------------------------------------

def _ecef_to_lla(x, y, z):
    a, f = 6378137.0, 1 / 298.257223563
    e2 = f * (2 - f)
    b = a * (1 - f)
    ep2 = (a * a - b * b) / (b * b)
    p = np.sqrt(x * x + y * y)
    th = np.arctan2(a * z, b * p)
    lon = np.arctan2(y, x)
    lat = np.arctan2(z + ep2 * b * np.sin(th) ** 3, p - e2 * a * np.cos(th) ** 3)
    return np.degrees(lat), np.degrees(lon)


def smartphone(ctx):
    """The phone's own least-squares fixes (ECEF -> latitude/longitude),
    smoothed over neighbouring epochs; rows are paired with the sample's by
    time when the times match, else by position within the trip."""
    sub = read_sample(ctx)
    out = sub.copy()
    for trip, idx in sub.groupby("tripId", sort=False).groups.items():
        idx = np.asarray(idx)
        found = None
        for drive in ctx.listdir("test"):
            if trip.startswith(drive + "-"):
                phone = trip[len(drive) + 1:]
                p = ctx.path("test", drive, phone, "device_gnss.csv")
                if os.path.exists(p):
                    found = p
        if found is None:
            log(f"no device_gnss.csv for {trip}: keeping the sample's position")
            continue
        g = pd.read_csv(found, usecols=["utcTimeMillis", "WlsPositionXEcefMeters", "WlsPositionYEcefMeters",
                                         "WlsPositionZEcefMeters"]).dropna()
        g = g.groupby("utcTimeMillis", sort=True).first()
        xyz = g.values
        # light smoothing: centred moving average over 3 epochs
        sm = pd.DataFrame(xyz).rolling(3, center=True, min_periods=1).mean().values
        lat, lon = _ecef_to_lla(sm[:, 0], sm[:, 1], sm[:, 2])
        times = sub.loc[idx, "UnixTimeMillis"].values
        if np.isin(times, g.index.values).mean() > 0.5:
            la = np.interp(times, g.index.values, lat)
            lo = np.interp(times, g.index.values, lon)
        else:
            k = np.minimum(np.arange(len(idx)), len(lat) - 1)
            la, lo = lat[k], lon[k]
        out.loc[idx, "LatitudeDegrees"] = np.round(la, 9)
        out.loc[idx, "LongitudeDegrees"] = np.round(lo, 9)
    write_df(ctx, out)
