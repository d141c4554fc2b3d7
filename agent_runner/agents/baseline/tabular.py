"""Tabular competitions: a little feature engineering, then lightgbm or a
linear model chosen by cross-validation (models.py)."""
import os

import numpy as np
import pandas as pd

import models
from common import log, read_sample, write_df


def encode(train, test, cols=None):
    """Numeric matrices for train and test from DataFrames: numeric columns as
    floats, text/bool columns as integer codes over both frames' values."""
    cols = list(cols) if cols is not None else [c for c in train.columns if c in test.columns]
    A, B = [], []
    for c in cols:
        a, b = train[c], test[c]
        if a.dtype == object or b.dtype == object or a.dtype == bool or str(a.dtype) == "category":
            vals = sorted(set(a.dropna().astype(str)) | set(b.dropna().astype(str)))
            code = {v: i for i, v in enumerate(vals)}
            A.append(a.astype(str).map(code).where(a.notna(), np.nan).astype(float).values)
            B.append(b.astype(str).map(code).where(b.notna(), np.nan).astype(float).values)
        else:
            A.append(pd.to_numeric(a, errors="coerce").astype(float).values)
            B.append(pd.to_numeric(b, errors="coerce").astype(float).values)
    return np.column_stack(A), np.column_stack(B)


def label_codes(y):
    classes = sorted(pd.unique(y))
    idx = {c: i for i, c in enumerate(classes)}
    return np.array([idx[v] for v in y]), classes


# ---- competitions ---------------------------------------------------------------

def _haversine(lat1, lon1, lat2, lon2):
    lat1, lon1, lat2, lon2 = map(np.radians, (lat1, lon1, lat2, lon2))
    a = np.sin((lat2 - lat1) / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin((lon2 - lon1) / 2) ** 2
    return 6371 * 2 * np.arcsin(np.sqrt(np.clip(a, 0, 1)))


def _taxi_features(df):
    t = pd.to_datetime(df["pickup_datetime"].str.replace(" UTC", "", regex=False), errors="coerce")
    f = pd.DataFrame({
        "year": t.dt.year, "month": t.dt.month, "hour": t.dt.hour, "dow": t.dt.dayofweek,
        "plon": df["pickup_longitude"], "plat": df["pickup_latitude"],
        "dlon": df["dropoff_longitude"], "dlat": df["dropoff_latitude"],
        "pax": df["passenger_count"],
    })
    for c in ("plon", "plat", "dlon", "dlat"):
        f.loc[f[c].abs() < 1e-6, c] = np.nan  # missing coordinates are written as 0
    f["dist"] = _haversine(f.plat, f.plon, f.dlat, f.dlon)
    f["dx"] = (f.dlon - f.plon).abs()
    f["dy"] = (f.dlat - f.plat).abs()
    # distances to the airports (JFK, LaGuardia, Newark) of either end
    for name, (la, lo) in {"jfk": (40.6413, -73.7781), "lga": (40.7769, -73.8740),
                           "ewr": (40.6895, -74.1745)}.items():
        f[f"p_{name}"] = _haversine(f.plat, f.plon, la, lo)
        f[f"d_{name}"] = _haversine(f.dlat, f.dlon, la, lo)
    return f


def nyc_taxi(ctx):
    # Kaggle's file holds 55M rides: the first couple of million are plenty
    train = pd.read_csv(ctx.path("labels.csv"), nrows=ctx.scale(10 ** 9, 2_000_000))
    test = pd.read_csv(ctx.path("test.csv"))
    train = train[(train.fare_amount > 0) & (train.fare_amount < 500)]
    X, Xt = _taxi_features(train).values, _taxi_features(test).values
    pred = models.regress(X, train.fare_amount.values, Xt, ctx.seed, metric="rmse", kinds=("gbm",),
                          name="fare")
    write_df(ctx, pd.DataFrame({"key": test["key"], "fare_amount": np.round(pred, 4)}))


def nomad2018(ctx):
    train = pd.read_csv(ctx.path("train.csv"))
    test = pd.read_csv(ctx.path("test.csv"))
    targets = ["formation_energy_ev_natom", "bandgap_energy_ev"]
    feats = [c for c in test.columns if c != "id"]

    def fe(df):
        f = df[feats].copy()
        a, b, c = df.lattice_vector_1_ang, df.lattice_vector_2_ang, df.lattice_vector_3_ang
        al, be, ga = (np.radians(df[k]) for k in ("lattice_angle_alpha_degree", "lattice_angle_beta_degree",
                                                   "lattice_angle_gamma_degree"))
        vol = a * b * c * np.sqrt(np.clip(1 + 2 * np.cos(al) * np.cos(be) * np.cos(ga)
                                          - np.cos(al) ** 2 - np.cos(be) ** 2 - np.cos(ga) ** 2, 0, None))
        f["volume"] = vol
        f["density"] = df.number_of_total_atoms / vol.replace(0, np.nan)
        return f
    X, Xt = fe(train).values, fe(test).values
    out = pd.DataFrame({"id": test["id"]})
    for t in targets:
        y = np.log1p(np.clip(train[t].values, 0, None))
        p = models.regress(X, y, Xt, ctx.seed, metric="rmse", name=t)
        out[t] = np.round(np.clip(np.expm1(p), 0, None), 6)
    write_df(ctx, out)


def tps_dec_2021(ctx):
    train = pd.read_csv(ctx.path("train.csv"))
    test = pd.read_csv(ctx.path("test.csv"))
    n = ctx.scale(len(train), 400_000)
    if n < len(train):
        train = train.sample(n=n, random_state=ctx.seed)
    feats = [c for c in test.columns if c != "Id"]
    y, classes = label_codes(train["Cover_Type"].values)
    P = models.classify(train[feats].values.astype(float), y, test[feats].values.astype(float), ctx.seed,
                        metric="acc", kinds=("gbm", "linear"), Cs=(1.0,), name="Cover_Type")
    write_df(ctx, pd.DataFrame({"Id": test["Id"], "Cover_Type": np.array(classes)[P.argmax(1)]}))


def tps_may_2022(ctx):
    train = pd.read_csv(ctx.path("train.csv"))
    test = pd.read_csv(ctx.path("test.csv"))
    n = ctx.scale(len(train), 300_000)
    if n < len(train):
        train = train.sample(n=n, random_state=ctx.seed)

    def fe(df):
        f = df.drop(columns=["id", "f_27"] + (["target"] if "target" in df else [])).astype(float)
        s = df["f_27"].astype(str)
        for i in range(10):  # the letter at each position, as its code
            f[f"ch{i}"] = s.str[i].map(lambda ch: ord(ch) - 65 if isinstance(ch, str) else -1)
        f["n_unique"] = s.map(lambda x: len(set(x)))
        for ch in "ABCDEFGHIJKLMNOPQRST":
            f[f"cnt_{ch}"] = s.str.count(ch)
        # interactions that lightgbm finds slowly
        f["i_02_21"] = df.f_21 + df.f_02
        f["i_05_22"] = df.f_22 + df.f_05
        f["i_00_01_26"] = df.f_00 + df.f_01 + df.f_26
        return f
    X, Xt = fe(train).values, fe(test).values
    p = models.binary(X, train["target"].values, Xt, ctx.seed, metric="auc", kinds=("gbm",), name="target")
    write_df(ctx, pd.DataFrame({"id": test["id"], "target": np.round(p, 6)}))


def leaf(ctx):
    train = pd.read_csv(ctx.path("train.csv"))
    test = pd.read_csv(ctx.path("test.csv"))
    sample = read_sample(ctx)
    species = [c for c in sample.columns if c != "id"]
    feats = [c for c in test.columns if c != "id"]
    idx = {s: i for i, s in enumerate(species)}
    y = train["species"].map(idx).values
    P = models.classify(train[feats].values, y, test[feats].values, ctx.seed, metric="logloss",
                        kinds=("linear",), Cs=(0.1, 1.0, 10.0, 100.0), name="species")
    P = _full_classes(P, len(species))
    out = pd.DataFrame(P, columns=species)
    out.insert(0, "id", test["id"].values)
    write_df(ctx, out)


def _full_classes(P, n):
    """Pad probabilities to n classes (classes unseen in train get a floor),
    renormalised so every row sums to 1."""
    if P.shape[1] < n:
        P = np.hstack([P, np.zeros((P.shape[0], n - P.shape[1]))])
    P = np.clip(P, 1e-6, None)
    return P / P.sum(1, keepdims=True)


def spaceship_titanic(ctx):
    train = pd.read_csv(ctx.path("train.csv"))
    test = pd.read_csv(ctx.path("test.csv"))

    def fe(df):
        f = df.drop(columns=["PassengerId", "Name", "Cabin"] + (["Transported"] if "Transported" in df else []))
        cab = df["Cabin"].astype(str).str.split("/", expand=True).reindex(columns=[0, 1, 2])
        f["deck"] = cab[0].where(df.Cabin.notna())
        f["cabin_num"] = pd.to_numeric(cab[1], errors="coerce")
        f["side"] = cab[2].where(df.Cabin.notna())
        f["group"] = pd.to_numeric(df.PassengerId.str[:4], errors="coerce")
        spend = ["RoomService", "FoodCourt", "ShoppingMall", "Spa", "VRDeck"]
        f["spend"] = df[spend].sum(1)
        f["no_spend"] = (f["spend"] == 0).astype(float)
        for c in ("HomePlanet", "CryoSleep", "Destination", "VIP", "deck", "side"):
            f[c] = f[c].astype(str).where(f[c].notna(), None)
        return f
    a, b = fe(train), fe(test)
    X, Xt = encode(a, b)
    y = train["Transported"].astype(str).str.lower().eq("true").astype(int).values
    p = models.binary(X, y, Xt, ctx.seed, metric="acc", kinds=("gbm",), name="Transported")
    write_df(ctx, pd.DataFrame({"PassengerId": test["PassengerId"], "Transported": p > 0.5}))


def s3e18(ctx):
    train = pd.read_csv(ctx.path("train.csv"))
    test = pd.read_csv(ctx.path("test.csv"))
    feats = [c for c in test.columns if c != "id"]
    out = pd.DataFrame({"id": test["id"]})
    for t in ("EC1", "EC2"):
        out[t] = np.round(models.binary(train[feats].values, train[t].values, test[feats].values, ctx.seed,
                                        metric="auc", name=t), 6)
    write_df(ctx, out)


def ml2021spring(ctx):
    base = next((os.path.join(d, "") for d, _, files in os.walk(ctx.path()) if "train_11.npy" in files), None)
    X = np.load(base + "train_11.npy", mmap_mode="r")
    y = np.load(base + "train_label_11.npy").astype(int)
    Xt = np.load(base + "test_11.npy", mmap_mode="r")
    n = ctx.scale(len(X), 200_000)
    pick = np.arange(len(X))[:: max(1, len(X) // n)]
    X, y = np.asarray(X[pick], dtype=np.float32), y[pick]
    classes = np.unique(y)
    yi = np.searchsorted(classes, y)
    P = models.classify(X, yi, np.asarray(Xt, dtype=np.float32), ctx.seed, metric="acc", kinds=("linear",),
                        Cs=(0.1,), name="phoneme")
    write_df(ctx, pd.DataFrame({"Id": np.arange(len(Xt)), "ClassId": classes[P.argmax(1)]}))


def ventilator(ctx):
    train = pd.read_csv(ctx.path("train.csv"))
    test = pd.read_csv(ctx.path("test.csv"))
    n_breaths = ctx.scale(train.breath_id.nunique(), 20000)
    if n_breaths < train.breath_id.nunique():
        keep = np.sort(train.breath_id.unique())[:: max(1, train.breath_id.nunique() // n_breaths)]
        train = train[train.breath_id.isin(keep)]

    def fe(df):
        df = df.sort_values(["breath_id", "time_step"])
        g = df.groupby("breath_id")
        dt = g.time_step.diff().fillna(0)
        f = pd.DataFrame(index=df.index)
        f["R"], f["C"], f["t"], f["u_in"], f["u_out"] = df.R, df.C, df.time_step, df.u_in, df.u_out
        f["vol"] = (df.u_in * dt).groupby(df.breath_id).cumsum()
        f["u_cum"] = g.u_in.cumsum()
        f["step"] = g.cumcount()
        for k in (1, 2, 3):
            f[f"lag{k}"] = g.u_in.shift(k).fillna(0)
            f[f"lead{k}"] = g.u_in.shift(-k).fillna(0)
        f["R_u"], f["vol_C"] = df.R * df.u_in, f.vol / df.C
        f["u_mean"] = g.u_in.transform("mean")
        f["u_last_insp"] = df.u_in.where(df.u_out == 0).groupby(df.breath_id).transform("max")
        return f.sort_index()
    X, Xt = fe(train), fe(test)
    pred = models.regress(X.values, train.sort_index().pressure.values, Xt.values, ctx.seed, metric="mae",
                          kinds=("gbm",), name="pressure")
    write_df(ctx, pd.DataFrame({"id": test.sort_index().id.values, "pressure": np.round(pred, 5)}))


def champs(ctx):
    train = pd.read_csv(ctx.path("train.csv"))
    test = pd.read_csv(ctx.path("test.csv"))
    st = pd.read_csv(ctx.path("structures.csv"))
    pos = st.set_index(["molecule_name", "atom_index"])[["x", "y", "z", "atom"]]
    counts = st.groupby("molecule_name").atom.value_counts().unstack(fill_value=0)

    def fe(df):
        a0 = pos.reindex(pd.MultiIndex.from_arrays([df.molecule_name, df.atom_index_0]))
        a1 = pos.reindex(pd.MultiIndex.from_arrays([df.molecule_name, df.atom_index_1]))
        d = np.sqrt(((a0[["x", "y", "z"]].values - a1[["x", "y", "z"]].values) ** 2).sum(1))
        f = pd.DataFrame({"dist": d, "inv_d3": 1 / np.maximum(d, 0.1) ** 3,
                          "atom1": a1.atom.map({"H": 0, "C": 1, "N": 2, "O": 3, "F": 4}).values},
                         index=df.index)
        c = counts.reindex(df.molecule_name.values).fillna(0)
        for col in c.columns:
            f[f"n_{col}"] = c[col].values
        return f
    F, Ft = fe(train), fe(test)
    pred = np.zeros(len(test))
    for t in sorted(test["type"].unique()):
        tr, te = (train["type"] == t).values, (test["type"] == t).values
        if tr.sum() < 5:
            pred[te] = train.scalar_coupling_constant.median()
            continue
        kinds = ("linear", "gbm") if tr.sum() >= 50 else ("linear",)
        pred[te] = models.regress(F[tr].values, train.scalar_coupling_constant.values[tr], Ft[te].values,
                                  ctx.seed, metric="mae", kinds=kinds, alphas=(1.0,), k=3, name=t)
    write_df(ctx, pd.DataFrame({"id": test.id, "scalar_coupling_constant": np.round(pred, 5)}))


def osic(ctx):
    """FVC forecast: each training patient's later visits as offsets from
    their first one; confidence tuned on out-of-fold errors."""
    train = pd.read_csv(ctx.path("train.csv"))
    test = pd.read_csv(ctx.path("test.csv"))
    sub = read_sample(ctx)
    cat = {"Sex": {"Male": 1, "Female": 0},
           "SmokingStatus": {"Never smoked": 0, "Ex-smoker": 1, "Currently smokes": 2}}

    def pairs(base, weeks):
        f = pd.DataFrame({"dw": weeks - base.Weeks.values, "fvc0": base.FVC.values, "pct0": base.Percent.values,
                          "age": base.Age.values, "sex": base.Sex.map(cat["Sex"]).values,
                          "smk": base.SmokingStatus.map(cat["SmokingStatus"]).values})
        f["dw_age"], f["dw_smk"], f["dw_fvc"] = f.dw * f.age, f.dw * f.smk, f.dw * f.fvc0 / 1000
        return f
    train = train.sort_values(["Patient", "Weeks"])
    first = train.groupby("Patient").head(1).set_index("Patient")
    later = train[~train.index.isin(train.groupby("Patient").head(1).index)]
    b = first.loc[later.Patient]
    X = pairs(b, later.Weeks.values)
    y = later.FVC.values - b.FVC.values
    from sklearn.model_selection import GroupKFold
    oof = np.zeros(len(y))
    Xs = X.values.astype(float)
    for tr, va in GroupKFold(4).split(Xs, y, later.Patient.values):
        oof[va] = models._fit_predict_reg("linear", 1.0, Xs[tr], y[tr], Xs[va], ctx.seed)
    err = np.abs(oof - y)

    def score(sig_a, sig_b):
        sigma = np.maximum(sig_a + sig_b * np.abs(X.dw.values), 70)
        delta = np.minimum(err, 1000)
        return np.mean(-np.sqrt(2) * delta / sigma - np.log(np.sqrt(2) * sigma))
    grid = [(a, b_) for a in (70, 100, 150, 200, 250, 300, 400) for b_ in (0, 1, 2, 4, 8)]
    sa, sb = max(grid, key=lambda g: score(*g))
    log(f"oof mae {err.mean():.1f}; confidence = {sa} + {sb} * |weeks| (oof score {score(sa, sb):.4f})")
    pw = sub.Patient_Week.str.rsplit("_", n=1)
    pats, weeks = pw.str[0], pw.str[1].astype(int)
    tb = test.sort_values("Weeks").groupby("Patient").head(1).set_index("Patient").loc[pats]
    Xt = pairs(tb, weeks.values)
    pred = models._fit_predict_reg("linear", 1.0, Xs, y, Xt.values.astype(float), ctx.seed) + tb.FVC.values
    conf = np.maximum(sa + sb * np.abs(Xt.dw.values), 70)
    write_df(ctx, pd.DataFrame({"Patient_Week": sub.Patient_Week, "FVC": np.round(pred, 2),
                                "Confidence": np.round(conf, 2)}))


def petfinder(ctx):
    from image import image_features, _find
    train = pd.read_csv(ctx.path("train.csv"))
    test = pd.read_csv(ctx.path("test.csv"))
    meta = [c for c in test.columns if c != "Id"]
    X = np.hstack([train[meta].values, image_features(_find(ctx, list(train.Id), ["train"], ".jpg"),
                                                      what="training images")])
    Xt = np.hstack([test[meta].values, image_features(_find(ctx, list(test.Id), ["test"], ".jpg"),
                                                      what="test images")])
    pred = models.regress(X, train.Pawpularity.values, Xt, ctx.seed, metric="rmse", alphas=(10.0, 100.0, 1000.0),
                          name="Pawpularity")
    write_df(ctx, pd.DataFrame({"Id": test.Id, "Pawpularity": np.round(np.clip(pred, 1, 100), 4)}))


def rsna_cervical(ctx):
    """Per-target training rates (the few training studies are too few for
    an image model to be trusted), smoothed towards 0.5."""
    train = pd.read_csv(ctx.path("train.csv"))
    test = pd.read_csv(ctx.path("test.csv"))
    rate = {c: (train[c].sum() + 1) / (len(train) + 2) for c in train.columns if c != "StudyInstanceUID"}
    log(f"training rates over {len(train)} studies: " + ", ".join(f"{k}={v:.2f}" for k, v in rate.items()))
    write_df(ctx, pd.DataFrame({"row_id": test.row_id,
                                "fractured": [round(rate.get(t, 0.5), 6) for t in test.prediction_type]}))


def hm_recommend(ctx):
    """Each customer's most often (and most recently) bought articles first,
    then the articles most bought by everyone in the last weeks."""
    tx = pd.read_csv(ctx.path("transactions_train.csv"), usecols=["t_dat", "customer_id", "article_id"],
                     dtype={"article_id": np.int64})
    sub = read_sample(ctx)
    tx["t_dat"] = pd.to_datetime(tx.t_dat)
    last = tx.t_dat.max()
    tx["w"] = 1.0 / (1 + (last - tx.t_dat).dt.days / 7.0)  # recency weight
    pop = tx[tx.t_dat > last - pd.Timedelta(days=21)].groupby("article_id").w.sum()
    popular = list(pop.sort_values(ascending=False, kind="stable").index[:12])
    per = tx.groupby(["customer_id", "article_id"]).w.sum().reset_index()
    per = per.sort_values(["customer_id", "w", "article_id"], ascending=[True, False, True])
    favs = per.groupby("customer_id").article_id.apply(lambda s: list(s[:12]))
    out = []
    for c in sub.customer_id:
        lst = list(favs.get(c, []))
        lst += [a for a in popular if a not in lst]
        out.append(" ".join(str(int(a)) for a in lst[:12]))
    log(f"{sum(c in favs.index for c in sub.customer_id)} of {len(sub)} customers have a purchase history")
    write_df(ctx, pd.DataFrame({"customer_id": sub.customer_id, "prediction": out}))
