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
#include "formats/npy.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Key;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;
constexpr int kFeatures = 6;

// A '<U2' array of class numbers as text, as Kaggle's train_label_11.npy.
NpyArray TextLabels(const std::vector<int>& classes) {
  NpyArray labels{"<U2", false, {static_cast<int64_t>(classes.size())}, ""};
  for (int c : classes) {
    const std::string text = std::to_string(c);
    for (size_t k = 0; k < 2; ++k) {
      labels.data += k < text.size() ? text[k] : '\0';
      labels.data.append(3, '\0');
    }
  }
  return labels;
}

NpyArray Features(int rows, SyntheticRng& rng) {
  NpyArray features{"<f4", false, {rows, kFeatures}, ""};
  for (int i = 0; i < rows * kFeatures; ++i) {
    const float value = static_cast<float>(rng.Normal());
    features.data.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  return features;
}

// Kaggle's layout: timit_11/timit_11/{train_11,train_label_11,test_11}.npy.
fs::path MakeRaw(int train_rows, int test_rows, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<int> classes;
  for (int i = 0; i < train_rows; ++i) classes.push_back(static_cast<int>(rng.UniformInt(39)));
  const fs::path raw = testing::NewTempDir("raw");
  const fs::path dir = raw / "timit_11" / "timit_11";
  fs::create_directories(dir);
  EXPECT_TRUE(WriteNpyFile(Features(train_rows, rng), dir / "train_11.npy").ok());
  EXPECT_TRUE(WriteNpyFile(TextLabels(classes), dir / "train_label_11.npy").ok());
  EXPECT_TRUE(WriteNpyFile(Features(test_rows, rng), dir / "test_11.npy").ok());
  return raw;
}

TEST(Ml2021SpringHw2PrepareTest, SplitsFramesAndWritesAnswers) {
  const fs::path raw = MakeRaw(100, 37, 1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::ReadTree(dirs->private_dir), ElementsAre(Key("answers.csv")));
  EXPECT_THAT(
      testing::FileNames(dirs->public_dir),
      ElementsAre("sampleSubmission.csv", "timit_11/timit_11/test_11.npy",
                  "timit_11/timit_11/train_11.npy", "timit_11/timit_11/train_label_11.npy"));
  // test_size = 37 / 137 of 100 rows: ceil(27.0...) = 28 test rows.
  const fs::path timit = dirs->public_dir / "timit_11" / "timit_11";
  absl::StatusOr<NpyArray> train = ReadNpyFile(timit / "train_11.npy");
  absl::StatusOr<NpyArray> labels = ReadNpyFile(timit / "train_label_11.npy");
  absl::StatusOr<NpyArray> test = ReadNpyFile(timit / "test_11.npy");
  ASSERT_TRUE(train.ok() && labels.ok() && test.ok());
  EXPECT_EQ(train->shape, (std::vector<int64_t>{72, kFeatures}));
  EXPECT_EQ(labels->shape, (std::vector<int64_t>{72}));
  EXPECT_EQ(labels->descr, "<U2");
  EXPECT_EQ(test->shape, (std::vector<int64_t>{28, kFeatures}));
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "answers.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sampleSubmission.csv");
  EXPECT_EQ(answers.ColumnNames(), (std::vector<std::string>{"Id", "ClassId"}));
  EXPECT_EQ(sample.ColumnNames(), (std::vector<std::string>{"Id", "ClassId"}));
  ASSERT_EQ(answers.num_rows(), 28u);
  ASSERT_EQ(sample.num_rows(), 28u);
  for (size_t row = 0; row < 28; ++row) {
    EXPECT_EQ(std::get<int64_t>(answers.columns()[0].cells[row]), static_cast<int64_t>(row));
    const int64_t label = std::get<int64_t>(answers.columns()[1].cells[row]);
    EXPECT_TRUE(label >= 0 && label < 39);
    EXPECT_EQ(std::get<int64_t>(sample.columns()[1].cells[row]), 0);
  }
}

TEST(Ml2021SpringHw2PrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(50, 20, 2);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with numpy, pandas and scikit-learn: every
// output, .npy files included, must match byte for byte.
constexpr char kReference[] = R"py(
import os, sys
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = sys.argv[1:4]
d = f"{raw}/timit_11/timit_11"
x, y, t = np.load(f"{d}/train_11.npy"), np.load(f"{d}/train_label_11.npy"), np.load(f"{d}/test_11.npy")
tr, te = train_test_split(range(len(x)), test_size=len(t) / (len(x) + len(t)), random_state=0)
answers = pd.DataFrame({"Id": range(len(te)), "ClassId": y[te]})
sample = answers.copy()
sample["ClassId"] = 0
os.makedirs(f"{public}/timit_11/timit_11")
np.save(f"{public}/timit_11/timit_11/train_11.npy", x[tr])
np.save(f"{public}/timit_11/timit_11/train_label_11.npy", y[tr])
np.save(f"{public}/timit_11/timit_11/test_11.npy", x[te])
sample.to_csv(f"{public}/sampleSubmission.csv", index=False)
answers.to_csv(f"{private}/answers.csv", index=False)
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

TEST(Ml2021SpringHw2PrepareTest, MatchesNumpyAndPandasByteForByte) {
  for (const auto& [train, test, seed] :
       std::vector<std::tuple<int, int, uint64_t>>{{2, 1, 10}, {9, 3, 11}, {400, 147, 12}}) {
    SCOPED_TRACE(absl::StrCat(train, " ", test));
    ExpectMatchesReference(MakeRaw(train, test, seed));
  }
  // Integer labels (an int64 answers column) and one-dimensional features.
  const fs::path raw = MakeRaw(30, 10, 13);
  const fs::path dir = raw / "timit_11" / "timit_11";
  NpyArray labels{"<i8", false, {30}, ""};
  NpyArray flat{"|u1", false, {30}, ""};
  for (int i = 0; i < 30; ++i) {
    const int64_t label = (i * 7) % 39 - 2;
    labels.data.append(reinterpret_cast<const char*>(&label), sizeof label);
    flat.data.push_back(static_cast<char>(i));
  }
  ASSERT_TRUE(WriteNpyFile(labels, dir / "train_label_11.npy").ok());
  ASSERT_TRUE(WriteNpyFile(flat, dir / "train_11.npy").ok());
  ExpectMatchesReference(raw);
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(Ml2021SpringHw2PrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  const fs::path dir_parts[] = {"train_11.npy", "train_label_11.npy", "test_11.npy"};
  for (const fs::path& name : dir_parts) {
    const fs::path raw = MakeRaw(20, 5, 3);
    fs::remove(raw / "timit_11" / "timit_11" / name);
    EXPECT_FALSE(PrepareStatus(raw).ok()) << name;
    ASSERT_TRUE(WriteStringToFile(raw / "timit_11" / "timit_11" / name, "not npy").ok());
    EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("magic string")) << name;
  }
  // Fewer labels than frames: numpy's IndexError.
  const fs::path short_labels = MakeRaw(20, 5, 4);
  ASSERT_TRUE(WriteNpyFile(TextLabels({1, 2, 3}),
                           short_labels / "timit_11" / "timit_11" / "train_label_11.npy")
                  .ok());
  EXPECT_THAT(PrepareStatus(short_labels).message(), HasSubstr("out of bounds"));
  // No test frames: test_size 0.0, which scikit-learn rejects.
  EXPECT_FALSE(PrepareStatus(MakeRaw(20, 0, 5)).ok());
  // A single training frame cannot be split.
  EXPECT_FALSE(PrepareStatus(MakeRaw(1, 5, 6)).ok());
  // Labels of a dtype pandas would format differently (float32).
  const fs::path float_labels = MakeRaw(20, 5, 7);
  ASSERT_TRUE(WriteNpyFile(NpyArray{"<f4", false, {20}, std::string(80, '\0')},
                           float_labels / "timit_11" / "timit_11" / "train_label_11.npy")
                  .ok());
  EXPECT_THAT(PrepareStatus(float_labels).message(), HasSubstr("not supported"));
}

}  // namespace
}  // namespace mlebench::prepare_test
