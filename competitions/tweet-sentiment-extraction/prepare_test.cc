#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pycompat/train_test_split.h"
#include "synthetic/csv_text.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// Kaggle's train.csv layout; tweets hold commas, quotes, newlines, leading
// spaces and non-ASCII text, ids are hex (some all digits), and one row has
// no text at all, as in Kaggle's file.
std::string RawTrainCsv(int rows, uint64_t seed) {
  SyntheticRng rng(seed);
  CsvTextBuilder csv;
  csv.Row({"textID", "text", "selected_text", "sentiment"});
  const std::vector<std::string> texts = {" Hi, there", "say \"yes\" now", "line\nbreak",
                                          "caf\xc3\xa9 \xce\xa3", "ok", "  sad  day "};
  const std::vector<std::string> sentiments = {"neutral", "negative", "positive"};
  for (int i = 0; i < rows; ++i) {
    csv.String(i % 50 == 7 ? "1234567890" + std::to_string(i) : rng.Hex(10));
    if (i == 3) {
      csv.Missing().Missing();
    } else {
      const std::string text = rng.Choice(texts);
      // A prefix of the tweet that does not cut a UTF-8 sequence.
      size_t end = 1 + rng.UniformInt(text.size());
      while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
      csv.String(text).String(text.substr(0, end));
    }
    csv.String(rng.Choice(sentiments)).EndRow();
  }
  return csv.text();
}

fs::path MakeRaw(const std::string& train_csv) {
  const fs::path raw = testing::NewTempDir("raw");
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", train_csv).ok());
  EXPECT_TRUE(WriteStringToFile(raw / "test.csv", "textID,text,sentiment\n").ok());
  return raw;
}

TEST(TweetSentimentExtractionPrepareTest, WritesUpstreamsFilesColumnsAndRows) {
  const int rows = 333;
  const std::string train_csv = RawTrainCsv(rows, 1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, MakeRaw(train_csv));
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->public_dir),
              ElementsAre("sample_submission.csv", "test.csv", "train.csv"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));

  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_THAT(train.ColumnNames(), ElementsAre("textID", "text", "selected_text", "sentiment"));
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("textID", "text", "selected_text", "sentiment"));
  EXPECT_THAT(test.ColumnNames(), ElementsAre("textID", "text", "sentiment"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("textID", "selected_text"));
  EXPECT_EQ(test.num_rows(), 34u);  // ceil(0.1 * 333)
  EXPECT_EQ(answers.num_rows(), 34u);
  EXPECT_EQ(train.num_rows(), 299u);

  const Table old_train = *ReadCsvString(train_csv, "train.csv");
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(rows, options);
  ASSERT_TRUE(split.ok());
  const std::vector<Cell>& ids = old_train.Find("textID")->cells;
  std::set<Cell> train_ids;
  for (size_t i = 0; i < split->train_indices.size(); ++i) {
    EXPECT_EQ(train.Find("textID")->cells[i], ids[split->train_indices[i]]);
    train_ids.insert(train.Find("textID")->cells[i]);
  }
  for (size_t i = 0; i < split->test_indices.size(); ++i) {
    const int64_t row = split->test_indices[i];
    EXPECT_EQ(test.Find("textID")->cells[i], ids[row]);
    EXPECT_EQ(answers.Find("textID")->cells[i], ids[row]);
    EXPECT_EQ(answers.Find("selected_text")->cells[i], old_train.Find("selected_text")->cells[row]);
    EXPECT_EQ(sample.Find("textID")->cells[i], ids[row]);
    EXPECT_TRUE(IsMissing(sample.Find("selected_text")->cells[i]));  // "" reads back as NaN
    EXPECT_EQ(train_ids.count(ids[row]), 0u);
  }
}

TEST(TweetSentimentExtractionPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RawTrainCsv(120, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas and scikit-learn.
constexpr char kReference[] = R"py(
import sys
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = sys.argv[1:4]
table = pd.read_csv(f"{raw}/train.csv", float_precision="round_trip")
train, test = train_test_split(table, test_size=0.1, random_state=0)
train.to_csv(f"{public}/train.csv", index=False)
test.to_csv(f"{private}/test.csv", index=False)
test.drop(columns=["selected_text"]).to_csv(f"{public}/test.csv", index=False)
sample = test[["textID", "selected_text"]].copy()
sample["selected_text"] = ""
sample.to_csv(f"{public}/sample_submission.csv", index=False)
)py";

TEST(TweetSentimentExtractionPrepareTest, MatchesPandasByteForByte) {
  for (const auto& [rows, seed] :
       std::vector<std::pair<int, uint64_t>>{{2, 10}, {57, 11}, {2000, 12}}) {
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

TEST(TweetSentimentExtractionPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(testing::RunPreparer(kId, testing::NewTempDir("empty_raw")).ok());
  // Columns upstream drops or selects are missing.
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw("textID,text\na,x\nb,y\nc,z\n")).ok());
  EXPECT_FALSE(
      testing::RunPreparer(kId, MakeRaw("text,selected_text\nx,x\ny,y\nz,z\n")).ok());
  // Too few rows to split.
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw("textID,text,selected_text\na,x,x\n")).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
