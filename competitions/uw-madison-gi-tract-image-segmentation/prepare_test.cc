#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

struct RawOptions {
  int cases = 12;
  int max_days = 7;          // days per case drawn from 1..max_days
  int slices = 3;            // slices per day
  bool empty_masks = false;  // every segmentation empty: a NaN column
};

// Kaggle's layout, with stand-in bytes for the PNG scans (the preparer only
// copies them and reads their names). Day numbers 0..30, so "day9" and
// "day10" sort differently as text and as numbers.
fs::path MakeRaw(const RawOptions& options, uint64_t seed) {
  SyntheticRng rng(seed);
  const fs::path raw = testing::NewTempDir("raw");
  std::string csv = "id,class,segmentation\n";
  std::set<int64_t> used;
  for (int c = 0; c < options.cases; ++c) {
    int64_t number;
    do number = rng.UniformInt(int64_t{1}, int64_t{200});
    while (!used.insert(number).second);
    const std::string case_id = absl::StrCat("case", number);
    const int days = static_cast<int>(rng.UniformInt(int64_t{1}, int64_t{options.max_days}));
    std::vector<int64_t> day_numbers;
    std::set<int64_t> used_days;
    while (static_cast<int>(day_numbers.size()) < days) {
      const int64_t day = rng.UniformInt(int64_t{0}, int64_t{30});
      if (used_days.insert(day).second) day_numbers.push_back(day);
    }
    const int width = rng.Bernoulli(0.5) ? 266 : 360, height = width == 266 ? 266 : 310;
    for (int64_t day : day_numbers) {
      const std::string day_id = absl::StrCat(case_id, "_day", day);
      const fs::path scans = raw / "train" / case_id / day_id / "scans";
      fs::create_directories(scans);
      for (int s = 1; s <= options.slices; ++s) {
        const std::string slice = absl::StrCat(s < 10 ? "000" : "00", s);
        EXPECT_TRUE(WriteStringToFile(scans / absl::StrCat("slice_", slice, "_", width, "_", height,
                                                           "_1.50_1.50.png"),
                                      "PNG" + rng.Hex(12))
                        .ok());
        for (const char* organ : {"large_bowel", "small_bowel", "stomach"}) {
          const std::string rle =
              options.empty_masks || rng.Bernoulli(0.5)
                  ? ""
                  : absl::StrCat(rng.UniformInt(1, 5000), " ", rng.UniformInt(1, 30));
          absl::StrAppend(&csv, day_id, "_slice_", slice, ",", organ, ",", rle, "\n");
        }
      }
    }
  }
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", csv).ok());
  return raw;
}

std::string PrepareError(const fs::path& raw) {
  return std::string(testing::RunPreparer(kId, raw).status().message());
}

TEST(UwMadisonPrepareTest, SplitsByCaseAndDay) {
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, MakeRaw({}, 1));
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_EQ(train.ColumnNames(), (std::vector<std::string>{"id", "class", "segmentation"}));
  EXPECT_EQ(test.ColumnNames(), (std::vector<std::string>{"id", "class"}));
  EXPECT_EQ(sample.ColumnNames(), (std::vector<std::string>{"id", "class", "predicted"}));
  EXPECT_EQ(answers.ColumnNames(),
            (std::vector<std::string>{"id", "class", "predicted", "image_width", "image_height"}));
  EXPECT_EQ(answers.Find("image_width")->dtype, Dtype::kFloat64);
  ASSERT_GT(test.num_rows(), 0u);
  EXPECT_EQ(answers.num_rows(), test.num_rows());
  EXPECT_EQ(sample.num_rows(), test.num_rows());
  for (const Cell& cell : sample.Find("predicted")->cells)
    EXPECT_EQ(std::get<std::string>(cell), "1 1 5 2");
  // Case-days are disjoint, and each side's folders are where its rows say.
  std::set<std::string> train_days, test_days;
  for (const Cell& id : train.Find("id")->cells) {
    const std::string text = std::get<std::string>(id);
    train_days.insert(text.substr(0, text.find("_slice_")));
  }
  for (const Cell& id : test.Find("id")->cells) {
    const std::string text = std::get<std::string>(id);
    test_days.insert(text.substr(0, text.find("_slice_")));
  }
  for (const std::string& day : test_days) {
    EXPECT_EQ(train_days.count(day), 0u) << day;
    const std::string case_id = day.substr(0, day.find('_'));
    EXPECT_TRUE(fs::is_directory(dirs->public_dir / "test" / case_id / day)) << day;
    EXPECT_FALSE(fs::exists(dirs->public_dir / "train" / case_id / day)) << day;
  }
  for (const std::string& day : train_days) {
    EXPECT_TRUE(fs::is_directory(dirs->public_dir / "train" / day.substr(0, day.find('_')) / day));
  }
}

TEST(UwMadisonPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw({}, 2);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas and scikit-learn; every output
// file, scans included, must match.
constexpr char kReference[] = R"py(
import shutil, sys
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = (Path(p) for p in sys.argv[1:4])
old = pd.read_csv(raw / "train.csv")
case = old["id"].str.split("_").str[0]
day = old["id"].str.split("_").str[1]
cases = case.unique()
_, test_cases = train_test_split(cases, test_size=0.1, random_state=42)
test = case.isin(set(test_cases))
for c in set(case[~test]):
    days = sorted(set(day[~test & (case == c)]), key=lambda d: int(d[3:]))
    test |= (case == c) & day.isin(days[4:])
for c in cases:
    side = "test" if c in set(test_cases) else "train"
    shutil.copytree(raw / "train" / c, public / side / c, dirs_exist_ok=True)
for c, d in sorted(set(zip(case[test], day[test]))):
    source = public / "train" / c / f"{c}_{d}"
    if source.exists():
        (public / "test" / c).mkdir(parents=True, exist_ok=True)
        shutil.move(source, public / "test" / c / f"{c}_{d}")
(public / "train").mkdir(parents=True, exist_ok=True)
(public / "test").mkdir(parents=True, exist_ok=True)
new_test = old[test].copy()
sizes = []
for i in new_test["id"]:
    c, d, s = i.split("_")[0], i.split("_")[1], i.split("_")[-1]
    (path,) = (raw / "train" / c / f"{c}_{d}" / "scans").glob(f"slice_{s}_*.png")
    sizes.append([float(v) for v in path.stem.split("_")[2:4]])
new_test["image_width"] = [w for w, _ in sizes]
new_test["image_height"] = [h for _, h in sizes]
sample = new_test.drop(columns=["image_width", "image_height"])
sample["segmentation"] = "1 1 5 2"
sample.rename(columns={"segmentation": "predicted"}).to_csv(public / "sample_submission.csv", index=False)
new_test = new_test.rename(columns={"segmentation": "predicted"})
new_test.to_csv(private / "test.csv", index=False)
old[~test].to_csv(public / "train.csv", index=False)
new_test[["id", "class"]].to_csv(public / "test.csv", index=False)
)py";

TEST(UwMadisonPrepareTest, OutputsMatchPandasByteForByte) {
  for (const auto& [options, seed] : std::vector<std::pair<RawOptions, uint64_t>>{
           {{.cases = 2, .max_days = 2, .slices = 1}, 10},
           {{.cases = 12, .max_days = 8, .slices = 2}, 11},
           {{.cases = 31, .max_days = 7, .slices = 2}, 12},
           {{.cases = 9, .max_days = 6, .slices = 2, .empty_masks = true}, 13}}) {
    SCOPED_TRACE(seed);
    const fs::path raw = MakeRaw(options, seed);
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

TEST(UwMadisonPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(testing::RunPreparer(kId, testing::NewTempDir("empty_raw")).ok());
  // A case listed in train.csv without its folder.
  fs::path raw = MakeRaw({}, 3);
  for (const auto& entry : fs::directory_iterator(raw / "train")) {
    fs::remove_all(entry.path());
    break;
  }
  EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  // A test slice without its scan, or with two.
  raw = MakeRaw({.cases = 12, .max_days = 1, .slices = 1}, 4);
  std::vector<fs::path> scans;
  for (const auto& entry : fs::recursive_directory_iterator(raw / "train")) {
    if (entry.path().extension() == ".png") scans.push_back(entry.path());
  }
  for (const fs::path& scan : scans) fs::remove(scan);
  EXPECT_THAT(PrepareError(raw), HasSubstr("Expected 1 image, found 0"));
  for (const fs::path& scan : scans) {
    ASSERT_TRUE(WriteStringToFile(scan, "x").ok());
    ASSERT_TRUE(
        WriteStringToFile(scan.parent_path() / (scan.stem().string() + "_copy.png"), "y").ok());
  }
  EXPECT_THAT(PrepareError(raw), HasSubstr("Expected 1 image, found 2"));
  // Ids that are numbers, or that have no day; an extra column.
  raw = MakeRaw({}, 5);
  ASSERT_TRUE(
      WriteStringToFile(raw / "train.csv", "id,class,segmentation\n1,stomach,\n2,stomach,\n").ok());
  EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", "id,class,segmentation\ncase1,stomach,\n").ok());
  EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  // A single case leaves sklearn no train set.
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw({.cases = 1}, 6)).ok());
}

TEST(UwMadisonPrepareTest, ChecksColumnCounts) {
  const fs::path raw = MakeRaw({.cases = 4, .max_days = 1, .slices = 1}, 7);
  absl::StatusOr<std::string> csv = ReadFileToString(raw / "train.csv");
  ASSERT_TRUE(csv.ok());
  std::string extra;
  for (size_t begin = 0; begin < csv->size();) {
    const size_t end = csv->find('\n', begin);
    absl::StrAppend(&extra, csv->substr(begin, end - begin), begin == 0 ? ",note\n" : ",x\n");
    begin = end + 1;
  }
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", extra).ok());
  EXPECT_THAT(PrepareError(raw), HasSubstr("should have"));
}

}  // namespace
}  // namespace mlebench::prepare_test
