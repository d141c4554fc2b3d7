"""Small, deterministic learners shared by the task modules.

Every learner takes a feature matrix for training (dense numpy or scipy
sparse), the targets and the test matrix, and returns test predictions.
Model choice (a linear model vs. lightgbm, the regularisation strength) is
made by a small K-fold cross-validation on the training rows.
"""
import numpy as np

from common import log

_CPUS = 1


def setup(ctx):
    global _CPUS
    _CPUS = ctx.cpus
    np.random.seed(ctx.seed % (2 ** 32))


def cpus():
    return _CPUS


def n_jobs(n_rows):
    """Threads for a model fitted on n_rows rows: all granted cores for large
    data; one below ~20k rows, where synchronising threads costs more than it
    saves (on a busy machine many times more)."""
    return _CPUS if n_rows >= 20000 else 1


# ---- building blocks --------------------------------------------------------

def lgb_params(seed, objective, n_rows, n_features=10, **extra):
    """Deterministic lightgbm settings scaled to the data: small data gets
    fewer, smaller trees; wide data (image pixels) samples fewer columns
    per tree."""
    small = n_rows < 5000
    p = dict(objective=objective, learning_rate=0.05, num_leaves=15 if small else 31,
             min_child_samples=5 if n_rows < 1000 else 20, subsample=0.8, subsample_freq=1,
             colsample_bytree=0.8 if n_features <= 100 else max(0.25, 50.0 / n_features),
             reg_lambda=1.0, n_estimators=200 if small else 400, max_bin=63 if small else 255,
             random_state=seed, deterministic=True, force_row_wise=True, verbose=-1,
             n_jobs=n_jobs(n_rows))
    p.update(extra)
    return p


def _scaled(X, Xt):
    """Standardise dense features (fit on train), leave sparse ones alone."""
    import scipy.sparse as sp
    if sp.issparse(X):
        return X, Xt
    X = np.asarray(X, dtype=np.float64)
    Xt = np.asarray(Xt, dtype=np.float64)
    mu = np.nanmean(X, axis=0)
    sd = np.nanstd(X, axis=0)
    sd[~np.isfinite(sd) | (sd < 1e-12)] = 1.0
    mu[~np.isfinite(mu)] = 0.0
    X = np.nan_to_num((X - mu) / sd)
    Xt = np.nan_to_num((Xt - mu) / sd)
    return np.clip(X, -10, 10), np.clip(Xt, -10, 10)


def _folds(y, k, seed, stratify=True):
    from sklearn.model_selection import KFold, StratifiedKFold
    y = np.asarray(y)
    if stratify:
        _, counts = np.unique(y, return_counts=True)
        k_eff = int(min(k, counts.min())) if len(counts) > 1 else k
        if k_eff >= 2:
            return list(StratifiedKFold(k_eff, shuffle=True, random_state=seed).split(np.zeros(len(y)), y))
    return list(KFold(k, shuffle=True, random_state=seed).split(np.zeros(len(y))))


def _take(X, idx):
    return X[idx]


# ---- classification -----------------------------------------------------------

def _fit_predict_clf(kind, C, X, y, Xt, seed, n_classes, class_weight=None):
    """Fit one classifier; return class probabilities for Xt (columns = 0..n_classes-1)."""
    if kind == "linear":
        from sklearn.linear_model import LogisticRegression
        m = LogisticRegression(C=C, max_iter=300, random_state=seed, class_weight=class_weight)
        m.fit(X, y)
        P = np.zeros((Xt.shape[0], n_classes))
        P[:, m.classes_] = m.predict_proba(Xt)
        return P
    import lightgbm as lgb
    obj = "binary" if n_classes == 2 else "multiclass"
    extra = {} if n_classes == 2 else {"num_class": n_classes}
    m = lgb.LGBMClassifier(**lgb_params(seed, obj, X.shape[0], X.shape[1], **extra))
    m.fit(X, y)
    P = np.zeros((Xt.shape[0], n_classes))
    P[:, m.classes_] = m.predict_proba(Xt)
    return P


def _score(metric, y, P):
    from sklearn.metrics import roc_auc_score
    n = P.shape[1]
    if metric == "auc":
        if len(np.unique(y)) < 2:
            return 0.5
        if n == 2:
            return roc_auc_score(y, P[:, 1])
        return roc_auc_score(np.eye(n)[y], P, average="macro") if len(np.unique(y)) == n else \
            float(np.mean(P.argmax(1) == y))
    if metric == "acc":
        return float(np.mean(P.argmax(1) == y))
    # log loss (negated so that higher is better)
    p = np.clip(P[np.arange(len(y)), y], 1e-15, 1)
    return float(np.mean(np.log(p)))


def classify(X, y, Xt, seed, metric="logloss", kinds=("linear", "gbm"), Cs=(0.03, 0.3, 3.0),
             k=4, prior_blend=True, name="model", class_weight=None):
    """Multi-class (or binary) classifier chosen by K-fold CV.

    y: integer labels 0..n-1 (all classes should occur in train).
    Returns test probabilities, shape (len(Xt), n_classes).
    For log-loss metrics the chosen model's probabilities are also blended
    with the class prior, with the weight chosen on the out-of-fold
    predictions (this keeps an uncertain model from being over-confident).
    """
    y = np.asarray(y).astype(int)
    n_classes = int(y.max()) + 1
    Xs, Xts = _scaled(X, Xt)
    cands = []
    for kind in kinds:
        if kind == "linear":
            cands += [("linear", C) for C in Cs]
        else:
            cands.append(("gbm", None))
    if len(cands) == 1 and not (metric == "logloss" and prior_blend):
        kind, C = cands[0]
        A, B = (Xs, Xts) if kind == "linear" else (X, Xt)
        log(f"  {name}: {kind}{'' if C is None else f'(C={C})'} (no model choice to make)")
        return _fit_predict_clf(kind, C, A, y, B, seed, n_classes, class_weight)
    folds = _folds(y, k, seed)
    best, best_s, best_oof = None, -np.inf, None
    for kind, C in cands:
        oof = np.zeros((len(y), n_classes))
        for tr, va in folds:
            A, B = (Xs, Xs) if kind == "linear" else (X, X)
            if len(np.unique(y[tr])) < 2:
                oof[va] = np.bincount(y[tr], minlength=n_classes) / len(tr)
                continue
            oof[va] = _fit_predict_clf(kind, C, _take(A, tr), y[tr], _take(B, va), seed, n_classes, class_weight)
        s = _score(metric, y, oof)
        log(f"  {name}: cv {metric} of {kind}{'' if C is None else f'(C={C})'} = {s:.4f}")
        if s > best_s:
            best, best_s, best_oof = (kind, C), s, oof
    kind, C = best
    A, B = (Xs, Xts) if kind == "linear" else (X, Xt)
    P = _fit_predict_clf(kind, C, A, y, B, seed, n_classes, class_weight)
    if metric == "logloss" and prior_blend:
        prior = np.bincount(y, minlength=n_classes) / len(y)
        best_w, best_ll = 1.0, -np.inf
        for w in (1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.0):
            ll = _score("logloss", y, w * best_oof + (1 - w) * prior)
            if ll > best_ll + 1e-9:
                best_w, best_ll = w, ll
        log(f"  {name}: chose {kind}{'' if C is None else f'(C={C})'}, blend weight {best_w} "
            f"(cv logloss {-best_ll:.4f}, prior {-_score('logloss', y, np.tile(prior, (len(y), 1))):.4f})")
        P = best_w * P + (1 - best_w) * prior
    else:
        log(f"  {name}: chose {kind}{'' if C is None else f'(C={C})'} (cv {metric} {best_s:.4f})")
    return P


def binary(X, y, Xt, seed, metric="auc", **kw):
    """Probability of the positive class."""
    y = np.asarray(y).astype(int)
    if len(np.unique(y)) < 2:
        return np.full(Xt.shape[0], float(y.mean()) if len(y) else 0.5)
    return classify(X, y, Xt, seed, metric=metric, **kw)[:, 1]


def multilabel(X, Y, Xt, seed, metric="auc", **kw):
    """One binary model per column of Y; returns (len(Xt), n_labels)."""
    Y = np.asarray(Y)
    out = np.zeros((Xt.shape[0], Y.shape[1]))
    for j in range(Y.shape[1]):
        out[:, j] = binary(X, Y[:, j], Xt, seed, metric=metric, name=f"label {j}", **kw)
    return out


# ---- regression ---------------------------------------------------------------

def _fit_predict_reg(kind, alpha, X, y, Xt, seed, objective="regression"):
    if kind == "linear":
        from sklearn.linear_model import Ridge
        m = Ridge(alpha=alpha)
        m.fit(X, y)
        return m.predict(Xt)
    import lightgbm as lgb
    m = lgb.LGBMRegressor(**lgb_params(seed, objective, X.shape[0], X.shape[1]))
    m.fit(X, y)
    return m.predict(Xt)


def regress(X, y, Xt, seed, metric="rmse", kinds=("linear", "gbm"), alphas=(1.0, 10.0, 100.0),
            k=4, name="model", objective=None):
    """Regressor chosen by K-fold CV on rmse or mae (lower is better)."""
    y = np.asarray(y, dtype=np.float64)
    Xs, Xts = _scaled(X, Xt)
    obj = objective or ("regression_l1" if metric == "mae" else "regression")
    cands = []
    for kind in kinds:
        cands += [("linear", a) for a in alphas] if kind == "linear" else [("gbm", None)]
    if len(cands) == 1:
        kind, a = cands[0]
        A, B = (Xs, Xts) if kind == "linear" else (X, Xt)
        log(f"  {name}: {kind}{'' if a is None else f'(alpha={a})'} (no model choice to make)")
        return _fit_predict_reg(kind, a, A, y, B, seed, obj)
    folds = _folds(y, k, seed, stratify=False)
    best, best_s = None, np.inf
    base = np.sqrt(np.mean((y - y.mean()) ** 2)) if metric == "rmse" else np.mean(np.abs(y - np.median(y)))
    for kind, a in cands:
        oof = np.zeros(len(y))
        for tr, va in folds:
            A = Xs if kind == "linear" else X
            oof[va] = _fit_predict_reg(kind, a, _take(A, tr), y[tr], _take(A, va), seed, obj)
        s = np.sqrt(np.mean((oof - y) ** 2)) if metric == "rmse" else np.mean(np.abs(oof - y))
        log(f"  {name}: cv {metric} of {kind}{'' if a is None else f'(alpha={a})'} = {s:.4f} (constant {base:.4f})")
        if s < best_s:
            best, best_s = (kind, a), s
    kind, a = best
    A, B = (Xs, Xts) if kind == "linear" else (X, Xt)
    log(f"  {name}: chose {kind}{'' if a is None else f'(alpha={a})'}")
    return _fit_predict_reg(kind, a, A, y, B, seed, obj)
