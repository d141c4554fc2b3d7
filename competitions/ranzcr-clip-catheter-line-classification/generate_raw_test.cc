#include <filesystem>
#include <map>
#include <string>

#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

namespace fs = std::filesystem;
using ::testing::StartsWith;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(RanzcrRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, images = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    images += name.starts_with("train/1.2.826.0.1.3680043.8.498.") && name.ends_with(".jpg");
  }
  EXPECT_EQ(images, 600u);
  EXPECT_EQ(tree->size(), 602u);
  EXPECT_THAT(tree->at("train.csv"), StartsWith("StudyInstanceUID,ETT - Abnormal,"));
  EXPECT_THAT(tree->at("train_annotations.csv"),
              StartsWith("StudyInstanceUID,label,data\n1.2.826.0.1.3680043.8.498."));
  EXPECT_LT(total, 2'000'000u);
}

// pandas reads Kaggle's columns and dtypes; every row has its image and
// every annotation a row; Pillow decodes the images; a logistic regression
// per class on 8x8-pooled pixels, fitted on 90% of the rows, scores a mean
// ROC AUC over the nine graded classes far above the all-zero sample
// submission's 0.5 on the rest.
constexpr char kCheckScript[] = R"py(
import ast, sys
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

raw = Path(sys.argv[1])
labels = ["ETT - Abnormal", "ETT - Borderline", "ETT - Normal", "NGT - Abnormal",
          "NGT - Borderline", "NGT - Incompletely Imaged", "NGT - Normal", "CVC - Abnormal",
          "CVC - Borderline", "CVC - Normal", "Swan Ganz Catheter Present"]
graded = labels[:9]
train = pd.read_csv(raw / "train.csv")
assert list(train.columns) == ["StudyInstanceUID"] + labels + ["PatientID"], list(train.columns)
assert list(train.dtypes) == [object] + [np.int64] * 11 + [object], train.dtypes
assert len(train) == 600 and train["StudyInstanceUID"].is_unique
assert train["StudyInstanceUID"].str.fullmatch(r"1\.2\.826\.0\.1\.3680043\.8\.498\.[1-9][0-9]{29,37}").all()
assert train["PatientID"].str.fullmatch(r"[0-9a-f]{9}").all()
assert train["PatientID"].nunique() < 600
assert train[labels].isin([0, 1]).all().all()
assert (train[graded].sum() >= 50).all(), train[graded].sum()
assert (train[labels[:3]].sum(axis=1) <= 1).all() and (train[labels[3:7]].sum(axis=1) <= 1).all()
annotations = pd.read_csv(raw / "train_annotations.csv")
assert list(annotations.columns) == ["StudyInstanceUID", "label", "data"]
assert annotations["StudyInstanceUID"].isin(train["StudyInstanceUID"]).all()
assert annotations["label"].isin(labels).all() and len(annotations) > 300
for uid, label, data in annotations.itertuples(index=False):
    assert train.loc[train["StudyInstanceUID"] == uid, label].item() == 1
    points = ast.literal_eval(data)
    assert len(points) >= 2 and all(len(p) == 2 and all(isinstance(v, int) for v in p) for p in points)
assert sorted(p.name for p in (raw / "train").iterdir()) == sorted(train["StudyInstanceUID"] + ".jpg")

def features(path):
    im = Image.open(path)
    assert im.format == "JPEG" and im.mode == "RGB" and im.size == (32, 32), path
    a = np.asarray(im.convert("L"), dtype=np.float64) / 255.0
    return a.reshape(8, 4, 8, 4).mean(axis=(1, 3)).ravel()

X = np.array([features(raw / "train" / f"{u}.jpg") for u in train["StudyInstanceUID"]])
Y = train[graded].to_numpy()
X_fit, X_val, Y_fit, Y_val = train_test_split(X, Y, test_size=0.1, random_state=0)
aucs = []
for k in range(9):
    model = LogisticRegression(C=10.0, max_iter=3000).fit(X_fit, Y_fit[:, k])
    aucs.append(roc_auc_score(Y_val[:, k], model.predict_proba(X_val)[:, 1]))
constant = np.mean([roc_auc_score(Y_val[:, k], np.zeros(len(Y_val))) for k in range(9)])
print("aucs", np.round(aucs, 3), f"mean={np.mean(aucs):.3f} constant={constant:.3f}")
assert constant == 0.5 and np.mean(aucs) > 0.75, (aucs, constant)
)py";

TEST(RanzcrRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
