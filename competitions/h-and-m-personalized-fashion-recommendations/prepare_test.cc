#include <chrono>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
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

fs::path SyntheticRaw(uint64_t seed) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
  EXPECT_TRUE(raw.ok()) << raw.status();
  return raw.ok() ? *raw : fs::path();
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(HAndMPrepareTest, SplitsOffTheLastWeek) {
  const fs::path raw = SyntheticRaw(0);
  const Table raw_tx = testing::ReadCsvOrFail(raw / "transactions_train.csv");
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "transactions_train.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "answers.csv");
  EXPECT_EQ(train.ColumnNames(), raw_tx.ColumnNames());
  EXPECT_EQ(answers.ColumnNames(), (std::vector<std::string>{"customer_id", "prediction"}));
  // Synthetic dates are ISO text, so they compare as text.
  std::string last_date;
  for (const Cell& date : raw_tx.Find("t_dat")->cells) {
    last_date = std::max(last_date, std::get<std::string>(date));
  }
  size_t test_rows = 0;
  for (const Cell& date : raw_tx.Find("t_dat")->cells) {
    // Days 8 or more before the last one stay in train.
    test_rows += std::get<std::string>(date) >= "2020-09-15" ? 1 : 0;
  }
  ASSERT_EQ(last_date, "2020-09-22");  // day 83 from 2020-07-01
  EXPECT_EQ(train.num_rows() + test_rows, raw_tx.num_rows());
  for (const Cell& date : train.Find("t_dat")->cells) {
    EXPECT_LT(std::get<std::string>(date), "2020-09-15");
  }
  size_t answered = 0;
  std::string previous;
  for (size_t row = 0; row < answers.num_rows(); ++row) {
    const std::string id = std::get<std::string>(answers.Find("customer_id")->cells[row]);
    EXPECT_LT(previous, id);
    previous = id;
    const Cell& prediction = answers.Find("prediction")->cells[row];
    answered += std::holds_alternative<std::string>(prediction)
                    ? std::count(std::get<std::string>(prediction).begin(),
                                 std::get<std::string>(prediction).end(), ' ') +
                          1
                    : 1;
  }
  EXPECT_EQ(answered, test_rows);
  // Kaggle's other files are copied unchanged.
  std::map<std::string, std::string> raw_files = testing::ReadTree(raw);
  std::map<std::string, std::string> public_files = testing::ReadTree(dirs->public_dir);
  raw_files.erase("transactions_train.csv");
  public_files.erase("transactions_train.csv");
  EXPECT_EQ(public_files, raw_files);
  EXPECT_EQ(testing::FileNames(dirs->private_dir), std::vector<std::string>{"answers.csv"});
}

TEST(HAndMPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = SyntheticRaw(1);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas.
constexpr char kReference[] = R"py(
import shutil, sys
from pathlib import Path
import pandas as pd

raw, public, private = map(Path, sys.argv[1:4])
tx = pd.read_csv(raw / "transactions_train.csv", float_precision="round_trip")
dates = pd.to_datetime(tx["t_dat"])
test = dates >= dates.max() - pd.Timedelta(days=7)
answers = (tx[test].groupby("customer_id")["article_id"]
           .apply(lambda x: " ".join(x.astype(str))).reset_index()
           .rename(columns={"article_id": "prediction"}))
answers.to_csv(private / "answers.csv", index=False)
tx[~test].to_csv(public / "transactions_train.csv", index=False)
for name in ["sample_submission.csv", "articles.csv", "customers.csv"]:
    shutil.copyfile(raw / name, public / name)
shutil.copytree(raw / "images", public / "images", dirs_exist_ok=True)
)py";

TEST(HAndMPrepareTest, OutputsMatchPandasByteForByte) {
  const fs::path tiny = testing::NewTempDir("tiny");
  // Numeric customer ids, one missing id (groupby drops it), dates out of
  // order, a one-article week.
  ASSERT_TRUE(WriteStringToFile(tiny / "transactions_train.csv",
                                "t_dat,customer_id,article_id,price,sales_channel_id\n"
                                "2020-01-20,7,11,0.5,1\n2020-01-01,3,12,0.25,2\n"
                                "2020-01-13,30,13,0.1,1\n2020-01-12,7,14,0.3,1\n"
                                "2020-01-19,3,15,0.2,2\n2020-01-19,,16,0.2,2\n")
                  .ok());
  for (const char* name : {"sample_submission.csv", "articles.csv", "customers.csv"}) {
    ASSERT_TRUE(WriteStringToFile(tiny / name, "a\n1\n").ok());
  }
  fs::create_directories(tiny / "images");
  for (const fs::path& raw : {SyntheticRaw(2), SyntheticRaw(3), tiny}) {
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
}

// A raw directory whose transactions_train.csv is `transactions`.
fs::path RawWith(const std::string& transactions) {
  const fs::path raw = testing::NewTempDir("raw");
  EXPECT_TRUE(WriteStringToFile(raw / "transactions_train.csv", transactions).ok());
  for (const char* name : {"sample_submission.csv", "articles.csv", "customers.csv"}) {
    EXPECT_TRUE(WriteStringToFile(raw / name, "a\n1\n").ok());
  }
  fs::create_directories(raw / "images");
  return raw;
}

// Whether two directories hold the same files with the same bytes; names the
// files that differ (the files are too large to print).
::testing::AssertionResult SameFiles(const fs::path& a, const fs::path& b) {
  const std::map<std::string, std::string> files_a = testing::ReadTree(a);
  const std::map<std::string, std::string> files_b = testing::ReadTree(b);
  std::string differ;
  for (const auto& [name, bytes] : files_a) {
    if (!files_b.contains(name) || files_b.at(name) != bytes) absl::StrAppend(&differ, " ", name);
  }
  for (const auto& [name, bytes] : files_b) {
    if (!files_a.contains(name)) absl::StrAppend(&differ, " ", name);
  }
  if (differ.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "files differ:" << differ;
}

// A plain transactions_train.csv is streamed a segment of 2**19 rows at a
// time; one quoted field (the same value) makes the preparer read the whole
// file instead. Both must write the same bytes over several segments, with
// test-period rows in each (dates out of order) and customers' purchases in
// both; and a column whose last segment differs (an article id with a
// fraction, so every article id is a float) falls back to the whole file.
TEST(HAndMPrepareTest, StreamedAndWholeFileReadsAgree) {
  const size_t rows = (size_t{1} << 19) + 40'000;
  std::string plain = "t_dat,customer_id,article_id,price,sales_channel_id\n";
  const std::chrono::sys_days first_day = std::chrono::sys_days(std::chrono::year_month_day(
      std::chrono::year(2020), std::chrono::month(1), std::chrono::day(1)));
  for (size_t r = 0; r < rows; ++r) {
    const std::chrono::year_month_day date(first_day + std::chrono::days((r * 7919) % 90));
    absl::StrAppend(
        &plain,
        absl::StrFormat("%04d-%02u-%02u", static_cast<int>(date.year()),
                        static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day())),
        ",", absl::StrFormat("%016x", (r * 2654435761u) % 20'000), ",0",
        108775000 + (r * 31) % 3000, ",", 0.001 * static_cast<double>(r % 97), ",", 1 + r % 2,
        "\n");
  }
  const size_t second_row = plain.find('\n') + 1;
  const size_t id_begin = plain.find(',', second_row) + 1;
  const size_t id_end = plain.find(',', id_begin);
  std::string quoted = plain;
  quoted.insert(id_end, "\"");
  quoted.insert(id_begin, "\"");
  // The last row's article id gets a fraction.
  std::string fraction = plain;
  size_t comma = fraction.rfind('\n', fraction.size() - 2) + 1;
  for (int field = 0; field < 3; ++field) comma = fraction.find(',', comma) + 1;
  fraction.insert(comma - 1, ".5");
  for (const auto& [streamed, read_whole] :
       {std::pair{plain, quoted}, std::pair{fraction, std::string()}}) {
    absl::StatusOr<testing::PreparedDirs> a = testing::RunPreparer(kId, RawWith(streamed));
    ASSERT_TRUE(a.ok()) << a.status();
    const std::string answers = *ReadFileToString(a->private_dir / "answers.csv");
    EXPECT_GT(answers.size(), 50'000u);
    if (read_whole.empty()) {
      // Every article id is written as a float, the first segment's too.
      const std::string train = *ReadFileToString(a->public_dir / "transactions_train.csv");
      const size_t first = train.find('\n') + 1;
      const std::string first_row = train.substr(first, train.find('\n', first) - first);
      EXPECT_THAT(first_row, ::testing::MatchesRegex("[^,]*,[^,]*,[0-9]+\\.0,.*")) << first_row;
      continue;
    }
    absl::StatusOr<testing::PreparedDirs> b = testing::RunPreparer(kId, RawWith(read_whole));
    ASSERT_TRUE(b.ok()) << b.status();
    EXPECT_TRUE(SameFiles(a->public_dir, b->public_dir));
    EXPECT_TRUE(SameFiles(a->private_dir, b->private_dir));
  }
}

TEST(HAndMPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  const fs::path no_images = SyntheticRaw(4);
  fs::remove_all(no_images / "images");
  EXPECT_THAT(PrepareStatus(no_images).message(), HasSubstr("images"));
  const fs::path no_articles = SyntheticRaw(4);
  fs::remove(no_articles / "articles.csv");
  EXPECT_THAT(PrepareStatus(no_articles).message(), HasSubstr("articles.csv"));

  const fs::path bad_columns = testing::NewTempDir("bad_columns");
  ASSERT_TRUE(WriteStringToFile(bad_columns / "transactions_train.csv",
                                "t_dat,customer_id,article_id,price\n2020-01-01,a,1,0.5\n")
                  .ok());
  EXPECT_THAT(PrepareStatus(bad_columns).message(), HasSubstr("Unexpected columns"));
  for (const std::string date : {"2020-02-30", "20200101", "", "2020-1-01"}) {
    const fs::path bad_date = testing::NewTempDir("bad_date");
    ASSERT_TRUE(WriteStringToFile(
                    bad_date / "transactions_train.csv",
                    "t_dat,customer_id,article_id,price,sales_channel_id\n" + date + ",a,1,0.5,1\n")
                    .ok());
    EXPECT_THAT(PrepareStatus(bad_date).message(), HasSubstr("YYYY-MM-DD")) << date;
  }
  const fs::path mixed_ids = testing::NewTempDir("mixed_ids");
  ASSERT_TRUE(WriteStringToFile(mixed_ids / "transactions_train.csv",
                                "t_dat,customer_id,article_id,price,sales_channel_id\n"
                                "2020-01-01,a,1,0.5,1\n2020-01-01,true,1,0.5,1\n")
                  .ok());
  EXPECT_FALSE(PrepareStatus(mixed_ids).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
