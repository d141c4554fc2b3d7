"""A short restatement of upstream's multi-modal-gesture-recognition prepare.py.

Usage: prepare_reference.py RAW PUBLIC PRIVATE
(training4.tar.gz is extracted into a temporary folder, not into RAW.)
"""

import random
import shutil
import sys
import tempfile
from pathlib import Path

import pandas as pd

raw, public, private = map(Path, sys.argv[1:4])
with tempfile.TemporaryDirectory() as tmp:
    shutil.unpack_archive(raw / "training4.tar.gz", tmp)
    test_ids = sorted(p.stem[-4:] for p in Path(tmp).glob("*.zip"))

training = pd.read_csv(raw / "training.csv", dtype={"Id": str, "Sequence": str})
training[~training["Id"].isin(test_ids)].to_csv(public / "training.csv", index=False)
training[training["Id"].isin(test_ids)].to_csv(private / "test.csv", index=False)
pd.DataFrame({"Id": test_ids}).to_csv(public / "test.csv", index=False)
random.seed(0)
preds = [" ".join(str(x) for x in random.sample(range(1, 21), 20)) for _ in test_ids]
pd.DataFrame({"Id": test_ids, "Sequence": preds}).to_csv(public / "randomPredictions.csv", index=False)
shutil.copyfile(raw / "training4.tar.gz", public / "test.tar.gz")
for name in ["training1.tar.gz", "training2.tar.gz", "training3.tar.gz", "validation1.tar.gz",
             "validation2.tar.gz", "validation3.tar.gz", "devel01-40.7z",
             "valid_all_files_combined.7z", "sample_code_mmrgc.zip"]:
    shutil.copyfile(raw / name, public / name)
