#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "base/csv.h"
#include "base/files.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// Upstream holds out 5000 images, so every raw download here has thousands
// of files: one is generated and shared by the tests.
const fs::path& Raw() {
  static const fs::path* raw = [] {
    absl::StatusOr<fs::path> generated = testing::GenerateSynthetic(kId, 0);
    EXPECT_TRUE(generated.ok()) << generated.status();
    return new fs::path(generated.ok() ? *generated : fs::path());
  }();
  return *raw;
}

// Upstream's prepare() restated with sklearn and Python's random.
constexpr char kReference[] = R"py(
import random, shutil, sys
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = map(Path, sys.argv[1:4])
covers = sorted((raw / "Cover").glob("*.jpg"))
train, test = train_test_split(covers, test_size=5000, random_state=42)
algs = ["JMiPOD", "JUNIWARD", "UERD"]
for d in ["Cover", "Test"] + algs:
    (public / d).mkdir()
for i, p in enumerate(train):
    shutil.copyfile(p, public / "Cover" / f"{i + 1:05d}.jpg")
    for a in algs:
        shutil.copyfile(raw / a / p.name, public / a / f"{i + 1:05d}.jpg")
random.seed(0)
random.shuffle(test)
rows = []
for i, p in enumerate(test):
    name = f"{i + 1:04d}.jpg"
    if random.choice([True, False]):
        shutil.copyfile(p, public / "Test" / name)
        rows.append({"Id": name, "Label": 0})
    else:
        shutil.copyfile(raw / random.choice(algs) / p.name, public / "Test" / name)
        rows.append({"Id": name, "Label": 1})
answers = pd.DataFrame(rows)
answers.to_csv(private / "test.csv", index=False)
answers["Label"] = 0
answers.to_csv(public / "sample_submission.csv", index=False)
)py";

TEST(Alaska2PrepareTest, MatchesPythonByteForByteDeterministicallyAndLeavesRawAlone) {
  const auto raw_before = testing::ReadTree(Raw());
  absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, Raw());
  ASSERT_TRUE(ours.ok()) << ours.status();
  const auto public_files = testing::ReadTree(ours->public_dir);
  const auto private_files = testing::ReadTree(ours->private_dir);

  // 40 train images in four folders, 5000 test images, two CSVs.
  std::map<std::string, int> per_folder;
  for (const auto& [name, bytes] : public_files) ++per_folder[name.substr(0, name.find('/'))];
  EXPECT_EQ(per_folder, (std::map<std::string, int>{{"Cover", 40}, {"JMiPOD", 40}, {"JUNIWARD", 40},
                                                     {"UERD", 40}, {"Test", 5000},
                                                     {"sample_submission.csv", 1}}));
  EXPECT_EQ(public_files.count("Cover/00040.jpg"), 1u);
  EXPECT_EQ(public_files.count("Test/5000.jpg"), 1u);
  const Table answers = testing::ReadCsvOrFail(ours->private_dir / "test.csv");
  EXPECT_EQ(answers.ColumnNames(), (std::vector<std::string>{"Id", "Label"}));
  ASSERT_EQ(answers.num_rows(), 5000u);
  int positives = 0;
  for (const Cell& label : answers.Find("Label")->cells) positives += std::get<int64_t>(label);
  EXPECT_GT(positives, 2300);
  EXPECT_LT(positives, 2700);
  EXPECT_THAT(public_files.at("sample_submission.csv"), ::testing::StartsWith("Id,Label\n0001.jpg,0\n"));

  const fs::path reference = testing::NewTempDir("reference");
  fs::create_directories(reference / "public");
  fs::create_directories(reference / "private");
  const testing::CommandResult run = testing::RunPython(
      kReference, {Raw().string(), (reference / "public").string(), (reference / "private").string()});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(public_files == testing::ReadTree(reference / "public"));
  EXPECT_TRUE(private_files == testing::ReadTree(reference / "private"));

  absl::StatusOr<testing::PreparedDirs> again = testing::RunPreparer(kId, Raw());
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(testing::ReadTree(again->public_dir) == public_files);
  EXPECT_TRUE(testing::ReadTree(again->private_dir) == private_files);
  EXPECT_TRUE(testing::ReadTree(Raw()) == raw_before);
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(Alaska2PrepareTest, RejectsBadRawData) {
  // No covers, and too few to hold out 5000.
  EXPECT_THAT(PrepareStatus(testing::NewTempDir("empty_raw")).message(), HasSubstr("Cover/"));
  const fs::path few = testing::NewTempDir("few");
  fs::create_directories(few / "Cover");
  for (int i = 0; i < 5000; ++i) {
    ASSERT_TRUE(WriteStringToFile(few / "Cover" / (std::to_string(10000 + i) + ".jpg"), "x").ok());
  }
  EXPECT_THAT(PrepareStatus(few).message(), HasSubstr("5000 images"));
  // One more cover makes the split possible; its stego versions are missing.
  ASSERT_TRUE(WriteStringToFile(few / "Cover" / "15000.jpg", "x").ok());
  EXPECT_THAT(PrepareStatus(few).message(), HasSubstr("JMiPOD"));
}

}  // namespace
}  // namespace mlebench::prepare_test
