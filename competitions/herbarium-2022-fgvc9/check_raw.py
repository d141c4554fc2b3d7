"""Checks a synthetic herbarium-2022-fgvc9 raw download.

Usage: check_raw.py RAW
json/pandas read Kaggle's layout with the expected types; Pillow decodes the
images; a nearest-centroid model on colour features, fitted on some labelled
images, gets a much higher macro F1 on the others than the sample
submission's constant 42.
"""

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image
from sklearn.metrics import f1_score

raw = Path(sys.argv[1])
train = json.loads((raw / "train_metadata.json").read_text(encoding="utf-8"))
assert sorted(train) == ["annotations", "categories", "distances", "genera", "images",
                         "institutions", "licenses"], sorted(train)
assert len(train["annotations"]) == len(train["images"])
for a, im in zip(train["annotations"], train["images"]):
    assert a["image_id"] == im["image_id"] and isinstance(im["image_id"], str)
    c = a["category_id"]
    assert isinstance(c, int) and im["image_id"].startswith(f"{c:05d}__")
    assert im["file_name"] == f"{c // 100:03d}/{c % 100:02d}/{im['image_id']}.jpg", im
test = json.loads((raw / "test_metadata.json").read_text(encoding="utf-8"))
assert isinstance(test, list)
for i, im in enumerate(test):
    assert im["image_id"] == str(i) and im["file_name"] == f"{i // 1000:03d}/test-{i:06d}.jpg"
sample = pd.read_csv(raw / "sample_submission.csv")
assert list(sample.columns) == ["Id", "Predicted"] and sample["Id"].dtype == np.int64
assert sample["Predicted"].dtype == np.int64 and len(sample) == len(test)
assert len(list((raw / "train_images").glob("**/*.jpg"))) == len(train["images"])

def features(path):
    im = Image.open(path)
    assert im.format == "JPEG" and im.mode == "RGB" and im.size == (32, 32)
    a = np.asarray(im, dtype=np.float64)
    return np.concatenate([a.reshape(-1, 3).mean(axis=0), a.reshape(-1, 3).std(axis=0)])

for im in test:
    features(raw / "test_images" / im["file_name"])
x = np.array([features(raw / "train_images" / im["file_name"]) for im in train["images"]])
y = np.array([a["category_id"] for a in train["annotations"]])
rng = np.random.RandomState(0)
order = rng.permutation(len(y))
fit, held = order[: len(y) * 2 // 3], order[len(y) * 2 // 3 :]
labels = sorted(set(y[fit]))
centroids = np.array([x[fit][y[fit] == c].mean(axis=0) for c in labels])
d = ((x[held][:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
pred = np.array(labels)[d.argmin(axis=1)]
model = f1_score(y[held], pred, average="macro")
baseline = f1_score(y[held], np.full_like(y[held], 42), average="macro")
print(f"macro F1: model={model:.3f} constant-42={baseline:.3f}")
assert model > 0.6 and model > baseline + 0.4, (model, baseline)
