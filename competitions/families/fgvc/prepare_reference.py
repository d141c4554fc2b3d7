"""A short restatement of upstream's herbarium prepare.py (2020 and 2021).

Usage: prepare_reference.py RAW PUBLIC PRIVATE DATA_DIR ENCODING DROPPED_KEY
"""

import json
import random
import shutil
import sys
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = map(Path, sys.argv[1:4])
data_dir, encoding, dropped = sys.argv[4], sys.argv[5], sys.argv[6]
src, pub = raw / data_dir, public / data_dir

meta = json.loads((src / "train/metadata.json").read_text(encoding=encoding))
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
        tr, te = train_test_split(items, test_size=0.2, random_state=0)
    train_groups[cat], test_groups[cat] = tr, te

train_meta = dict(meta, annotations=[], images=[])
for cat, items in train_groups.items():
    (pub / "train/images" / f"{cat // 100:03d}/{cat % 100:02d}").mkdir(parents=True, exist_ok=True)
    for ann, img in items:
        train_meta["annotations"].append(ann)
        train_meta["images"].append(img)
        shutil.copyfile(src / "train" / img["file_name"], pub / "train" / img["file_name"])
(pub / "train/metadata.json").write_text(json.dumps(train_meta, indent=4, sort_keys=True))

test_items = [item for items in test_groups.values() for item in items]
random.Random(0).shuffle(test_items)
test_meta = {k: v for k, v in meta.items() if k not in ("categories", dropped, "annotations")}
test_meta["images"] = []
answers = []
for idx, (ann, img) in enumerate(test_items):
    name = f"images/{idx // 1000:03d}/{idx}.jpg"
    test_meta["images"].append(dict(img, id=str(idx), file_name=name))
    answers.append({"Id": str(idx), "Predicted": ann["category_id"]})
    (pub / "test" / name).parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src / "train" / img["file_name"], pub / "test" / name)
(pub / "test/metadata.json").write_text(json.dumps(test_meta, indent=4, sort_keys=True))

answers = pd.DataFrame(answers)
answers.to_csv(private / "answers.csv", index=False)
answers.assign(Predicted=0).to_csv(public / "sample_submission.csv", index=False)
