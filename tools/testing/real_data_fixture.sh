# Sourced by the real-data integration tests (real_data_test.sh,
# real_data_content_test.sh): a data dir in upstream's layout and a fake
# upstream checkout, made from the synthetic raw downloads of a nested build.
#
#   real_data_fixture DATA REPO BAZEL_BIN
#
# writes
#   DATA/spaceship-titanic/prepared/   prepared/ only, written by pandas +
#                                      sklearn (a different tool, as upstream's
#                                      own prepare would leave it: no marker,
#                                      no raw/), on the reference environment
#                                      (upstream's pinned versions);
#   DATA/aerial-cactus-identification/raw/   raw/ only (a Kaggle-layout
#                                      download);
#   REPO/mlebench/competitions/spaceship-titanic/{leaderboard.csv,
#     description.md,checksums.yaml}   (md5s of the pandas-written files).
# BAZEL_BIN must hold //competitions/{spaceship-titanic,
# aerial-cactus-identification}:raw.
real_data_fixture() {
  local data="$1" repo="$2" bin="$3"
  mkdir -p "$data/aerial-cactus-identification"
  cp -rL "$bin/competitions/aerial-cactus-identification/raw" "$data/aerial-cactus-identification/raw"

  local ship="$data/spaceship-titanic/prepared"
  mkdir -p "$ship/public" "$ship/private"
  "${MLEBENCH_PYTHON:?the reference Python is unset: run tests through ./bazelw}" - "$bin/competitions/spaceship-titanic/raw/train.csv" "$ship" <<'PY'
import sys
import pandas as pd
from sklearn.model_selection import train_test_split
raw, out = sys.argv[1], sys.argv[2]
old = pd.read_csv(raw)
train, test = train_test_split(old, test_size=0.1, random_state=0)
sample = test[["PassengerId", "Transported"]].copy()
sample["Transported"] = False
sample.to_csv(f"{out}/public/sample_submission.csv", index=False)
test.to_csv(f"{out}/private/test.csv", index=False)
train.to_csv(f"{out}/public/train.csv", index=False)
test.drop("Transported", axis="columns").to_csv(f"{out}/public/test.csv", index=False)
PY

  # A fake upstream checkout: only spaceship-titanic has its files.
  local up="$repo/mlebench/competitions/spaceship-titanic" f
  mkdir -p "$up"
  printf 'teamId,score\n1,0.99\n2,0.98\n3,0.97\n4,0.96\n5,0.95\n6,0.2\n' >"$up/leaderboard.csv"
  printf '# Upstream description (test)\n' >"$up/description.md"
  {
    echo "private:"
    echo "  test.csv: $(md5sum <"$ship/private/test.csv" | cut -d' ' -f1)"
    echo "public:"
    for f in sample_submission.csv test.csv train.csv; do
      echo "  $f: $(md5sum <"$ship/public/$f" | cut -d' ' -f1)"
    done
    echo "zip: 00000000000000000000000000000000"
  } >"$up/checksums.yaml"
}
