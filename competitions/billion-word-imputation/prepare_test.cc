#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "formats/zip_archive.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// Kaggle's train_v2.txt: one sentence a line. These hold what upstream's
// text handling must get right: quotes (doubled in the CSVs), leading and
// trailing spaces, tabs and Unicode whitespace (U+3000, U+001C, which
// Python's strip() and split() remove), non-ASCII words, two-word lines
// (never test rows), "\r\n" and lone "\r" line endings (Python's universal
// newlines) and, at the end, a line without an ending.
std::string RawTrainText(int lines, uint64_t seed) {
  SyntheticRng rng(seed);
  const std::vector<std::string> words = {"the",  "a",    "dog",         "\"",           ",",
                                          ".",    "said", "caf\xc3\xa9", "\xe4\xb8\xad", "'s",
                                          "x\"y", "1,000"};
  const std::vector<std::string> gaps = {" ",    " ",       " ", " ", "  ", "\t", "\xe3\x80\x80",
                                         "\x1c", "\xc2\xa0"};
  const std::vector<std::string> endings = {"\n", "\n", "\n", "\n", "\r\n", "\r"};
  std::string text;
  for (int i = 0; i < lines; ++i) {
    if (rng.Bernoulli(0.1)) text += rng.Choice(gaps);
    const int n = rng.Bernoulli(0.1) ? 2 : static_cast<int>(rng.UniformInt(int64_t{1}, 12));
    for (int w = 0; w < n; ++w) text += (w == 0 ? "" : rng.Choice(gaps)) + rng.Choice(words);
    if (rng.Bernoulli(0.1)) text += rng.Choice(gaps);
    if (i + 1 < lines) text += rng.Choice(endings);
  }
  return text;
}

fs::path MakeRaw(const std::string &train_text) {
  const fs::path raw = testing::NewTempDir("raw");
  EXPECT_TRUE(
      WriteZip(raw / "train_v2.txt.zip", {ZipEntry::FromBytes("train_v2.txt", train_text)}).ok());
  EXPECT_TRUE(WriteZip(raw / "test_v2.txt.zip",
                       {ZipEntry::FromBytes("test_v2.txt", "\"id\",\"sentence\"\n1,\"a b\"\n")})
                  .ok());
  return raw;
}

// The files inside the public archives, extracted.
std::map<std::string, std::string> PublicFiles(const fs::path &public_dir) {
  const fs::path out = testing::NewTempDir("extracted");
  for (const char *zip : {"train_v2.txt.zip", "test_v2.txt.zip"}) {
    absl::StatusOr<std::vector<std::string>> names = ListZip(public_dir / zip);
    EXPECT_TRUE(names.ok()) << names.status();
    if (names.ok()) {
      EXPECT_EQ(names->size(), 1u);
    }
    EXPECT_TRUE(ExtractZip(public_dir / zip, out).ok()) << zip;
  }
  return testing::ReadTree(out);
}

TEST(BillionWordImputationPrepareTest, WritesUpstreamsFilesColumnsAndRows) {
  absl::StatusOr<testing::PreparedDirs> dirs =
      testing::RunPreparer(kId, MakeRaw(RawTrainText(5000, 1)));
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->public_dir),
              ElementsAre("test_v2.txt.zip", "train_v2.txt.zip"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir),
              ElementsAre("sample_submission.csv", "test.csv"));
  const std::map<std::string, std::string> files = PublicFiles(dirs->public_dir);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(testing::ReadTree(dirs->private_dir).at("sample_submission.csv"),
            files.at("test_v2.txt"));

  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->private_dir / "sample_submission.csv");
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("id", "sentence"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("id", "sentence"));
  ASSERT_EQ(answers.num_rows(), sample.num_rows());
  EXPECT_GT(answers.num_rows(), 20u);
  EXPECT_LT(answers.num_rows(), 90u);
  for (size_t i = 0; i < answers.num_rows(); ++i) {
    EXPECT_EQ(answers.Find("id")->cells[i], Cell(static_cast<int64_t>(i)));
    EXPECT_EQ(sample.Find("id")->cells[i], Cell(static_cast<int64_t>(i)));
    const std::string &full = std::get<std::string>(answers.Find("sentence")->cells[i]);
    const std::string &removed = std::get<std::string>(sample.Find("sentence")->cells[i]);
    EXPECT_LT(removed.size(), full.size());
  }
  // Every line is in train or test (the raw file's last line has no ending).
  const std::string &train = files.at("train_v2.txt");
  size_t train_lines = !train.empty() && train.back() != '\n';
  for (char c : train) train_lines += c == '\n';
  EXPECT_EQ(train_lines + answers.num_rows(), 5000u);
}

TEST(BillionWordImputationPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RawTrainText(800, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated in Python (the same RandomState draws,
// text-mode reading with universal newlines, hand-written CSV lines), writing
// the public files unzipped.
constexpr char kReference[] = R"py(
import shutil
import sys
import numpy as np

raw, public, private = sys.argv[1:4]
rng = np.random.RandomState(0)
tests = 0
with open(f"{raw}/train_v2.txt", encoding="utf-8") as source, \
     open(f"{public}/train_v2.txt", "w", encoding="utf-8") as train, \
     open(f"{public}/test_v2.txt", "w", encoding="utf-8") as test, \
     open(f"{private}/test.csv", "w", encoding="utf-8") as answers:
    for out in (test, answers):
        out.write('"id","sentence"\n')
    for line in source:
        if rng.uniform() <= 0.01 and len(line.strip().split()) > 2:
            full = line.strip().replace('"', '""')
            words = full.split()
            drop = rng.randint(1, len(words) - 1)
            answers.write(f'{tests},"{full}"\n')
            test.write(f'{tests},"{" ".join(words[:drop] + words[drop + 1:])}"\n')
            tests += 1
        else:
            train.write(line)
shutil.copy(f"{public}/test_v2.txt", f"{private}/sample_submission.csv")
)py";

TEST(BillionWordImputationPrepareTest, MatchesPythonByteForByte) {
  for (const auto &[lines, seed] :
       std::vector<std::pair<int, uint64_t>>{{1, 10}, {150, 11}, {40000, 12}}) {
    SCOPED_TRACE(lines);
    const std::string text = RawTrainText(lines, seed);
    const fs::path raw = MakeRaw(text);
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "raw");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    ASSERT_TRUE(WriteStringToFile(reference / "raw" / "train_v2.txt", text).ok());
    const testing::CommandResult run = testing::RunPython(
        kReference, {(reference / "raw").string(), (reference / "public").string(),
                     (reference / "private").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(PublicFiles(ours->public_dir), testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

TEST(BillionWordImputationPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(testing::RunPreparer(kId, testing::NewTempDir("empty_raw")).ok());
  // Not a zip.
  const fs::path not_zip = testing::NewTempDir("not_zip");
  ASSERT_TRUE(WriteStringToFile(not_zip / "train_v2.txt.zip", "hello").ok());
  EXPECT_FALSE(testing::RunPreparer(kId, not_zip).ok());
  // A zip without train_v2.txt.
  const fs::path wrong_entry = testing::NewTempDir("wrong_entry");
  ASSERT_TRUE(
      WriteZip(wrong_entry / "train_v2.txt.zip", {ZipEntry::FromBytes("other.txt", "a b c\n")})
          .ok());
  EXPECT_FALSE(testing::RunPreparer(kId, wrong_entry).ok());
  // Invalid UTF-8 (Python's decoder raises).
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw("a b c\n\xff\xfe d e\n")).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
