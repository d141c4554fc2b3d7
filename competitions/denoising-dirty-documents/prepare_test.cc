#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/csv.h"
#include "base/files.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "formats/zip_archive.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/png_writer.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

fs::path SyntheticRaw(uint64_t seed) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
  EXPECT_TRUE(raw.ok()) << raw.status();
  return raw.ok() ? *raw : fs::path();
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

std::set<std::string> Under(const std::vector<std::string>& files, const std::string& folder) {
  std::set<std::string> names;
  for (const std::string& file : files) {
    if (file.starts_with(folder + "/")) names.insert(file.substr(folder.size() + 1));
  }
  return names;
}

TEST(DenoisingPrepareTest, MovesAFifthOfThePagesToTest) {
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, SyntheticRaw(0));
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const std::vector<std::string> files = testing::FileNames(dirs->public_dir);
  const std::set<std::string> train = Under(files, "train");
  const std::set<std::string> test = Under(files, "test");
  EXPECT_EQ(train.size(), 24u);
  EXPECT_EQ(test.size(), 6u);  // ceil(0.2 * 30)
  EXPECT_EQ(Under(files, "train_cleaned"), train);
  for (const std::string& name : test) EXPECT_EQ(train.count(name), 0u) << name;
  EXPECT_EQ(files.size(), 24u + 6u + 24u + 1u);
  EXPECT_EQ(testing::FileNames(dirs->private_dir), std::vector<std::string>{"answers.csv"});

  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "answers.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sampleSubmission.csv");
  EXPECT_EQ(answers.ColumnNames(), (std::vector<std::string>{"id", "value"}));
  EXPECT_EQ(sample.ColumnNames(), (std::vector<std::string>{"id", "value"}));
  ASSERT_EQ(answers.num_rows(), 6u * 32 * 20);
  EXPECT_EQ(sample.Find("id")->cells, answers.Find("id")->cells);
  for (const Cell& value : sample.Find("value")->cells) EXPECT_EQ(std::get<int64_t>(value), 1);
  // Pixels run row by row: the first page's first row, then its second.
  const std::string first = *test.begin();
  const std::string stem = first.substr(0, first.size() - 4);
  EXPECT_EQ(std::get<std::string>(answers.Find("id")->cells[0]), stem + "_1_1");
  EXPECT_EQ(std::get<std::string>(answers.Find("id")->cells[32]), stem + "_2_1");
  for (const Cell& value : answers.Find("value")->cells) {
    EXPECT_GE(std::get<double>(value), 0.0);
    EXPECT_LE(std::get<double>(value), 1.0);
  }
}

TEST(DenoisingPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = SyntheticRaw(1);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas, scikit-learn and PIL.
constexpr char kReference[] = R"py(
import shutil, sys, zipfile
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
from sklearn.model_selection import train_test_split

raw, public, private = map(Path, sys.argv[1:4])
zipfile.ZipFile(raw / "train.zip").extractall(public)
paths = sorted((public / "train").glob("*.png"))
_, test = train_test_split(paths, test_size=0.2, random_state=0)
test = {p.name for p in test}
(public / "test").mkdir()
for p in (public / "train").glob("*.png"):
    if p.name in test:
        shutil.move(p, public / "test" / p.name)
zipfile.ZipFile(raw / "train_cleaned.zip").extractall(public)
(private / "cleaned").mkdir()
for p in (public / "train_cleaned").glob("*.png"):
    if p.name in test:
        shutil.move(p, private / "cleaned" / p.name)
ids, values = [], []
for p in sorted((private / "cleaned").glob("*.png")):
    a = np.array(Image.open(p).convert("L")) / 255.0
    for r in range(a.shape[0]):
        for c in range(a.shape[1]):
            ids.append(f"{p.stem}_{r + 1}_{c + 1}")
            values.append(a[r, c])
answers = pd.DataFrame({"id": ids, "value": values})
answers.to_csv(private / "answers.csv", index=False)
shutil.rmtree(private / "cleaned")
answers["value"] = 1
answers.to_csv(public / "sampleSubmission.csv", index=False)
)py";

// A raw download with RGB and odd-sized pages and names that sort as text.
fs::path OddRaw() {
  const fs::path raw = testing::NewTempDir("odd_raw");
  std::vector<ZipEntry> train, cleaned;
  for (int i = 0; i < 7; ++i) {
    const std::string name = std::to_string(i * 7 + 3) + (i == 6 ? ".b.png" : ".png");
    const int width = 3 + i, height = 2 + i % 3;
    PngImage page{width, height, i % 2 == 0 ? PngColor::kGray : PngColor::kRgb, {}};
    for (int p = 0; p < width * height * static_cast<int>(page.color); ++p) {
      page.pixels.push_back(static_cast<uint8_t>((p * 37 + i * 11) % 256));
    }
    absl::StatusOr<std::string> png = EncodePng(page);
    EXPECT_TRUE(png.ok());
    train.push_back(ZipEntry::FromBytes("train/" + name, *png));
    cleaned.push_back(ZipEntry::FromBytes("train_cleaned/" + name, *png));
  }
  train.push_back(ZipEntry::FromBytes("train/notes.txt", "not a page"));
  EXPECT_TRUE(WriteZip(raw / "train.zip", train).ok());
  EXPECT_TRUE(WriteZip(raw / "train_cleaned.zip", cleaned).ok());
  return raw;
}

TEST(DenoisingPrepareTest, OutputsMatchPythonByteForByte) {
  for (const fs::path& raw : {SyntheticRaw(2), SyntheticRaw(3), OddRaw()}) {
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const testing::CommandResult run = testing::RunPython(
        kReference, {raw.string(), (reference / "public").string(), (reference / "private").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(testing::ReadTree(ours->public_dir), testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

TEST(DenoisingPrepareTest, RejectsBadRawData) {
  EXPECT_THAT(PrepareStatus(testing::NewTempDir("empty_raw")).message(), HasSubstr("train.zip"));
  const fs::path no_cleaned = SyntheticRaw(4);
  fs::remove(no_cleaned / "train_cleaned.zip");
  EXPECT_THAT(PrepareStatus(no_cleaned).message(), HasSubstr("train_cleaned.zip"));
  const fs::path not_zip = testing::NewTempDir("not_zip");
  ASSERT_TRUE(WriteStringToFile(not_zip / "train.zip", "plain text").ok());
  EXPECT_FALSE(PrepareStatus(not_zip).ok());
  // Too few pages to split.
  const fs::path one_page = testing::NewTempDir("one_page");
  ASSERT_TRUE(WriteZip(one_page / "train.zip", {ZipEntry::FromBytes("train/1.png", "x")}).ok());
  EXPECT_FALSE(PrepareStatus(one_page).ok());
  // A clean page that is not a PNG.
  const fs::path broken = testing::NewTempDir("broken");
  std::vector<ZipEntry> pages, cleaned;
  for (int i = 1; i <= 5; ++i) {
    pages.push_back(ZipEntry::FromBytes("train/" + std::to_string(i) + ".png", "x"));
    cleaned.push_back(ZipEntry::FromBytes("train_cleaned/" + std::to_string(i) + ".png", "x"));
  }
  ASSERT_TRUE(WriteZip(broken / "train.zip", pages).ok());
  ASSERT_TRUE(WriteZip(broken / "train_cleaned.zip", cleaned).ok());
  EXPECT_THAT(PrepareStatus(broken).message(), HasSubstr("is not a PNG"));
}

}  // namespace
}  // namespace mlebench::prepare_test
