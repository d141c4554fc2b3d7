#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/table.h"
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
using ::testing::IsEmpty;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// A raw train.csv with a few of Kaggle's integer columns; ids are shuffled
// (rather than Kaggle's 0, 1, ...) so that id order and row order differ.
std::string RawTrainCsv(int rows, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<int64_t> ids;
  for (int i = 0; i < rows; ++i) ids.push_back(4 * i + 1);
  rng.Shuffle(ids);
  CsvTextBuilder csv;
  csv.Row({"Id", "Elevation", "Aspect", "Wilderness_Area1", "Soil_Type7", "Cover_Type"});
  for (int64_t id : ids) {
    csv.Int(id)
        .Int(rng.UniformInt(1773, 4383))
        .Int(rng.UniformInt(-33, 407))
        .Int(rng.UniformInt(2))
        .Int(0)
        .Int(1 + static_cast<int64_t>(rng.Categorical({37, 56, 5, 0.1, 0.1, 0.3, 1.6})))
        .EndRow();
  }
  return csv.text();
}

fs::path MakeRaw(const std::string& train_csv) {
  const fs::path raw = testing::NewTempDir("raw");
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", train_csv).ok());
  return raw;
}

std::vector<Cell> Cells(const Table& table, const std::string& column) {
  const Column* c = table.Find(column);
  EXPECT_NE(c, nullptr) << column;
  return c == nullptr ? std::vector<Cell>{} : c->cells;
}

TEST(TabularPlaygroundDec2021PrepareTest, WritesUpstreamsFilesAndColumns) {
  const fs::path raw = MakeRaw(RawTrainCsv(237, 1));
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->public_dir),
              ElementsAre("sample_submission.csv", "test.csv", "train.csv"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));

  const Table old_train = testing::ReadCsvOrFail(raw / "train.csv");
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_EQ(train.ColumnNames(), old_train.ColumnNames());
  EXPECT_EQ(answers.ColumnNames(), old_train.ColumnNames());
  EXPECT_THAT(test.ColumnNames(),
              ElementsAre("Id", "Elevation", "Aspect", "Wilderness_Area1", "Soil_Type7"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("Id", "Cover_Type"));
  for (const Table* table : {&train, &test, &answers, &sample}) {
    for (const Column& column : table->columns())
      EXPECT_EQ(column.dtype, Dtype::kInt64) << column.name;
  }

  // n_test = ceil(0.1 * 237) = 24.
  EXPECT_EQ(answers.num_rows(), 24u);
  EXPECT_EQ(test.num_rows(), 24u);
  EXPECT_EQ(sample.num_rows(), 24u);
  EXPECT_EQ(train.num_rows(), 213u);
  for (const Cell& cell : Cells(sample, "Cover_Type")) EXPECT_EQ(cell, Cell(int64_t{2}));
  EXPECT_EQ(Cells(sample, "Id"), Cells(answers, "Id"));
  EXPECT_EQ(Cells(test, "Id"), Cells(answers, "Id"));
  EXPECT_EQ(Cells(test, "Elevation"), Cells(answers, "Elevation"));
}

TEST(TabularPlaygroundDec2021PrepareTest, RowsComeInTrainTestSplitOrder) {
  const int rows = 500;
  const fs::path raw = MakeRaw(RawTrainCsv(rows, 2));
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(rows, options);
  ASSERT_TRUE(split.ok());
  const std::vector<Cell> ids = Cells(testing::ReadCsvOrFail(raw / "train.csv"), "Id");
  const std::vector<Cell> train_ids = Cells(testing::ReadCsvOrFail(dirs->public_dir / "train.csv"), "Id");
  const std::vector<Cell> test_ids = Cells(testing::ReadCsvOrFail(dirs->private_dir / "test.csv"), "Id");
  ASSERT_EQ(train_ids.size(), split->train_indices.size());
  ASSERT_EQ(test_ids.size(), split->test_indices.size());
  for (size_t i = 0; i < train_ids.size(); ++i)
    EXPECT_EQ(train_ids[i], ids[split->train_indices[i]]);
  for (size_t i = 0; i < test_ids.size(); ++i) EXPECT_EQ(test_ids[i], ids[split->test_indices[i]]);
  const std::set<Cell> train_set(train_ids.begin(), train_ids.end());
  for (const Cell& id : test_ids) EXPECT_EQ(train_set.count(id), 0u);
}

TEST(TabularPlaygroundDec2021PrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RawTrainCsv(300, 3));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas and scikit-learn, its id check
// included, for each (raw, public, private) triple in argv; a raw whose ids
// the check rejects gets a file `rejected` in its private dir instead.
constexpr char kReference[] = R"py(
import sys
import pandas as pd
from sklearn.model_selection import train_test_split

args = sys.argv[1:]
for raw, public, private in zip(args[0::3], args[1::3], args[2::3]):
    table = pd.read_csv(f"{raw}/train.csv", float_precision="round_trip")
    train, test = train_test_split(table, test_size=0.1, random_state=0)
    if not set(train["Id"]).isdisjoint(set(test["Id"])):
        open(f"{private}/rejected", "w").close()
        continue
    train.to_csv(f"{public}/train.csv", index=False)
    test.to_csv(f"{private}/test.csv", index=False)
    test.drop(columns=["Cover_Type"]).to_csv(f"{public}/test.csv", index=False)
    pd.DataFrame({"Id": test["Id"].values, "Cover_Type": 2}).to_csv(
        f"{public}/sample_submission.csv", index=False)
)py";

// Runs ours and (in one Python process) the reference on each raw
// train.csv; expects both to write the same bytes, or both to reject the ids
// where `rejected[i]`.
void ExpectSameAsPandas(const std::vector<std::string>& train_csvs,
                        const std::vector<bool>& rejected) {
  ASSERT_EQ(train_csvs.size(), rejected.size());
  std::vector<fs::path> raws, references;
  std::vector<std::string> args;
  for (const std::string& csv : train_csvs) {
    raws.push_back(MakeRaw(csv));
    references.push_back(testing::NewTempDir("reference"));
    fs::create_directories(references.back() / "public");
    fs::create_directories(references.back() / "private");
    args.insert(args.end(), {raws.back().string(), (references.back() / "public").string(),
                             (references.back() / "private").string()});
  }
  const testing::CommandResult run = testing::RunPython(kReference, args);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  for (size_t i = 0; i < raws.size(); ++i) {
    SCOPED_TRACE(train_csvs[i].substr(0, 200));
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raws[i]);
    const std::map<std::string, std::string> reference_private =
        testing::ReadTree(references[i] / "private");
    EXPECT_EQ(reference_private.count("rejected") > 0, rejected[i]);
    if (rejected[i]) {
      EXPECT_THAT(ours.status().message(), HasSubstr("in both train and test"));
      continue;
    }
    ASSERT_TRUE(ours.ok()) << ours.status();
    EXPECT_EQ(testing::ReadTree(ours->public_dir), testing::ReadTree(references[i] / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), reference_private);
  }
}

TEST(TabularPlaygroundDec2021PrepareTest, MatchesPandasByteForByte) {
  std::vector<std::string> csvs;
  for (const auto& [rows, seed] : std::vector<std::pair<int, uint64_t>>{
           {2, 10}, {11, 11}, {237, 12}, {1000, 13}, {5000, 14}}) {
    csvs.push_back(RawTrainCsv(rows, seed));
  }
  ExpectSameAsPandas(csvs, std::vector<bool>(csvs.size(), false));
}

TEST(TabularPlaygroundDec2021PrepareTest, IdCheckFollowsPythonSets) {
  // Rows 0-9; train_test_split(test_size=0.1, random_state=0) puts row 2 in
  // test, the others in train.
  auto with_ids = [](const std::vector<std::string>& ids) {
    std::string csv = "Id,Elevation,Cover_Type\n";
    for (size_t i = 0; i < ids.size(); ++i) {
      csv += ids[i] + "," + std::to_string(3000 + i) + "," + std::to_string(1 + i % 3) + "\n";
    }
    return csv;
  };
  const std::vector<std::pair<std::vector<std::string>, bool>> cases = {
      // Unique integers: fine.
      {{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}, false},
      // A repeated id across the split.
      {{"0", "1", "1", "3", "4", "5", "6", "7", "8", "9"}, true},
      // A float column: 8.0 equals 8.
      {{"0", "1", "8.0", "8", "4", "5", "6", "7", "9.5", "9"}, true},
      // Float NaNs are distinct objects: no overlap.
      {{"0", "", "", "3", "4", "5", "6", "7", "8", "9"}, false},
      // Text ids with holes: the one shared NaN object overlaps.
      {{"a", "", "", "d", "e", "f", "g", "h", "i", "j"}, true},
      // Text ids, distinct; then repeated.
      {{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}, false},
      {{"a", "b", "a", "d", "e", "f", "g", "h", "i", "j"}, true},
  };
  std::vector<std::string> csvs;
  std::vector<bool> rejected;
  for (const auto& [ids, overlap] : cases) {
    csvs.push_back(with_ids(ids));
    rejected.push_back(overlap);
  }
  ExpectSameAsPandas(csvs, rejected);
}

TEST(TabularPlaygroundDec2021PrepareTest, RejectsBadRawData) {
  // No train.csv, or an empty one.
  EXPECT_FALSE(testing::RunPreparer(kId, testing::NewTempDir("empty_raw")).ok());
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw("")).ok());
  // Too few rows for a non-empty train set.
  EXPECT_THAT(testing::RunPreparer(kId, MakeRaw(RawTrainCsv(1, 1))).status().message(),
              HasSubstr("train set will be empty"));
  // No label or no id column.
  EXPECT_THAT(testing::RunPreparer(kId, MakeRaw("Id,Elevation\n1,3000\n2,3100\n3,2900\n"))
                  .status()
                  .message(),
              HasSubstr("Cover_Type"));
  EXPECT_THAT(testing::RunPreparer(kId, MakeRaw("Elevation,Cover_Type\n3000,1\n3100,2\n2900,2\n"))
                  .status()
                  .message(),
              HasSubstr("Id"));
}

TEST(TabularPlaygroundDec2021PrepareTest, SharedIdsWriteNothing) {
  std::string csv = "Id,Cover_Type\n";
  for (int i = 0; i < 50; ++i) csv += "7," + std::to_string(1 + i % 2) + "\n";
  const fs::path root = testing::NewTempDir("shared_ids");
  const absl::Status status =
      RunRegisteredPreparer(kId, MakeRaw(csv), root / "public", root / "private");
  EXPECT_THAT(status.message(), HasSubstr("there are 1 Ids in both train and test sets, e.g. 7"));
  EXPECT_THAT(testing::FileNames(root / "public"), IsEmpty());
  EXPECT_THAT(testing::FileNames(root / "private"), IsEmpty());
}

}  // namespace
}  // namespace mlebench::prepare_test
