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
using ::testing::ElementsAre;
using ::testing::Key;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(Ml2021SpringHw2RawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  EXPECT_THAT(*tree, ElementsAre(Key("timit_11/timit_11/test_11.npy"),
                                 Key("timit_11/timit_11/train_11.npy"),
                                 Key("timit_11/timit_11/train_label_11.npy")));
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) total += bytes.size();
  EXPECT_LT(total, 1'500'000u);
}

// numpy loads Kaggle's dtypes and shapes; a nearest-centroid model fitted on
// 3/4 of the labelled frames beats the sample submission (class 0
// everywhere) and the majority class clearly on the rest.
constexpr char kCheckScript[] = R"py(
import sys
import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.neighbors import NearestCentroid

d = sys.argv[1] + "/timit_11/timit_11"
x, y, t = np.load(f"{d}/train_11.npy"), np.load(f"{d}/train_label_11.npy"), np.load(f"{d}/test_11.npy")
assert x.dtype == np.float32 and x.shape == (500, 429), (x.dtype, x.shape)
assert y.dtype == np.dtype("<U2") and y.shape == (500,), (y.dtype, y.shape)
assert t.dtype == np.float32 and t.shape == (180, 429), (t.dtype, t.shape)
labels = y.astype(int)
assert labels.min() >= 0 and labels.max() <= 38 and len(set(labels)) > 30
assert all(str(v) == s for v, s in zip(labels, y))

x_fit, x_val, y_fit, y_val = train_test_split(x, labels, test_size=0.25, random_state=0)
accuracy = (NearestCentroid().fit(x_fit, y_fit).predict(x_val) == y_val).mean()
zero = (y_val == 0).mean()
majority = (y_val == np.bincount(y_fit).argmax()).mean()
print(f"accuracy={accuracy:.3f} zero={zero:.3f} majority={majority:.3f}")
assert accuracy > 0.5 and accuracy > max(zero, majority) + 0.3, (accuracy, zero, majority)
)py";

TEST(Ml2021SpringHw2RawTest, NumpyReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
