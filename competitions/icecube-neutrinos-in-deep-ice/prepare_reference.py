#!/usr/bin/python3
"""A pandas + scikit-learn restatement of upstream's prepare.py, for
prepare_test. Debian's pandas cannot read Parquet (no pyarrow), so the test
hands over raw train_meta.parquet as CSV (read with our Parquet reader, which
has its own tests) and compares our Parquet outputs as CSV too.

  prepare_reference.py TRAIN_META_CSV BATCH_FILE_NAMES OUT_DIR

writes OUT_DIR/{train_meta,test_meta,sample_submission,test}.csv and
OUT_DIR/{train,test}_batches.txt (the batch files copied to train/ and test/).
"""

import sys
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

meta_csv, batch_names, out = sys.argv[1], sys.argv[2].split(","), Path(sys.argv[3])
# round_trip: the CSV only carries the Parquet file's exact doubles across.
old_train = pd.read_csv(meta_csv, float_precision="round_trip")
batch_ids = old_train["batch_id"].unique()
train_ids, test_ids = train_test_split(batch_ids, test_size=0.1, random_state=0)
old_train["split"] = None
old_train.loc[old_train["batch_id"].isin(train_ids), "split"] = "train"
old_train.loc[old_train["batch_id"].isin(test_ids), "split"] = "test"
new_train = old_train[old_train["split"] == "train"].drop(columns=["split"]).reset_index(drop=True)
new_test = old_train[old_train["split"] == "test"].drop(columns=["split"]).reset_index(drop=True)
new_test_without_labels = new_test.drop(columns=["azimuth", "zenith"])
new_test = new_test[["event_id", "azimuth", "zenith"]]
sample_submission = new_test.copy()
sample_submission["azimuth"] = 1
sample_submission["zenith"] = 1
new_train.to_csv(out / "train_meta.csv", index=False)
new_test_without_labels.to_csv(out / "test_meta.csv", index=False)
sample_submission.to_csv(out / "sample_submission.csv", index=False)
new_test.to_csv(out / "test.csv", index=False)
train_set, test_set = set(train_ids), set(test_ids)
train_files, test_files = [], []
for name in sorted(batch_names):
    batch_id = int(Path(name).stem.split("_")[-1])
    if batch_id in train_set:
        train_files.append(name)
    elif batch_id in test_set:
        test_files.append(name)
(out / "train_batches.txt").write_text("\n".join(train_files) + "\n")
(out / "test_batches.txt").write_text("\n".join(test_files) + "\n")
