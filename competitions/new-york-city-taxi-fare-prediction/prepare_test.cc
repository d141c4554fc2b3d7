#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "competitions/common/preparer.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pycompat/train_test_split.h"
#include "synthetic/csv_text.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;
constexpr char kCoupons[] = "GCP-Coupons-Instructions.rtf";
constexpr char kHeader[] =
    "key,fare_amount,pickup_datetime,pickup_longitude,pickup_latitude,dropoff_longitude,"
    "dropoff_latitude,passenger_count";

// A raw train.csv shaped like Kaggle's: text keys (one in a while needing
// quotes), fares with cents, coordinates with up to 6 decimals, some zero
// or missing, integer passenger counts.
std::string RawTrainCsv(int rows, uint64_t seed) {
  SyntheticRng rng(seed);
  CsvTextBuilder csv;
  csv.Row({"key", "fare_amount", "pickup_datetime", "pickup_longitude", "pickup_latitude",
           "dropoff_longitude", "dropoff_latitude", "passenger_count"});
  for (int i = 0; i < rows; ++i) {
    const std::string time = absl::StrFormat(
        "20%02d-%02d-%02d %02d:%02d:%02d", rng.UniformInt(9, 15), rng.UniformInt(1, 12),
        rng.UniformInt(1, 28), rng.UniformInt(0, 23), rng.UniformInt(0, 59), rng.UniformInt(0, 59));
    csv.String(rng.Bernoulli(0.01) ? absl::StrFormat("%s,\"%d\"", time, i)
                                   : absl::StrFormat("%s.%07d", time, i + 1));
    csv.Float(std::round(rng.Uniform(2.5, 60.0) * 10) / 10);
    csv.String(time + " UTC");
    for (double center : {-73.98, 40.75, -73.97, 40.76}) {
      if (rng.Bernoulli(0.01)) {
        csv.Missing();
      } else {
        csv.Float(rng.Bernoulli(0.02) ? 0.0
                                      : std::round((center + rng.Normal(0, 0.03)) * 1e6) / 1e6);
      }
    }
    csv.Int(rng.UniformInt(0, 6)).EndRow();
  }
  return csv.text();
}

fs::path MakeRaw(const std::string& train_csv, bool with_coupons = true) {
  const fs::path raw = testing::NewTempDir("raw");
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", train_csv).ok());
  if (with_coupons) {
    EXPECT_TRUE(WriteStringToFile(raw / kCoupons, "{\\rtf1\\ansi coupons}\n").ok());
  }
  return raw;
}

std::vector<Cell> Cells(const Table& table, const std::string& column) {
  const Column* c = table.Find(column);
  EXPECT_NE(c, nullptr) << column;
  return c == nullptr ? std::vector<Cell>{} : c->cells;
}

TEST(NycTaxiFarePrepareTest, WritesUpstreamsFilesAndColumns) {
  const fs::path raw = MakeRaw(RawTrainCsv(10'500, 1));
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->public_dir),
              ElementsAre(kCoupons, "labels.csv", "sample_submission.csv", "test.csv"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));
  EXPECT_EQ(testing::ReadTree(dirs->public_dir).at(kCoupons), testing::ReadTree(raw).at(kCoupons));

  const Table labels = testing::ReadCsvOrFail(dirs->public_dir / "labels.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_EQ(absl::StrJoin(labels.ColumnNames(), ","), kHeader);
  EXPECT_EQ(absl::StrJoin(answers.ColumnNames(), ","), kHeader);
  EXPECT_THAT(test.ColumnNames(),
              ElementsAre("key", "pickup_datetime", "pickup_longitude", "pickup_latitude",
                          "dropoff_longitude", "dropoff_latitude", "passenger_count"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("key", "fare_amount"));
  EXPECT_EQ(answers.num_rows(), 9914u);
  EXPECT_EQ(test.num_rows(), 9914u);
  EXPECT_EQ(sample.num_rows(), 9914u);
  EXPECT_EQ(labels.num_rows(), 10'500u - 9914u);
  for (const Cell& fare : Cells(sample, "fare_amount")) EXPECT_EQ(fare, Cell(11.35));
  EXPECT_EQ(Cells(sample, "key"), Cells(answers, "key"));
  EXPECT_EQ(Cells(test, "key"), Cells(answers, "key"));
}

TEST(NycTaxiFarePrepareTest, RowsComeInTrainTestSplitOrder) {
  const int rows = 11'000;
  const fs::path raw = MakeRaw(RawTrainCsv(rows, 2));
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  TrainTestSplitOptions options;
  options.test_size = int64_t{9914};
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(rows, options);
  ASSERT_TRUE(split.ok());
  const std::vector<Cell> keys = Cells(testing::ReadCsvOrFail(raw / "train.csv"), "key");
  const std::vector<Cell> train_keys = Cells(testing::ReadCsvOrFail(dirs->public_dir / "labels.csv"), "key");
  const std::vector<Cell> test_keys = Cells(testing::ReadCsvOrFail(dirs->private_dir / "test.csv"), "key");
  ASSERT_EQ(train_keys.size(), split->train_indices.size());
  ASSERT_EQ(test_keys.size(), split->test_indices.size());
  for (size_t i = 0; i < train_keys.size(); ++i) {
    EXPECT_EQ(train_keys[i], keys[split->train_indices[i]]);
  }
  for (size_t i = 0; i < test_keys.size(); ++i) {
    EXPECT_EQ(test_keys[i], keys[split->test_indices[i]]);
  }
  std::set<Cell> train_set(train_keys.begin(), train_keys.end());
  for (const Cell& key : test_keys) EXPECT_EQ(train_set.count(key), 0u);
}

TEST(NycTaxiFarePrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RawTrainCsv(10'000, 3));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas and scikit-learn.
constexpr char kReference[] = R"py(
import shutil, sys
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = sys.argv[1:4]
old_train = pd.read_csv(f"{raw}/train.csv", float_precision="round_trip")
new_train, new_test = train_test_split(old_train, test_size=9914, random_state=0)
submission = new_test.copy()[["key"]]
submission["fare_amount"] = 11.35
new_train.to_csv(f"{public}/labels.csv", index=False)
new_test.drop(columns=["fare_amount"]).to_csv(f"{public}/test.csv", index=False)
submission.to_csv(f"{public}/sample_submission.csv", index=False)
new_test.to_csv(f"{private}/test.csv", index=False)
shutil.copy(f"{raw}/GCP-Coupons-Instructions.rtf", f"{public}/GCP-Coupons-Instructions.rtf")
)py";

TEST(NycTaxiFarePrepareTest, MatchesPandasByteForByte) {
  for (const auto& [rows, seed] : std::vector<std::pair<int, uint64_t>>{{9915, 10}, {12'345, 11}}) {
    SCOPED_TRACE(rows);
    const fs::path raw = MakeRaw(RawTrainCsv(rows, seed));
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

// A train.csv without quotes is streamed a segment of 2**19 rows at a time;
// one quoted field (the same value) makes the preparer read the whole file
// instead. Both must write the same bytes, over several segments, with a
// column whose segments differ (an int column with one float) or not.
TEST(NycTaxiFarePrepareTest, StreamedAndWholeFileReadsAgree) {
  std::string plain;
  for (absl::string_view line : absl::StrSplit(RawTrainCsv((1 << 19) + 30'000, 12), '\n')) {
    if (!line.empty() && line.find('"') == absl::string_view::npos) {
      absl::StrAppend(&plain, line, "\n");
    }
  }
  const size_t second_row = plain.find('\n') + 1;
  const std::string quoted = plain.substr(0, second_row) + "\"" + plain.substr(second_row);
  const size_t end_of_key = quoted.find(',', second_row);
  const std::string whole = quoted.substr(0, end_of_key) + "\"" + quoted.substr(end_of_key);
  std::string float_passengers = plain;
  float_passengers.replace(float_passengers.rfind(',') + 1, std::string::npos, "1.5\n");
  for (const auto& [streamed, read_whole] :
       {std::pair{plain, whole}, std::pair{float_passengers, std::string()}}) {
    absl::StatusOr<testing::PreparedDirs> a = testing::RunPreparer(kId, MakeRaw(streamed));
    ASSERT_TRUE(a.ok()) << a.status();
    if (read_whole.empty()) {
      // The float in the last segment makes passenger_count float64 in every
      // row, the first segment's too (as pandas' chunked read does).
      const std::string answers = *ReadFileToString(a->private_dir / "test.csv");
      int rows = 0;
      for (absl::string_view line : absl::StrSplit(answers, '\n')) {
        if (line.empty() || line == answers.substr(0, answers.find('\n'))) continue;
        ++rows;
        EXPECT_NE(line.substr(line.rfind(',')).find('.'), absl::string_view::npos) << line;
      }
      EXPECT_EQ(rows, 9914);
      continue;
    }
    absl::StatusOr<testing::PreparedDirs> b = testing::RunPreparer(kId, MakeRaw(read_whole));
    ASSERT_TRUE(b.ok()) << b.status();
    EXPECT_EQ(testing::ReadTree(a->public_dir), testing::ReadTree(b->public_dir));
    EXPECT_EQ(testing::ReadTree(a->private_dir), testing::ReadTree(b->private_dir));
  }
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(NycTaxiFarePrepareTest, RunsUpstreamsChecks) {
  // One more column than Kaggle's.
  std::string extra_column;
  for (absl::string_view line : absl::StrSplit(RawTrainCsv(10'000, 4), '\n')) {
    if (!line.empty()) absl::StrAppend(&extra_column, line, line[0] == 'k' ? ",note\n" : ",x\n");
  }
  EXPECT_THAT(PrepareStatus(MakeRaw(extra_column)).message(),
              HasSubstr("Test set should have 8 columns, but has 9"));
  // The same key in both splits.
  std::string repeated_keys = std::string(kHeader) + "\n";
  for (int i = 0; i < 10'000; ++i)
    absl::StrAppend(&repeated_keys, "k", i % 5000, ",5.0,t,1,2,3,4,1\n");
  EXPECT_THAT(PrepareStatus(MakeRaw(repeated_keys)).message(),
              HasSubstr("Train and test sets share samples!"));
}

TEST(NycTaxiFarePrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  // test_size=9914 needs at least 9915 rows.
  EXPECT_THAT(PrepareStatus(MakeRaw(RawTrainCsv(9914, 5))).message(), HasSubstr("9914"));
  // No label column.
  std::string no_label =
      "key,pickup_datetime,pickup_longitude,pickup_latitude,dropoff_longitude,dropoff_latitude,"
      "passenger_count\n";
  for (int i = 0; i < 10'000; ++i) absl::StrAppend(&no_label, "k", i, ",t,1,2,3,4,1\n");
  EXPECT_THAT(PrepareStatus(MakeRaw(no_label)).message(), HasSubstr("fare_amount"));
  // No coupon instructions to copy: an error, and nothing written.
  const fs::path no_coupons = MakeRaw(RawTrainCsv(10'000, 7), /*with_coupons=*/false);
  const fs::path root = testing::NewTempDir("out");
  EXPECT_THAT(RunRegisteredPreparer(kId, no_coupons, root / "public", root / "private").message(),
              HasSubstr(kCoupons));
  EXPECT_TRUE(testing::ReadTree(root).empty());
}

}  // namespace
}  // namespace mlebench::prepare_test
