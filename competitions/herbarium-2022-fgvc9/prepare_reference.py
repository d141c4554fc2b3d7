"""A short restatement of upstream's herbarium-2022-fgvc9 prepare.py.

Usage: prepare_reference.py RAW PUBLIC PRIVATE
"""

import json
import random
import shutil
import sys
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = map(Path, sys.argv[1:4])
meta = json.loads((raw / "train_metadata.json").read_text(encoding="utf-8"))
groups = {}
for ann, img in zip(meta["annotations"], meta["images"]):
    groups.setdefault(ann["category_id"], []).append((ann, img))

train_groups, test_groups = {}, {}
for cat, items in groups.items():
    train_groups[cat], test_groups[cat] = train_test_split(items, test_size=0.2, random_state=0)

train_meta = dict(meta, annotations=[], images=[])
for cat, items in train_groups.items():
    sub = f"{cat // 100:03d}/{cat % 100:02d}"
    (public / "train_images" / sub).mkdir(parents=True, exist_ok=True)
    for idx, (ann, img) in enumerate(items):
        new_id = f"{cat:05d}__{idx + 1:03d}"
        name = f"{sub}/{new_id}.jpg"
        train_meta["annotations"].append(dict(ann, image_id=new_id))
        train_meta["images"].append(dict(img, image_id=new_id, file_name=name))
        shutil.copyfile(raw / "train_images" / img["file_name"], public / "train_images" / name)
(public / "train_metadata.json").write_text(json.dumps(train_meta, indent=4, sort_keys=True))

test_items = [item for items in test_groups.values() for item in items]
random.Random(0).shuffle(test_items)
test_images, answers = [], []
for idx, (ann, img) in enumerate(test_items):
    name = f"{idx // 1000:03d}/test-{idx:06d}.jpg"
    test_images.append(dict(img, image_id=str(idx), file_name=name))
    answers.append({"Id": str(idx), "Predicted": ann["category_id"]})
    (public / "test_images" / name).parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(raw / "train_images" / img["file_name"], public / "test_images" / name)
(public / "test_metadata.json").write_text(json.dumps(test_images, indent=4, sort_keys=True))

answers = pd.DataFrame(answers)
answers.to_csv(private / "answers.csv", index=False)
answers.assign(Predicted=42).to_csv(public / "sample_submission.csv", index=False)
