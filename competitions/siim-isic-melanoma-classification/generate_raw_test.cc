#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/testing/test_util.h"
#include "formats/tfrecord.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

namespace fs = std::filesystem;
using ::testing::StartsWith;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(SiimIsicRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0;
  std::map<std::string, int> per_folder;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    per_folder[name.substr(0, name.rfind('/') + 1)]++;
  }
  EXPECT_EQ(per_folder["train/"], 320);
  EXPECT_EQ(per_folder["test/"], 40);
  EXPECT_EQ(per_folder["jpeg/train/"], 320);
  EXPECT_EQ(per_folder["jpeg/test/"], 40);
  EXPECT_EQ(per_folder["tfrecords/"], 16 + 4);
  EXPECT_EQ(per_folder[""], 3);
  EXPECT_THAT(tree->at("train.csv"),
              StartsWith("image_name,patient_id,sex,age_approx,anatom_site_general_challenge,"
                         "diagnosis,benign_malignant,target\n"));
  EXPECT_LT(total, 4'000'000u);
}

// Our TFRecord reader finds every train image in exactly one train shard,
// named as on Kaggle (upstream's prepare.py opens train00-2071.tfrec and
// train06-2071.tfrec by name).
TEST(SiimIsicRawTest, ShardsHoldEveryImageOnce) {
  absl::StatusOr<std::map<std::string, std::string>> tree = [] {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, 2);
    if (!raw.ok()) return absl::StatusOr<std::map<std::string, std::string>>(raw.status());
    return absl::StatusOr<std::map<std::string, std::string>>(testing::ReadTree(*raw));
  }();
  ASSERT_TRUE(tree.ok()) << tree.status();
  ASSERT_EQ(tree->count("tfrecords/train00-2071.tfrec"), 1u);
  ASSERT_EQ(tree->count("tfrecords/train06-2071.tfrec"), 1u);
  ASSERT_EQ(tree->count("tfrecords/train15-2061.tfrec"), 1u);
  std::multiset<std::string> train_in_shards, test_in_shards;
  for (const auto& [name, bytes] : *tree) {
    if (name.rfind("tfrecords/", 0) != 0) continue;
    absl::StatusOr<std::vector<std::string>> records = ReadTfRecords(bytes);
    ASSERT_TRUE(records.ok()) << name;
    for (const std::string& record : *records) {
      absl::StatusOr<std::string> image_name = ExampleFirstBytesValue(record, "image_name");
      ASSERT_TRUE(image_name.ok()) << name;
      (name.rfind("tfrecords/train", 0) == 0 ? train_in_shards : test_in_shards).insert(*image_name);
      absl::StatusOr<std::string> image = ExampleFirstBytesValue(record, "image");
      // JPEG bytes are not UTF-8: the helper refuses to decode them.
      EXPECT_FALSE(image.ok());
    }
  }
  std::multiset<std::string> train_files, test_files;
  for (const auto& [name, bytes] : *tree) {
    if (name.rfind("jpeg/train/", 0) == 0) train_files.insert(name.substr(11, 12));
    if (name.rfind("jpeg/test/", 0) == 0) test_files.insert(name.substr(10, 12));
  }
  EXPECT_EQ(train_in_shards, train_files);
  EXPECT_EQ(test_in_shards, test_files);
}

// pandas reads the CSVs with Kaggle's dtypes; Pillow decodes every JPEG; a
// DICOM walker written from the standard (no pydicom here) reads every DICOM
// and finds the JPEG's luminance; the share of dark lesion pixels separates
// melanomas (AUC > 0.8) while the sample submission's constant scores 0.5.
constexpr char kCheckScript[] = R"py(
import struct, sys
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
from sklearn.metrics import roc_auc_score

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train.csv")
test = pd.read_csv(raw / "test.csv")
sample = pd.read_csv(raw / "sample_submission.csv")
assert list(train.columns) == ["image_name", "patient_id", "sex", "age_approx",
    "anatom_site_general_challenge", "diagnosis", "benign_malignant", "target"]
assert list(test.columns) == list(train.columns[:5])
assert list(sample.columns) == ["image_name", "target"] and (sample["target"] == 0).all()
assert list(sample["image_name"]) == list(test["image_name"])
assert train["age_approx"].dtype == np.float64 and train["age_approx"].isna().any()
assert train["target"].dtype == np.int64 and set(train["target"]) == {0, 1}
assert ((train["target"] == 1) == (train["benign_malignant"] == "malignant")).all()
for frame in (train, test):
    assert frame["image_name"].str.fullmatch(r"ISIC_[0-9]{7}").all()
    assert frame["patient_id"].str.fullmatch(r"IP_[0-9]{7}").all()
    assert frame["image_name"].is_unique
assert not set(train["image_name"]) & set(test["image_name"])

def dicom_pixels(path):
    data = path.read_bytes()
    assert data[:128] == bytes(128) and data[128:132] == b"DICM"
    at, elements = 132, {}
    while at < len(data):
        group, element, vr = struct.unpack_from("<HH2s", data, at)
        if vr in (b"OB", b"OW", b"SQ", b"UN", b"UT"):
            (length,) = struct.unpack_from("<2xI", data, at + 6); at += 12
        else:
            (length,) = struct.unpack_from("<H", data, at + 6); at += 8
        elements[(group, element)] = data[at:at + length]; at += length
    rows = struct.unpack("<H", elements[(0x28, 0x10)])[0]
    cols = struct.unpack("<H", elements[(0x28, 0x11)])[0]
    return np.frombuffer(elements[(0x7FE0, 0x10)][:rows * cols], np.uint8).reshape(rows, cols)

def darkness(split, name):
    im = Image.open(raw / "jpeg" / split / f"{name}.jpg")
    assert im.format == "JPEG" and im.mode == "RGB" and im.size == (32, 32)
    rgb = np.asarray(im, dtype=np.float64)
    grey = dicom_pixels(raw / split / f"{name}.dcm").astype(np.float64)
    assert grey.shape == (32, 32)
    luma = rgb @ np.array([0.299, 0.587, 0.114])
    assert abs(grey.mean() - luma.mean()) < 3, (grey.mean(), luma.mean())
    # the share of the image that is clearly darker than the skin around it
    return (luma < 0.8 * np.median(luma)).mean()

score = [darkness("train", n) for n in train["image_name"]]
[darkness("test", n) for n in test["image_name"]]
auc = roc_auc_score(train["target"], score)
print(f"auc={auc:.3f}")
assert auc > 0.8, auc
assert roc_auc_score(train["target"], np.zeros(len(train))) == 0.5
)py";

TEST(SiimIsicRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
