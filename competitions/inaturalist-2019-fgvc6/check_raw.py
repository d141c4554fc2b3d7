"""Checks a synthetic inaturalist-2019-fgvc6 raw download.

Usage: check_raw.py RAW
json/pandas/tarfile read Kaggle's layout with the expected types; Pillow
decodes the images; a nearest-centroid model on colour, fitted on some train
images, has a far lower top-1 error on the others than a constant guess.
"""

import io
import json
import sys
import tarfile
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

raw = Path(sys.argv[1])
train = json.loads((raw / "train2019.json").read_text(encoding="utf-8"))
val = json.loads((raw / "val2019.json").read_text(encoding="utf-8"))
test = json.loads((raw / "test2019.json").read_text(encoding="utf-8"))
for meta in (train, val):
    assert sorted(meta) == ["annotations", "categories", "images", "info", "licenses"]
    assert len(meta["annotations"]) == len(meta["images"])
    for a, im in zip(meta["annotations"], meta["images"]):
        assert a["image_id"] == im["id"] and isinstance(im["id"], int)
        assert im["file_name"].startswith("train_val2019/") and im["file_name"].split("/")[2] == str(a["category_id"])
assert sorted(test) == ["images", "info", "licenses"]
sample = pd.read_csv(raw / "kaggle_sample_submission.csv")
assert list(sample.columns) == ["id", "predicted"] and sample["id"].dtype == np.int64
assert len(sample) == len(test["images"])

with tarfile.open(raw / "train_val2019.tar.gz") as tar:
    files = {m.name: tar.extractfile(m).read() for m in tar.getmembers() if m.isfile()}
assert set(files) == {im["file_name"] for im in train["images"] + val["images"]}
with tarfile.open(raw / "test2019.tar.gz") as tar:
    assert {m.name for m in tar.getmembers()} == {im["file_name"] for im in test["images"]}


def features(data):
    im = Image.open(io.BytesIO(data))
    assert im.format == "JPEG" and im.mode == "RGB" and im.size == (32, 32)
    a = np.asarray(im, dtype=np.float64).reshape(-1, 3)
    return a.mean(axis=0) / a.mean()  # colour, not brightness


x = np.array([features(files[im["file_name"]]) for im in train["images"]])
y = np.array([a["category_id"] for a in train["annotations"]])
order = np.random.RandomState(0).permutation(len(y))
fit, held = order[: len(y) * 2 // 3], order[len(y) * 2 // 3 :]
labels = sorted(set(y[fit]))
centroids = np.array([x[fit][y[fit] == c].mean(axis=0) for c in labels])
pred = np.array(labels)[((x[held][:, None, :] - centroids[None]) ** 2).sum(axis=2).argmin(axis=1)]
model = np.mean(pred != y[held])
constant = min(np.mean(y[held] != c) for c in labels)
print(f"top-1 error: model={model:.3f} best constant={constant:.3f}")
assert model < 0.35 and model < constant - 0.4, (model, constant)
