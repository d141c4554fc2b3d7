"""A short restatement of upstream's inaturalist-2019-fgvc6 prepare.py.

Usage: prepare_reference.py RAW PUBLIC PRIVATE
Extracts the images into a temporary folder (not into RAW) and leaves the
public test2019/ and train_val2019/ folders in place of upstream's tars,
whose bytes depend on the clock and the file system.
"""

import json
import random
import shutil
import sys
import tempfile
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = map(Path, sys.argv[1:4])
images_root = Path(tempfile.mkdtemp())
shutil.unpack_archive(raw / "train_val2019.tar.gz", images_root)
meta = json.loads((raw / "train2019.json").read_text(encoding="utf-8"))
groups = {}
for ann, img in zip(meta["annotations"], meta["images"]):
    groups.setdefault(ann["category_id"], []).append((ann, img))
train_groups, test_groups = {}, {}
for cat, items in groups.items():
    if len(items) == 1:
        tr, te = items, []
    elif len(items) < 5:
        tr, te = items[:-1], items[-1:]
    else:
        tr, te = train_test_split(items, test_size=0.12, random_state=0)
    train_groups[cat], test_groups[cat] = tr, te

train_items = [item for items in train_groups.values() for item in items]
train_meta = dict(meta, annotations=[a for a, _ in train_items], images=[i for _, i in train_items])
(public / "train2019.json").write_text(json.dumps(train_meta, indent=4, sort_keys=True))
shutil.copy(raw / "val2019.json", public / "val2019.json")

test_items = [item for items in test_groups.values() for item in items]
random.Random(0).shuffle(test_items)
test_images = [dict(img, file_name="test2019/" + img["file_name"].split("/")[-1]) for _, img in test_items]
test_meta = {k: v for k, v in meta.items() if k not in ("categories", "annotations")}
test_meta["images"] = test_images
(public / "test2019.json").write_text(json.dumps(test_meta, indent=4, sort_keys=True))

answers = pd.DataFrame([{"id": img["id"], "predicted": ann["category_id"]} for ann, img in test_items])
answers.to_csv(private / "answers.csv", index=False)
answers.assign(predicted=random.Random(42).randint(0, 1009)).to_csv(
    public / "kaggle_sample_submission.csv", index=False)

for _, img in train_items:
    (public / img["file_name"]).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(images_root / img["file_name"], public / img["file_name"])
for (_, img), new in zip(test_items, test_images):
    (public / new["file_name"]).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(images_root / img["file_name"], public / new["file_name"])
shutil.rmtree(images_root)
