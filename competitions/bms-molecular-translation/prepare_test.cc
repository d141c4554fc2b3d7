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

fs::path ImagePath(const std::string &id) {
  return fs::path(id.substr(0, 1)) / id.substr(1, 1) / id.substr(2, 1) / (id + ".png");
}

// A raw download: train_labels.csv with `rows` hex ids (some all digits, as
// Kaggle's are; InChI strings with commas, so quoted), one fake PNG per id
// (its bytes name the id, so misplaced copies show) and
// extra_approved_InChIs.csv.
fs::path MakeRaw(int rows, uint64_t seed, std::vector<std::string> *ids_out = nullptr) {
  SyntheticRng rng(seed);
  const fs::path raw = testing::NewTempDir("raw");
  CsvTextBuilder csv;
  csv.Row({"image_id", "InChI"});
  const std::vector<std::string> inchis = {"InChI=1S/CH4/h1H4", "InChI=1S/C3H8/c1-3-2/h3H2,1-2H3",
                                           "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3"};
  std::set<std::string> seen;
  for (int i = 0; i < rows; ++i) {
    std::string id;
    do {
      id = i % 40 == 5 ? std::to_string(100000000000 + rng.UniformInt(uint64_t{899999999999}))
                       : rng.Hex(12);
    } while (!seen.insert(id).second);
    csv.String(id).String(rng.Choice(inchis)).EndRow();
    fs::create_directories((raw / "train" / ImagePath(id)).parent_path());
    EXPECT_TRUE(WriteStringToFile(raw / "train" / ImagePath(id), "png " + id).ok());
    if (ids_out != nullptr) ids_out->push_back(id);
  }
  EXPECT_TRUE(WriteStringToFile(raw / "train_labels.csv", csv.text()).ok());
  EXPECT_TRUE(WriteStringToFile(raw / "extra_approved_InChIs.csv", "InChI\nInChI=1S/H2\n").ok());
  return raw;
}

TEST(BmsMolecularTranslationPrepareTest, WritesUpstreamsFilesColumnsAndRows) {
  std::vector<std::string> ids;
  const fs::path raw = MakeRaw(101, 1, &ids);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train_labels.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_THAT(train.ColumnNames(), ElementsAre("image_id", "InChI"));
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("image_id", "InChI"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("image_id", "InChI"));
  EXPECT_EQ(answers.num_rows(), 21u);  // ceil(0.2 * 101)
  EXPECT_EQ(sample.num_rows(), 21u);
  EXPECT_EQ(train.num_rows(), 80u);

  TrainTestSplitOptions options;
  options.test_size = 0.2;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(101, options);
  ASSERT_TRUE(split.ok());
  std::set<std::string> expected_files = {"extra_approved_InChIs.csv", "sample_submission.csv",
                                          "train_labels.csv"};
  for (size_t i = 0; i < split->train_indices.size(); ++i) {
    const std::string &id = ids[split->train_indices[i]];
    EXPECT_EQ(train.Find("image_id")->cells[i], Cell(id));
    expected_files.insert((fs::path("train") / ImagePath(id)).string());
  }
  for (size_t i = 0; i < split->test_indices.size(); ++i) {
    const std::string &id = ids[split->test_indices[i]];
    EXPECT_EQ(answers.Find("image_id")->cells[i], Cell(id));
    EXPECT_EQ(sample.Find("image_id")->cells[i], Cell(id));
    EXPECT_EQ(sample.Find("InChI")->cells[i], Cell(std::string("InChI=1S/H2O/h1H2")));
    expected_files.insert((fs::path("test") / ImagePath(id)).string());
  }
  const std::vector<std::string> files = testing::FileNames(dirs->public_dir);
  EXPECT_EQ(std::set<std::string>(files.begin(), files.end()), expected_files);
  const auto tree = testing::ReadTree(dirs->public_dir);
  const std::string test_id = ids[split->test_indices[0]];
  EXPECT_EQ(tree.at((fs::path("test") / ImagePath(test_id)).string()), "png " + test_id);
}

TEST(BmsMolecularTranslationPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(40, 2);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas, scikit-learn and shutil.
constexpr char kReference[] = R"py(
import shutil
import sys
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = (Path(p) for p in sys.argv[1:4])
labels = pd.read_csv(raw / "train_labels.csv")
train, test = train_test_split(labels, test_size=0.2, random_state=0)
train.to_csv(public / "train_labels.csv", index=False)
test.to_csv(private / "test.csv", index=False)
for part, name in ((train, "train"), (test, "test")):
    for i in part["image_id"]:
        sub = Path(i[0]) / i[1] / i[2] / f"{i}.png"
        (public / name / sub).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(raw / "train" / sub, public / name / sub)
sample = test.copy()
sample["InChI"] = "InChI=1S/H2O/h1H2"
sample.to_csv(public / "sample_submission.csv", index=False)
shutil.copyfile(raw / "extra_approved_InChIs.csv", public / "extra_approved_InChIs.csv")
)py";

TEST(BmsMolecularTranslationPrepareTest, MatchesPandasByteForByte) {
  for (const auto &[rows, seed] :
       std::vector<std::pair<int, uint64_t>>{{2, 10}, {57, 11}, {600, 12}}) {
    SCOPED_TRACE(rows);
    const fs::path raw = MakeRaw(rows, seed);
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

TEST(BmsMolecularTranslationPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(testing::RunPreparer(kId, testing::NewTempDir("empty_raw")).ok());
  // An image missing.
  {
    std::vector<std::string> ids;
    const fs::path raw = MakeRaw(20, 3, &ids);
    fs::remove(raw / "train" / ImagePath(ids[7]));
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  }
  // extra_approved_InChIs.csv missing.
  {
    const fs::path raw = MakeRaw(20, 4);
    fs::remove(raw / "extra_approved_InChIs.csv");
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  }
  // Ids that are not image names: too short, numbers (an all-digit column
  // reads as int64, which upstream cannot index), or a path.
  for (const char *labels :
       {"image_id,InChI\nab,x\ncd,y\nef,z\n", "image_id,InChI\n123456,x\n234567,y\n345678,z\n",
        "image_id,InChI\nabc/../x,x\nabcdef,y\nabcdeg,z\n", "InChI\nx\ny\n"}) {
    const fs::path raw = MakeRaw(5, 5);
    ASSERT_TRUE(WriteStringToFile(raw / "train_labels.csv", labels).ok());
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok()) << labels;
  }
  // Duplicate ids: one image for two rows, so upstream's image count check
  // fails.
  {
    const fs::path raw = MakeRaw(5, 6);
    fs::create_directories(raw / "train" / "a" / "b" / "c");
    ASSERT_TRUE(WriteStringToFile(raw / "train" / "a/b/c/abcdef.png", "png").ok());
    ASSERT_TRUE(WriteStringToFile(raw / "train_labels.csv",
                                  "image_id,InChI\nabcdef,x\nabcdef,y\nabcdef,z\nabcdef,w\n"
                                  "abcdef,v\n")
                    .ok());
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  }
}

}  // namespace
}  // namespace mlebench::prepare_test
