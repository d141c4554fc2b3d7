"""Upstream's prepare.py restated with pandas 2.2.2, scikit-learn 1.5.1,
pyarrow 17.0.0 and fastparquet 2024.5.0 (the reference environment), for
prepare_test, and the comparison of our outputs with it.

  prepare_reference.py RAW_DIR OUR_PUBLIC OUR_PRIVATE OUT_DIR

Reads RAW_DIR/train_meta.parquet with pd.read_parquet, as upstream does, and
writes upstream's outputs under OUT_DIR/public and OUT_DIR/private, Parquet
with to_parquet(index=False, engine="fastparquet") as upstream writes it,
plus OUT_DIR/{train,test}_batches.txt (the batch files upstream copies).
Then reads our OUR_PUBLIC/{train,test}_meta.parquet with pd.read_parquet and
prints, per file, "frame-equal NAME" when the DataFrame equals upstream's
exactly (values, dtypes, column order; pandas.testing.assert_frame_equal with
check_exact) or raises, then "bytes NAME identical" when our file is
fastparquet's byte for byte, else "bytes NAME different at byte N (ours A
bytes, fastparquet's B)".
"""

import sys
from pathlib import Path

import pandas as pd
from pandas.testing import assert_frame_equal
from sklearn.model_selection import train_test_split

raw, ours_public, ours_private, out = (Path(a) for a in sys.argv[1:5])
public, private = out / "public", out / "private"
public.mkdir(parents=True, exist_ok=True)
private.mkdir(parents=True, exist_ok=True)

old_train = pd.read_parquet(raw / "train_meta.parquet")
batch_ids = old_train["batch_id"].unique()
train_ids, test_ids = train_test_split(batch_ids, test_size=0.1, random_state=0)
old_train["split"] = None
old_train.loc[old_train["batch_id"].isin(train_ids), "split"] = "train"
old_train.loc[old_train["batch_id"].isin(test_ids), "split"] = "test"
new_train = (
    old_train[old_train["split"] == "train"].drop(columns=["split"]).reset_index(drop=True).copy()
)
new_test = (
    old_train[old_train["split"] == "test"].drop(columns=["split"]).reset_index(drop=True).copy()
)
new_test_without_labels = new_test.drop(columns=["azimuth", "zenith"])
new_test = new_test[["event_id", "azimuth", "zenith"]]
sample_submission = new_test.copy()
sample_submission["azimuth"] = 1
sample_submission["zenith"] = 1
new_train.to_parquet(public / "train_meta.parquet", index=False, engine="fastparquet")
new_test_without_labels.to_parquet(public / "test_meta.parquet", index=False, engine="fastparquet")
sample_submission.to_csv(public / "sample_submission.csv", index=False)
new_test.to_csv(private / "test.csv", index=False)

train_set, test_set = set(train_ids), set(test_ids)
train_files, test_files = [], []
for batch_file in sorted((raw / "train").glob("*.parquet")):
    batch_id = int(batch_file.stem.split("_")[-1])
    if batch_id in train_set:
        train_files.append(batch_file.name)
    elif batch_id in test_set:
        test_files.append(batch_file.name)
(out / "train_batches.txt").write_text("\n".join(train_files) + "\n")
(out / "test_batches.txt").write_text("\n".join(test_files) + "\n")

for name in ("train_meta.parquet", "test_meta.parquet"):
    assert_frame_equal(pd.read_parquet(ours_public / name), pd.read_parquet(public / name),
                       check_exact=True)
    print(f"frame-equal {name}")
    ours, theirs = (ours_public / name).read_bytes(), (public / name).read_bytes()
    if ours == theirs:
        print(f"bytes {name} identical")
    else:
        at = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b),
                  min(len(ours), len(theirs)))
        print(f"bytes {name} different at byte {at} (ours {len(ours)} bytes, "
              f"fastparquet's {len(theirs)})")
