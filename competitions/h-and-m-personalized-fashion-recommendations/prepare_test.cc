#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/csv.h"
#include "base/files.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testdata/common/synthetic_test_util.h"

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
  for (const Cell& date : raw_tx.Find("t_dat")->cells) last_date = std::max(last_date, std::get<std::string>(date));
  size_t test_rows = 0;
  for (const Cell& date : raw_tx.Find("t_dat")->cells) {
    // Days 8 or more before the last one stay in train.
    test_rows += std::get<std::string>(date) >= "2020-09-15" ? 1 : 0;
  }
  ASSERT_EQ(last_date, "2020-09-22");  // day 83 from 2020-07-01
  EXPECT_EQ(train.num_rows() + test_rows, raw_tx.num_rows());
  for (const Cell& date : train.Find("t_dat")->cells) EXPECT_LT(std::get<std::string>(date), "2020-09-15");
  size_t answered = 0;
  std::string previous;
  for (size_t row = 0; row < answers.num_rows(); ++row) {
    const std::string id = std::get<std::string>(answers.Find("customer_id")->cells[row]);
    EXPECT_LT(previous, id);
    previous = id;
    const Cell& prediction = answers.Find("prediction")->cells[row];
    answered += std::holds_alternative<std::string>(prediction)
                    ? std::count(std::get<std::string>(prediction).begin(),
                                 std::get<std::string>(prediction).end(), ' ') + 1
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
        kReference, {raw.string(), (reference / "public").string(), (reference / "private").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(testing::ReadTree(ours->public_dir), testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
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
    ASSERT_TRUE(WriteStringToFile(bad_date / "transactions_train.csv",
                                  "t_dat,customer_id,article_id,price,sales_channel_id\n" + date +
                                      ",a,1,0.5,1\n")
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
