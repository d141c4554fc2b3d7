"""Audio competitions: simple spectra a CPU computes quickly (log band
energies of a short-time Fourier transform, over the whole clip and over a
few time slices) and a linear model or lightgbm on top (models.py)."""
import io
import os
import struct
import wave
import zipfile

import numpy as np
import pandas as pd

import models
from common import log, read_sample, write_df


def read_wav(data):
    """(sample rate, mono float signal) of WAV bytes (PCM 8/16/32-bit)."""
    with wave.open(io.BytesIO(data)) as w:
        sr, ch, width, n = w.getframerate(), w.getnchannels(), w.getsampwidth(), w.getnframes()
        raw = w.readframes(n)
    dtype = {1: np.uint8, 2: "<i2", 4: "<i4"}[width]
    x = np.frombuffer(raw, dtype=dtype).astype(np.float32)
    if width == 1:
        x -= 128
    x = x.reshape(-1, ch).mean(1) if ch > 1 else x
    return sr, x / float(2 ** (8 * width - 1))


def _ieee_extended(b):
    """80-bit IEEE 754 extended float (AIFF sample rate)."""
    exp = ((b[0] & 0x7F) << 8) | b[1]
    mant = int.from_bytes(b[2:10], "big")
    if exp == 0 and mant == 0:
        return 0.0
    return (-1 if b[0] & 0x80 else 1) * mant * 2.0 ** (exp - 16383 - 63)


def read_aiff(data):
    """(sample rate, mono float signal) of AIFF/AIFC bytes (uncompressed PCM)."""
    if data[:4] != b"FORM":
        raise ValueError("not an AIFF file")
    pos, ch, bits, sr, samples = 12, 1, 16, 0.0, b""
    little = data[8:12] == b"AIFC" and b"sowt" in data[:64]
    while pos + 8 <= len(data):
        cid, size = data[pos:pos + 4], struct.unpack(">I", data[pos + 4:pos + 8])[0]
        body = data[pos + 8: pos + 8 + size]
        if cid == b"COMM":
            ch, _, bits = struct.unpack(">hIh", body[:8])
            sr = _ieee_extended(body[8:18])
        elif cid == b"SSND":
            offset = struct.unpack(">I", body[:4])[0]
            samples = body[8 + offset:]
        pos += 8 + size + (size & 1)
    width = (bits + 7) // 8
    dtype = {1: np.int8, 2: "<i2" if little else ">i2", 4: "<i4" if little else ">i4"}[width]
    x = np.frombuffer(samples[: len(samples) // width * width], dtype=dtype).astype(np.float32)
    x = x.reshape(-1, ch).mean(1) if ch > 1 else x
    return sr, x / float(2 ** (8 * width - 1))


def spectrogram(x, n_fft=256, hop=None):
    """Power spectrogram (frames x (n_fft/2+1)) with a Hann window."""
    hop = hop or n_fft // 2
    if len(x) < n_fft:
        x = np.pad(x, (0, n_fft - len(x)))
    n = 1 + (len(x) - n_fft) // hop
    idx = np.arange(n_fft)[None, :] + hop * np.arange(n)[:, None]
    frames = x[idx] * np.hanning(n_fft)[None, :]
    return np.abs(np.fft.rfft(frames, axis=1)) ** 2


def audio_features(x, sr, n_fft=256, bands=32, slices=4, fmax=None):
    """Log band energies over the clip (mean and spread over time), per
    time slice, and the change of each band from the first to the second
    half of the clip, plus loudness statistics."""
    S = spectrogram(x, n_fft)
    freqs = np.fft.rfftfreq(n_fft, 1.0 / sr)
    fmax = fmax or sr / 2
    edges = np.linspace(0, fmax, bands + 1)
    B = np.stack([S[:, (freqs >= lo) & (freqs < hi)].mean(1) if ((freqs >= lo) & (freqs < hi)).any()
                  else np.zeros(len(S)) for lo, hi in zip(edges[:-1], edges[1:])], axis=1)
    L = np.log(B + 1e-10)
    Ln = L - L.mean()  # relative to the clip's overall level
    parts = np.array_split(np.arange(len(L)), slices)
    half = len(L) // 2 or 1
    feats = [Ln.mean(0), L.std(0)] + [Ln[p].mean(0) if len(p) else np.zeros(bands) for p in parts] + \
        [L[half:].mean(0) - L[:half].mean(0),
         [np.log(np.mean(x ** 2) + 1e-12), np.mean(np.abs(np.diff(np.sign(x)))) / 2,
          float(np.argmax(B.mean(0)))]]
    return np.concatenate([np.ravel(f) for f in feats])


def features_of(srcs, reader, what="clips", **kw):
    rows = []
    for data in srcs:
        sr, x = reader(data())
        rows.append(audio_features(x, sr, **kw))
    M = np.array(rows, dtype=np.float32)
    log(f"audio features of {len(rows)} {what}: {M.shape[1]} each")
    return M


# ---- competitions ---------------------------------------------------------------

def mlsp_birds(ctx):
    ed = lambda *p: ctx.path("essential_data", *p)  # noqa: E731
    folds = pd.read_csv(ed("CVfolds_2.txt"))
    names = pd.read_csv(ed("rec_id2filename.txt"))
    fname = dict(zip(names.rec_id, names.filename))
    labels = {}
    with open(ed("rec_labels_test_hidden.txt")) as f:
        next(f)
        for line in f:
            parts = line.strip().split(",")
            if parts and parts[0] and "?" not in parts[1:]:
                labels[int(parts[0])] = [int(p) for p in parts[1:] if p.strip()]
    n_species = len(pd.read_csv(ed("species_list.txt")))
    sub = read_sample(ctx)
    test_ids = sorted(set(sub.Id // 100))
    train_ids = [r for r in folds.rec_id if r in labels and r not in set(test_ids)]

    def src(r):
        return lambda: open(ed("src_wavs", fname[r] + ".wav"), "rb").read()
    hist = {}
    hpath = ctx.path("supplemental_data", "histogram_of_segments.txt")
    if os.path.exists(hpath):
        with open(hpath) as f:
            next(f)
            for line in f:
                p = line.strip().split(",")
                hist[int(p[0])] = [float(v) for v in p[1:]]
    dim = max((len(v) for v in hist.values()), default=0)

    def feats(ids, what):
        A = features_of([src(r) for r in ids], read_wav, what=what, n_fft=256, bands=64, slices=1)
        if dim:
            H = np.array([hist.get(r, [0.0] * dim) + [0.0] * (dim - len(hist.get(r, []))) for r in ids])
            A = np.hstack([A, H])
        return A
    X, Xt = feats(train_ids, "training recordings"), feats(test_ids, "test recordings")
    Y = np.zeros((len(train_ids), n_species), dtype=int)
    for i, r in enumerate(train_ids):
        for s in labels[r]:
            Y[i, s] = 1
    P = models.multilabel(X, Y, Xt, ctx.seed, metric="auc", kinds=("linear",), Cs=(0.1,))
    prob = {(r, s): P[i, s] for i, r in enumerate(test_ids) for s in range(n_species)}
    sub["Probability"] = np.round([prob.get((i // 100, i % 100), 0.0) for i in sub.Id], 6)
    write_df(ctx, sub)


def right_whale(ctx):
    sub = read_sample(ctx)
    tr_zip, te_zip = ctx.path("train2.zip"), ctx.path("test2.zip")
    with zipfile.ZipFile(tr_zip) as z:
        members = sorted(n for n in z.namelist() if n.lower().endswith((".aif", ".aiff")))
    n = ctx.scale(len(members), 30000)
    members = members[:: max(1, len(members) // n)]
    y = np.array([int(os.path.basename(m).rsplit("_", 1)[1].split(".")[0]) for m in members])
    with zipfile.ZipFile(te_zip) as z:
        idx = {os.path.basename(n): n for n in z.namelist()}
    zt, zs = zipfile.ZipFile(tr_zip), zipfile.ZipFile(te_zip)
    kw = dict(n_fft=128, bands=32, slices=4, fmax=500)
    X = features_of([lambda m=m: zt.read(m) for m in members], read_aiff, what="training clips", **kw)
    Xt = features_of([lambda c=c: zs.read(idx[c]) for c in sub["clip"]], read_aiff, what="test clips", **kw)
    p = models.binary(X, y, Xt, ctx.seed, metric="auc")
    sub["probability"] = np.round(p, 6)
    write_df(ctx, sub)


def freesound(ctx):
    """Multi-label tagging: one logistic regression per class on spectral
    features of the curated clips (the noisy set's labels are unreliable;
    it is added with a lower weight only when the curated set is small)."""
    sub = read_sample(ctx)
    classes = [c for c in sub.columns if c != "fname"]
    cur = pd.read_csv(ctx.path("train_curated.csv"))
    n = ctx.scale(len(cur), 20000)
    cur = cur.iloc[:: max(1, len(cur) // n)]
    zc, zt = zipfile.ZipFile(ctx.path("train_curated.zip")), zipfile.ZipFile(ctx.path("test.zip"))
    ic = {os.path.basename(m): m for m in zc.namelist()}
    it = {os.path.basename(m): m for m in zt.namelist()}
    kw = dict(n_fft=256, bands=48, slices=2)
    X = features_of([lambda f=f: zc.read(ic[f]) for f in cur.fname], read_wav, what="curated clips", **kw)
    Xt = features_of([lambda f=f: zt.read(it[f]) for f in sub.fname], read_wav, what="test clips", **kw)
    Y = np.array([[c in set(str(l).split(",")) for c in classes] for l in cur["labels"]], dtype=int)
    from sklearn.linear_model import LogisticRegression
    Xs, Xts = models._scaled(X, Xt)
    P = np.zeros((len(Xt), len(classes)))
    for j in range(len(classes)):
        if Y[:, j].min() == Y[:, j].max():
            P[:, j] = Y[:, j].mean() * 1e-3  # unseen class: ranked last
            continue
        P[:, j] = LogisticRegression(C=0.3, max_iter=300).fit(Xs, Y[:, j]).predict_proba(Xts)[:, 1]
    log(f"{int((Y.sum(0) > 0).sum())} of {len(classes)} classes occur in the curated training clips")
    out = pd.DataFrame(np.round(P, 6), columns=classes)
    out.insert(0, "fname", sub.fname.values)
    write_df(ctx, out)


def speech_commands(ctx):
    """Word recognition: spectral features of each clip, multinomial
    logistic regression over the word folders (background noise excluded)."""
    sub = read_sample(ctx)
    words = [w for w in ctx.listdir("train", "audio") if not w.startswith("_")
             and os.path.isdir(ctx.path("train", "audio", w))]
    files = [(w, f) for w in words for f in ctx.listdir("train", "audio", w) if f.endswith(".wav")]
    n = ctx.scale(len(files), 30000)
    files = files[:: max(1, len(files) // n)]

    def rd(p):
        return lambda: open(p, "rb").read()
    kw = dict(n_fft=512, bands=64, slices=3, fmax=4000)
    X = features_of([rd(ctx.path("train", "audio", w, f)) for w, f in files], read_wav,
                    what="training clips", **kw)
    Xt = features_of([rd(ctx.path("test", "audio", f)) for f in sub.fname], read_wav, what="test clips", **kw)
    y = np.array([words.index(w) for w, _ in files])
    P = models.classify(X, y, Xt, ctx.seed, metric="acc", kinds=("linear",), Cs=(1.0,), name="word")
    sub["label"] = np.array(words, dtype=object)[P.argmax(1)]
    write_df(ctx, sub)
