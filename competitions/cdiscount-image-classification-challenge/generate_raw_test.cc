#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "base/testing/test_util.h"
#include "formats/bson.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::StartsWith;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(CdiscountRawTest, SameSeedSameBytesAndKaggleLayout) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_THAT(names, ElementsAre("category_names.csv", "sample_submission.csv", "test.bson",
                                 "train.bson", "train_example.bson"));
  EXPECT_THAT(tree->at("category_names.csv"),
              StartsWith("category_id,category_level1,category_level2,category_level3\n"));
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("_id,category_id\n0,1000010653\n"));
  EXPECT_LT(total, 4'000'000u);

  // Our reader sees Kaggle's document shape.
  absl::StatusOr<std::vector<BsonDocument>> train = DecodeBsonSequence(tree->at("train.bson"));
  ASSERT_TRUE(train.ok()) << train.status();
  ASSERT_EQ(train->size(), 600u);
  std::vector<std::string> keys;
  for (const BsonElement& e : (*train)[0].elements) keys.push_back(e.key);
  EXPECT_THAT(keys, ElementsAre("_id", "imgs", "category_id"));
  EXPECT_EQ((*train)[0].Find("_id")->type, BsonType::kInt32);
  EXPECT_EQ((*train)[0].Find("category_id")->type, BsonType::kInt32);
  EXPECT_EQ((*train)[0].Find("imgs")->type, BsonType::kArray);
}

// An independent BSON reading (bson_reference.py) sees the layout; Pillow
// decodes every picture; nearest-centroid on mean colour, fitted on the first
// 450 products, labels the other 150 far better than the sample submission's
// constant category.
constexpr char kCheckScript[] = R"py(
import io, sys
sys.path.insert(0, "competitions/cdiscount-image-classification-challenge")
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
import bson_reference as br

raw = Path(sys.argv[1])
names = pd.read_csv(raw / "category_names.csv")
sample = pd.read_csv(raw / "sample_submission.csv")
assert list(names.columns) == ["category_id", "category_level1", "category_level2", "category_level3"]
assert names["category_id"].dtype == np.int64 and names["category_id"].is_unique
assert list(sample.columns) == ["_id", "category_id"] and sample["_id"].dtype == np.int64
assert (sample["category_id"] == 1000010653).all()

train = br.read_file(raw / "train.bson")
example = br.read_file(raw / "train_example.bson")
test = br.read_file(raw / "test.bson")
assert [raw_bytes for raw_bytes, _ in example] == [raw_bytes for raw_bytes, _ in train[:100]]
assert [k for k, _, _ in train[0][1]] == ["_id", "imgs", "category_id"]
assert [k for k, _, _ in test[0][1]] == ["_id", "imgs"]
assert list(sample["_id"]) == [br.value(e, "_id") for _, e in test]
ids = [br.value(e, "_id") for _, e in train]
assert ids == sorted(set(ids))
labels = np.array([br.value(e, "category_id") for _, e in train])
assert set(labels) <= set(names["category_id"]) and len(set(labels)) >= 6

def features(elements):
    pics = [br.value(br.decode(img), "picture") for _, _, img in br.value(elements, "imgs")]
    assert 1 <= len(pics) <= 4
    arrays = []
    for p in pics:
        im = Image.open(io.BytesIO(p))
        assert im.format == "JPEG" and im.mode == "RGB" and im.size == (32, 32)
        arrays.append(np.asarray(im, dtype=np.float64))
    return np.mean([a.reshape(-1, 3).mean(axis=0) for a in arrays], axis=0)

X = np.array([features(e) for _, e in train])
[features(e) for _, e in test]
fit, held = slice(0, 450), slice(450, None)
classes = sorted(set(labels[fit]))
centroids = np.array([X[fit][labels[fit] == c].mean(axis=0) for c in classes])
pred = np.array(classes)[((X[held][:, None, :] - centroids[None]) ** 2).sum(-1).argmin(1)]
acc = (pred == labels[held]).mean()
baseline = (labels[held] == 1000010653).mean()
print(f"accuracy={acc:.3f} baseline={baseline:.3f}")
assert acc > 0.6 and acc > baseline + 0.3, (acc, baseline)
)py";

TEST(CdiscountRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
