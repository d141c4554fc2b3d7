"""Checks a synthetic multi-modal-gesture-recognition raw download.

Usage: check_raw.py RAW
pandas/tarfile/zipfile read Kaggle's layout; a nearest-mean model of the
right hand's position, fitted on training1-3's labelled gestures, segments
and names the gestures of training4's videos with a far lower edit-distance
score than random permutations of the 20 gestures get.
"""

import io
import random
import sys
import tarfile
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

raw = Path(sys.argv[1])
training = pd.read_csv(raw / "training.csv", dtype={"Id": str, "Sequence": str})
assert list(training.columns) == ["Id", "Sequence"] and training["Id"].str.len().eq(4).all()
truth = dict(zip(training["Id"], training["Sequence"]))
assert pd.read_csv(raw / "test.csv")["Id"].dtype == np.int64
for name in ["devel01-40.7z", "valid_all_files_combined.7z"]:
    assert (raw / name).read_bytes()[:6] == b"7z\xbc\xaf\x27\x1c"
assert zipfile.ZipFile(raw / "sample_code_mmrgc.zip").testzip() is None


def videos(archive):
    with tarfile.open(raw / archive) as tar:
        for member in tar.getmembers():
            assert member.isfile() and "/" not in member.name and member.name.endswith(".zip")
            sample = member.name[:-4]
            with zipfile.ZipFile(io.BytesIO(tar.extractfile(member).read())) as z:
                skeleton = np.loadtxt(io.StringIO(z.read(f"{sample}_skeleton.csv").decode()),
                                      delimiter=",")
                assert skeleton.shape[1] == 180
                labels = None
                if f"{sample}_labels.csv" in z.namelist():
                    labels = np.loadtxt(io.StringIO(z.read(f"{sample}_labels.csv").decode()),
                                        delimiter=",", dtype=int, ndmin=2)
            yield sample[-4:], skeleton[:, 99:101], labels  # joint 11's world x, y


def distance(a, b):
    d = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, d[0] = d[0], i
        for j, y in enumerate(b, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (x != y))
    return d[-1]


points = {}
for archive in ["training1.tar.gz", "training2.tar.gz", "training3.tar.gz"]:
    for sample_id, hand, labels in videos(archive):
        assert [int(g) for g in truth[sample_id].split()] == list(labels[:, 0])
        for gesture, first, last in labels:
            points.setdefault(gesture, []).append(hand[first - 1 : last].mean(axis=0))
gestures = sorted(points)
means = np.array([np.mean(points[g], axis=0) for g in gestures])
rest = np.array([0.0, -0.6])

model_sum = random_sum = total = 0
rng = random.Random(0)
for sample_id, hand, _ in videos("training4.tar.gz"):
    active = np.linalg.norm(hand - rest, axis=1) > 0.3
    segments, start = [], None
    for i, a in enumerate(list(active) + [False]):
        if a and start is None:
            start = i
        elif not a and start is not None:
            segments.append(hand[start:i].mean(axis=0))
            start = None
    pred = [gestures[int(np.argmin(((means - s) ** 2).sum(axis=1)))] for s in segments]
    true = [int(g) for g in truth[sample_id].split()]
    model_sum += distance(true, pred)
    random_sum += distance(true, rng.sample(range(1, 21), 20))
    total += len(true)
for archive in ["validation1.tar.gz", "validation2.tar.gz", "validation3.tar.gz"]:
    for sample_id, hand, labels in videos(archive):
        assert labels is None and sample_id not in truth
print(f"edit distance per gesture: model={model_sum / total:.3f} random={random_sum / total:.3f}")
assert model_sum / total < 0.2 and random_sum / total > 1.0, (model_sum, random_sum, total)
