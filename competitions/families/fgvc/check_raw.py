"""Checks a synthetic herbarium raw download (2020 or 2021 layout).

Usage: check_raw.py RAW DATA_DIR ENCODING GROUP_KEY
pandas/json read Kaggle's layout with the expected types; Pillow decodes the
images; a nearest-centroid model on colour features, fitted on some labelled
images, gets a much higher macro F1 on the others than the sample
submission's all-zero predictions.
"""

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image
from sklearn.metrics import f1_score

raw, data_dir, encoding, group_key = Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
root = raw / data_dir
with open(root / "train/metadata.json", encoding=encoding) as f:
    train = json.load(f)
assert sorted(train) == sorted(["annotations", "categories", "images", "info", "licenses", group_key]), sorted(train)
assert len(train["annotations"]) == len(train["images"])
for a, im in zip(train["annotations"], train["images"]):
    assert a["image_id"] == im["id"] and isinstance(im["id"], int)
    assert isinstance(a["category_id"], int)
    c = a["category_id"]
    assert im["file_name"] == f"images/{c // 100:03d}/{c % 100:02d}/{im['id']}.jpg", im
with open(root / "test/metadata.json", encoding=encoding) as f:
    test = json.load(f)
assert sorted(test) == ["images", "info", "licenses"]
sample = pd.read_csv(raw / "sample_submission.csv")
assert list(sample.columns) == ["Id", "Predicted"] and sample["Id"].dtype == np.int64
assert len(sample) == len(test["images"])
assert len(list((root / "train/images").glob("**/*.jpg"))) == len(train["images"])

def features(path):
    im = Image.open(path)
    assert im.format == "JPEG" and im.mode == "RGB" and im.size == (32, 32)
    a = np.asarray(im, dtype=np.float64)
    return np.concatenate([a.reshape(-1, 3).mean(axis=0), a.reshape(-1, 3).std(axis=0)])

for im in test["images"]:
    features(root / "test" / im["file_name"])
x = np.array([features(root / "train" / im["file_name"]) for im in train["images"]])
y = np.array([a["category_id"] for a in train["annotations"]])
rng = np.random.RandomState(0)
order = rng.permutation(len(y))
fit, held = order[: len(y) * 2 // 3], order[len(y) * 2 // 3 :]
labels = sorted(set(y[fit]))
centroids = np.array([x[fit][y[fit] == c].mean(axis=0) for c in labels])
d = ((x[held][:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
pred = np.array(labels)[d.argmin(axis=1)]
model = f1_score(y[held], pred, average="macro")
baseline = f1_score(y[held], np.zeros_like(y[held]), average="macro")
print(f"macro F1: model={model:.3f} all-zero={baseline:.3f}")
assert model > 0.6 and model > baseline + 0.4, (model, baseline)
