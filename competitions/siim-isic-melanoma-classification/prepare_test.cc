#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "formats/tfrecord.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;
constexpr int kShards = 16;

// Kaggle's layout: train.csv, train/<name>.dcm, jpeg/train/<name>.jpg and
// tfrecords/trainNN-<count>.tfrec, image i in shard i % 16. Cells of
// train.csv vary in type (missing sex/age/site) as in Kaggle's file.
fs::path MakeRaw(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  const fs::path raw = testing::NewTempDir("raw");
  fs::create_directories(raw / "train");
  fs::create_directories(raw / "jpeg/train");
  fs::create_directories(raw / "tfrecords");
  std::string csv =
      "image_name,patient_id,sex,age_approx,anatom_site_general_challenge,diagnosis,"
      "benign_malignant,target\n";
  std::vector<std::vector<std::string>> shard_records(kShards);
  for (int i = 0; i < count; ++i) {
    const std::string name = absl::StrFormat("ISIC_%07d", 1000 + i * 7);
    const bool malignant = rng.Bernoulli(0.2);
    const char* sexes[] = {"male", "female", ""};
    const char* sites[] = {"torso", "head/neck", "lower extremity", ""};
    csv += absl::StrCat(name, ",IP_", rng.UniformInt(100000), ",", sexes[rng.UniformInt(3)], ",",
                        rng.Bernoulli(0.1) ? "" : absl::StrCat(5 * rng.UniformInt(18), ".0"), ",",
                        sites[rng.UniformInt(4)], ",", malignant ? "melanoma" : "unknown", ",",
                        malignant ? "malignant" : "benign", ",", malignant ? 1 : 0, "\n");
    EXPECT_TRUE(WriteStringToFile(raw / "train" / (name + ".dcm"), "DICM" + name).ok());
    EXPECT_TRUE(WriteStringToFile(raw / "jpeg/train" / (name + ".jpg"), "JPEG" + name).ok());
    shard_records[i % kShards].push_back(
        SerializeExample({{"image_name", std::vector<std::string>{name}},
                          {"target", std::vector<int64_t>{malignant ? 1 : 0}}}));
  }
  for (int s = 0; s < kShards; ++s) {
    const std::string file = absl::StrFormat("train%02d-%d.tfrec", s, s == 15 ? 2061 : 2071);
    EXPECT_TRUE(WriteStringToFile(raw / "tfrecords" / file, WriteTfRecords(shard_records[s])).ok());
  }
  // Kaggle's test shards are not part of the split.
  EXPECT_TRUE(WriteStringToFile(raw / "tfrecords/test00-687.tfrec", WriteTfRecords({})).ok());
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", csv).ok());
  return raw;
}

TEST(SiimIsicPrepareTest, SplitsByShardAndMovesFiles) {
  const fs::path raw = MakeRaw(64, 1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_THAT(test.ColumnNames(), ElementsAre("image_name", "patient_id", "sex", "age_approx",
                                              "anatom_site_general_challenge"));
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("image_name", "target"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("image_name", "target"));
  // Shards 00 and 06 hold images 0, 16, 32, 48 and 6, 22, 38, 54.
  EXPECT_EQ(answers.num_rows(), 8u);
  EXPECT_EQ(train.num_rows(), 56u);
  std::vector<std::string> test_names;
  for (const Cell& c : answers.Find("image_name")->cells) test_names.push_back(std::get<std::string>(c));
  EXPECT_THAT(test_names, ElementsAre("ISIC_0001000", "ISIC_0001042", "ISIC_0001112", "ISIC_0001154",
                                      "ISIC_0001224", "ISIC_0001266", "ISIC_0001336", "ISIC_0001378"));
  for (const Cell& c : sample.Find("target")->cells) EXPECT_EQ(c, Cell(int64_t{0}));

  const auto files = testing::FileNames(dirs->public_dir);
  std::vector<std::string> shards;
  for (const std::string& f : files) {
    if (f.rfind("tfrecords/", 0) == 0) shards.push_back(f.substr(10));
  }
  EXPECT_THAT(shards, ElementsAre("test00-2071.tfrec", "test01-2071.tfrec", "train00-2071.tfrec",
                                  "train01-2071.tfrec", "train02-2071.tfrec", "train03-2071.tfrec",
                                  "train04-2071.tfrec", "train05-2071.tfrec", "train06-2071.tfrec",
                                  "train07-2071.tfrec", "train08-2071.tfrec", "train09-2071.tfrec",
                                  "train10-2071.tfrec", "train11-2071.tfrec", "train12-2071.tfrec",
                                  "train13-2061.tfrec"));
  const auto raw_tree = testing::ReadTree(raw);
  const auto public_tree = testing::ReadTree(dirs->public_dir);
  EXPECT_EQ(public_tree.at("tfrecords/test01-2071.tfrec"), raw_tree.at("tfrecords/train06-2071.tfrec"));
  EXPECT_EQ(public_tree.at("tfrecords/train05-2071.tfrec"), raw_tree.at("tfrecords/train07-2071.tfrec"));
  for (const std::string& name : test_names) {
    EXPECT_EQ(public_tree.at("test/" + name + ".dcm"), "DICM" + name);
    EXPECT_EQ(public_tree.at("jpeg/test/" + name + ".jpg"), "JPEG" + name);
    EXPECT_EQ(public_tree.count("train/" + name + ".dcm"), 0u);
  }
  EXPECT_EQ(public_tree.count("train/ISIC_0001007.dcm"), 1u);
  EXPECT_EQ(public_tree.count("jpeg/train/ISIC_0001007.jpg"), 1u);
  EXPECT_EQ(public_tree.size(), 3u + 16u + 2u * 64u);  // CSVs, shards, images
}

TEST(SiimIsicPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(40, 2);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// The CSV half of upstream's prepare() restated with pandas; the shard ids
// come from argv (no TensorFlow here): images i with i % 16 in {0, 6}.
constexpr char kReference[] = R"py(
import sys
import pandas as pd
raw, public, private, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
old_train = pd.read_csv(f"{raw}/train.csv")
test_ids = [old_train["image_name"][i] for i in range(n) if i % 16 in (0, 6)]
old_train["split"] = "train"
old_train.loc[old_train["image_name"].isin(test_ids), "split"] = "test"
new_train = old_train[old_train["split"] == "train"].drop(columns=["split"])
new_test = old_train[old_train["split"] == "test"].drop(columns=["split"])
new_test_without_labels = new_test.copy()[
    ["image_name", "patient_id", "sex", "age_approx", "anatom_site_general_challenge"]]
new_test = new_test[["image_name", "target"]]
sample_submission = new_test.copy()
sample_submission["target"] = 0
new_train.to_csv(f"{public}/train.csv", index=False)
new_test_without_labels.to_csv(f"{public}/test.csv", index=False)
sample_submission.to_csv(f"{public}/sample_submission.csv", index=False)
new_test.to_csv(f"{private}/test.csv", index=False)
)py";

TEST(SiimIsicPrepareTest, CsvFilesMatchPandasByteForByte) {
  for (const auto& [rows, seed] : std::vector<std::pair<int, uint64_t>>{{3, 10}, {17, 11}, {300, 12}}) {
    SCOPED_TRACE(rows);
    const fs::path raw = MakeRaw(rows, seed);
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const testing::CommandResult run = testing::RunPython(
        kReference, {raw.string(), (reference / "public").string(),
                     (reference / "private").string(), std::to_string(rows)});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    std::map<std::string, std::string> csvs;
    for (const auto& [name, bytes] : testing::ReadTree(ours->public_dir)) {
      if (name.find('/') == std::string::npos) csvs[name] = bytes;
    }
    EXPECT_EQ(csvs, testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(SiimIsicPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  // A test shard missing, or corrupt.
  fs::path raw = MakeRaw(20, 3);
  fs::remove(raw / "tfrecords/train06-2071.tfrec");
  EXPECT_FALSE(PrepareStatus(raw).ok());
  raw = MakeRaw(20, 3);
  ASSERT_TRUE(WriteStringToFile(raw / "tfrecords/train00-2071.tfrec", "not a tfrecord").ok());
  EXPECT_FALSE(PrepareStatus(raw).ok());
  // A record without an image_name.
  raw = MakeRaw(20, 3);
  ASSERT_TRUE(WriteStringToFile(raw / "tfrecords/train00-2071.tfrec",
                                WriteTfRecords({SerializeExample({{"target", std::vector<int64_t>{1}}})}))
                  .ok());
  EXPECT_FALSE(PrepareStatus(raw).ok());
  // An image listed but absent.
  raw = MakeRaw(20, 4);
  fs::remove(raw / "jpeg/train/ISIC_0001007.jpg");
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("ISIC_0001007.jpg"));
  raw = MakeRaw(20, 4);
  fs::remove(raw / "train/ISIC_0001000.dcm");  // a test image
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("ISIC_0001000.dcm"));
  // Other columns than Kaggle's.
  raw = MakeRaw(20, 5);
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", "image_name,target\nISIC_0001000,1\n").ok());
  EXPECT_FALSE(PrepareStatus(raw).ok());
  // A repeated image: one file for two rows, upstream's count check.
  raw = MakeRaw(20, 6);
  const std::string csv = *ReadFileToString(raw / "train.csv");
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv",
                                csv + "ISIC_0001007,IP_1,male,40.0,torso,unknown,benign,0\n").ok());
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("Train DICOM count mismatch"));
  // A shard name without a record count.
  raw = MakeRaw(20, 7);
  ASSERT_TRUE(WriteStringToFile(raw / "tfrecords/train99.tfrec", WriteTfRecords({})).ok());
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("no record count"));
  // Image names that are not plain file names never reach the file system.
  raw = MakeRaw(20, 8);
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv",
                                "image_name,patient_id,sex,age_approx,anatom_site_general_challenge,"
                                "diagnosis,benign_malignant,target\n../x,IP_1,male,40.0,torso,"
                                "unknown,benign,0\n").ok());
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("must name an image file"));
}

}  // namespace
}  // namespace mlebench::prepare_test
