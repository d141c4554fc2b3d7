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

TEST(PetfinderRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, images = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    images += name.starts_with("train/") && name.ends_with(".jpg");
  }
  EXPECT_EQ(images, 500u);
  EXPECT_EQ(tree->size(), 501u);
  EXPECT_THAT(tree->at("train.csv"),
              StartsWith("Id,Subject Focus,Eyes,Face,Near,Action,Accessory,Group,Collage,Human,"
                         "Occlusion,Info,Blur,Pawpularity\n"));
  EXPECT_LT(total, 2'000'000u);
}

// pandas reads Kaggle's columns and dtypes; every row has its image; Pillow
// decodes them; a linear regression on the share of fur-coloured pixels and
// two metadata columns, fitted on 90% of the rows, has an RMSE on the rest
// far below both the spread of the target and the RMSE of a sample
// submission's uniform random scores.
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
from sklearn.linear_model import LinearRegression
from sklearn.metrics import mean_squared_error
from sklearn.model_selection import train_test_split

raw = Path(sys.argv[1])
meta = ["Subject Focus", "Eyes", "Face", "Near", "Action", "Accessory", "Group", "Collage",
        "Human", "Occlusion", "Info", "Blur"]
train = pd.read_csv(raw / "train.csv")
assert list(train.columns) == ["Id"] + meta + ["Pawpularity"], list(train.columns)
assert list(train.dtypes) == [object] + [np.int64] * 13, train.dtypes
assert len(train) == 500 and train["Id"].is_unique
assert train["Id"].str.fullmatch(r"[0-9a-f]{32}").all()
assert train[meta].isin([0, 1]).all().all()
assert train["Pawpularity"].between(1, 100).all() and train["Pawpularity"].std() > 12
assert sorted(p.name for p in (raw / "train").iterdir()) == sorted(train["Id"] + ".jpg")

def fur_share(path):
    im = Image.open(path)
    assert im.format == "JPEG" and im.mode == "RGB" and im.size == (32, 32), path
    r, g, b = np.asarray(im, dtype=np.float64).reshape(-1, 3).T
    return ((r > 1.2 * g) & (g > 1.2 * b)).mean()

X = np.column_stack([[fur_share(raw / "train" / f"{i}.jpg") for i in train["Id"]],
                     train["Near"], train["Blur"]])
y = train["Pawpularity"].to_numpy()
X_fit, X_val, y_fit, y_val = train_test_split(X, y, test_size=0.1, random_state=0)
rmse = mean_squared_error(y_val, LinearRegression().fit(X_fit, y_fit).predict(X_val)) ** 0.5
sample = mean_squared_error(y_val, np.random.default_rng(0).uniform(1, 100, len(y_val)).round(2)) ** 0.5
print(f"rmse={rmse:.2f} std={y_val.std():.2f} sample={sample:.2f}")
assert rmse < 0.7 * y_val.std() and rmse < 0.5 * sample, (rmse, y_val.std(), sample)
)py";

TEST(PetfinderRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
