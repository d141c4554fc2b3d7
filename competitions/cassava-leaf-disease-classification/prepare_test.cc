#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "formats/tfrecord.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Key;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

struct RawImage {
  std::string image_id;
  int64_t label;
  std::string bytes;
};

std::vector<RawImage> RandomImages(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<RawImage> images;
  for (int i = 0; i < count; ++i) {
    images.push_back(
        {absl::StrCat(1000000 + 37 * i, ".jpg"), rng.UniformInt(0, 4), "JPEG" + rng.Hex(20)});
  }
  return images;
}

std::string Record(const RawImage& image) {
  return SerializeExample({{"image", std::vector<std::string>{image.bytes}},
                           {"image_name", std::vector<std::string>{image.image_id}},
                           {"target", std::vector<int64_t>{image.label}}});
}

// Kaggle's layout: train.csv (rows in id order), train_images/<image_id>,
// label_num_to_disease_map.json and `files` TFRecord files
// train_tfrecords/ld_train<NN>-<count>.tfrec taking the images round-robin.
fs::path MakeRaw(const std::vector<RawImage>& images, int files) {
  const fs::path raw = testing::NewTempDir("raw");
  fs::create_directories(raw / "train_images");
  fs::create_directories(raw / "train_tfrecords");
  std::string csv = "image_id,label\n";
  std::vector<std::vector<std::string>> records(files);
  for (size_t i = 0; i < images.size(); ++i) {
    absl::StrAppend(&csv, images[i].image_id, ",", images[i].label, "\n");
    EXPECT_TRUE(WriteStringToFile(raw / "train_images" / images[i].image_id, images[i].bytes).ok());
    records[i % files].push_back(Record(images[i]));
  }
  for (int f = 0; f < files; ++f) {
    const std::string name =
        absl::StrCat("ld_train", f < 10 ? "0" : "", f, "-", records[f].size(), ".tfrec");
    EXPECT_TRUE(WriteStringToFile(raw / "train_tfrecords" / name, WriteTfRecords(records[f])).ok());
  }
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", csv).ok());
  EXPECT_TRUE(
      WriteStringToFile(raw / "label_num_to_disease_map.json", "{\"4\": \"Healthy\"}").ok());
  return raw;
}

TEST(CassavaPrepareTest, SplitsByTfRecordFile) {
  const std::vector<RawImage> images = RandomImages(50, 1);
  const fs::path raw = MakeRaw(images, 10);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::ReadTree(dirs->private_dir), ElementsAre(Key("test.csv")));
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  // 10 files of 5 records: one file (ceil(0.1 * 10)) is the test set.
  ASSERT_EQ(train.num_rows(), 45u);
  ASSERT_EQ(answers.num_rows(), 5u);
  ASSERT_EQ(sample.num_rows(), 5u);
  for (const Table* table : {&train, &answers, &sample}) {
    EXPECT_EQ(table->ColumnNames(), (std::vector<std::string>{"image_id", "label"}));
  }
  std::vector<std::string> names = testing::FileNames(dirs->public_dir);
  size_t train_images = 0, test_images = 0;
  std::vector<std::string> tfrecords;
  for (const std::string& name : names) {
    train_images += name.starts_with("train_images/");
    test_images += name.starts_with("test_images/");
    if (name.find("tfrecords/") != std::string::npos) tfrecords.push_back(name);
  }
  EXPECT_EQ(train_images, 45u);
  EXPECT_EQ(test_images, 5u);
  EXPECT_THAT(
      tfrecords,
      ElementsAre("test_tfrecords/ld_test00-5.tfrec", "train_tfrecords/ld_train00-5.tfrec",
                  "train_tfrecords/ld_train01-5.tfrec", "train_tfrecords/ld_train02-5.tfrec",
                  "train_tfrecords/ld_train03-5.tfrec", "train_tfrecords/ld_train04-5.tfrec",
                  "train_tfrecords/ld_train05-5.tfrec", "train_tfrecords/ld_train06-5.tfrec",
                  "train_tfrecords/ld_train07-5.tfrec", "train_tfrecords/ld_train08-5.tfrec"));
  // The test file's records are exactly the test rows, and every train/test
  // image is a byte copy.
  absl::StatusOr<std::vector<std::string>> records =
      ReadTfRecords(*ReadFileToString(dirs->public_dir / "test_tfrecords" / "ld_test00-5.tfrec"));
  ASSERT_TRUE(records.ok());
  for (size_t row = 0; row < 5; ++row) {
    const std::string id = std::get<std::string>(answers.columns()[0].cells[row]);
    EXPECT_EQ(*ExampleFirstBytesValue((*records)[row], "image_name"), id);
    EXPECT_EQ(std::get<int64_t>(sample.columns()[1].cells[row]), 4);
    EXPECT_TRUE(fs::exists(dirs->public_dir / "test_images" / id));
  }
  EXPECT_TRUE(fs::exists(dirs->public_dir / "label_num_to_disease_map.json"));
}

TEST(CassavaPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RandomImages(40, 2), 12);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas and scikit-learn, with an
// independent Python TFRecord reader in place of TensorFlow: every output
// file must match byte for byte.
constexpr char kReference[] = R"py(
import shutil, sys
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split
sys.path.insert(0, "competitions/cassava-leaf-disease-classification")
import tfrecord_reference as tfr

raw, public, private = map(Path, sys.argv[1:4])
files = [p for p in sorted((raw / "train_tfrecords").iterdir()) if p.is_file() and p.suffix == ".tfrec"]
train_files, test_files = train_test_split(files, test_size=0.1, random_state=0)
test_ids = [i for f in test_files for i in tfr.image_names(f)]
old = pd.read_csv(raw / "train.csv", float_precision="round_trip")
is_test = old["image_id"].isin(test_ids)
train, test = old[~is_test], old[is_test]
sample = test.copy()
sample["label"] = 4
train.to_csv(public / "train.csv", index=False)
test.to_csv(private / "test.csv", index=False)
sample.to_csv(public / "sample_submission.csv", index=False)
for folder, prefix, chosen in [("train_tfrecords", "ld_train", train_files), ("test_tfrecords", "ld_test", test_files)]:
    (public / folder).mkdir()
    for i, p in enumerate(chosen):
        shutil.copy(p, public / folder / f"{prefix}{i:02d}-{p.stem.split('-')[1]}.tfrec")
for folder, table in [("train_images", train), ("test_images", test)]:
    (public / folder).mkdir()
    for image_id in table["image_id"]:
        shutil.copy(raw / "train_images" / image_id, public / folder)
shutil.copy(raw / "label_num_to_disease_map.json", public / "label_num_to_disease_map.json")
)py";

void ExpectMatchesReference(const fs::path& raw) {
  absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(ours.ok()) << ours.status();
  const fs::path reference = testing::NewTempDir("reference");
  fs::create_directories(reference / "public");
  fs::create_directories(reference / "private");
  const testing::CommandResult run = testing::RunPython(
      kReference,
      {raw.string(), (reference / "public").string(), (reference / "private").string()});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(testing::ReadTree(ours->public_dir), testing::ReadTree(reference / "public"));
  EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
}

TEST(CassavaPrepareTest, MatchesPandasByteForByte) {
  ExpectMatchesReference(MakeRaw(RandomImages(2, 10), 2));
  ExpectMatchesReference(MakeRaw(RandomImages(30, 11), 7));
  ExpectMatchesReference(MakeRaw(RandomImages(300, 12), 105));  // three-digit file numbers
  // The synthetic download, with its uneven files and Kaggle's ids.
  absl::StatusOr<fs::path> synthetic = testing::GenerateSynthetic(kId, 3);
  ASSERT_TRUE(synthetic.ok()) << synthetic.status();
  ExpectMatchesReference(*synthetic);
  // Files that are not *.tfrec are ignored; rows whose image is in no
  // record stay in train.
  const std::vector<RawImage> images = RandomImages(20, 13);
  const fs::path raw = MakeRaw(images, 4);
  ASSERT_TRUE(WriteStringToFile(raw / "train_tfrecords" / "notes.txt", "x").ok());
  ASSERT_TRUE(WriteStringToFile(raw / "train_tfrecords" / ".tfrec", "x").ok());
  ASSERT_TRUE(WriteStringToFile(raw / "train_images" / "extra.jpg", "x").ok());
  ASSERT_TRUE(
      WriteStringToFile(raw / "train.csv", *ReadFileToString(raw / "train.csv") + "extra.jpg,2\n")
          .ok());
  ExpectMatchesReference(raw);
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(CassavaPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  // One TFRecord file cannot be split.
  EXPECT_FALSE(PrepareStatus(MakeRaw(RandomImages(5, 3), 1)).ok());
  // A missing image.
  const fs::path no_image = MakeRaw(RandomImages(10, 4), 3);
  fs::remove(no_image / "train_images" / RandomImages(10, 4)[0].image_id);
  EXPECT_THAT(PrepareStatus(no_image).message(), HasSubstr("does not exist"));
  // Extra columns in train.csv break upstream's column check.
  const std::vector<RawImage> images = RandomImages(10, 5);
  const fs::path extra_column = MakeRaw(images, 3);
  std::string csv = "image_id,label,x\n";
  for (const RawImage& image : images)
    absl::StrAppend(&csv, image.image_id, ",", image.label, ",1\n");
  ASSERT_TRUE(WriteStringToFile(extra_column / "train.csv", csv).ok());
  EXPECT_THAT(PrepareStatus(extra_column).message(), HasSubstr("['image_id', 'label']"));
  // A repeated id: fewer images copied than rows.
  const fs::path repeated = MakeRaw(images, 3);
  ASSERT_TRUE(
      WriteStringToFile(repeated / "train.csv", *ReadFileToString(repeated / "train.csv") +
                                                    absl::StrCat(images[1].image_id, ",0\n"))
          .ok());
  EXPECT_THAT(PrepareStatus(repeated).message(), HasSubstr("Mismatch in number"));
  // No label map.
  const fs::path no_map = MakeRaw(images, 3);
  fs::remove(no_map / "label_num_to_disease_map.json");
  EXPECT_FALSE(PrepareStatus(no_map).ok());
  // A file name without "-<count>".
  const fs::path bad_name = MakeRaw(images, 3);
  fs::rename(bad_name / "train_tfrecords" / "ld_train00-4.tfrec",
             bad_name / "train_tfrecords" / "ld_train00.tfrec");
  EXPECT_THAT(PrepareStatus(bad_name).message(), HasSubstr("IndexError"));
}

TEST(CassavaPrepareTest, RejectsDamagedTfRecords) {
  // Find the file that becomes the test set: only its records are read.
  const std::vector<RawImage> images = RandomImages(20, 6);
  const fs::path probe = MakeRaw(images, 10);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, probe);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const std::string test_bytes =
      *ReadFileToString(dirs->public_dir / "test_tfrecords" / "ld_test00-2.tfrec");
  std::string test_file;
  for (const std::string& name : testing::FileNames(probe / "train_tfrecords")) {
    if (*ReadFileToString(probe / "train_tfrecords" / name) == test_bytes) test_file = name;
  }
  ASSERT_FALSE(test_file.empty());

  const fs::path corrupt = MakeRaw(images, 10);
  std::string bytes = *ReadFileToString(corrupt / "train_tfrecords" / test_file);
  bytes[20] ^= 1;
  ASSERT_TRUE(WriteStringToFile(corrupt / "train_tfrecords" / test_file, bytes).ok());
  EXPECT_THAT(PrepareStatus(corrupt).message(), HasSubstr("corrupted record"));

  const fs::path truncated = MakeRaw(images, 10);
  ASSERT_TRUE(
      WriteStringToFile(truncated / "train_tfrecords" / test_file, bytes.substr(0, 30)).ok());
  EXPECT_THAT(PrepareStatus(truncated).message(), HasSubstr("truncated"));

  const fs::path no_name = MakeRaw(images, 10);
  ASSERT_TRUE(
      WriteStringToFile(no_name / "train_tfrecords" / test_file,
                        WriteTfRecords({SerializeExample({{"target", std::vector<int64_t>{1}}})}))
          .ok());
  EXPECT_THAT(PrepareStatus(no_name).message(), HasSubstr("image_name"));
}

}  // namespace
}  // namespace mlebench::prepare_test
