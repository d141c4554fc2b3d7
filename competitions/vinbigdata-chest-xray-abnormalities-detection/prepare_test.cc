#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/csv.h"
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
constexpr char kHeader[] = "image_id,class_name,class_id,rad_id,x_min,y_min,x_max,y_max\n";

// Kaggle's train.csv for `images` images (rows shuffled; "No finding" rows
// with blank boxes; several radiologists per finding, some of their boxes
// or class names blank so that groupby().first() has to skip them) and
// train/<id>.dicom with recognisable contents. Returns the raw folder.
fs::path MakeRaw(int images, uint64_t seed) {
  SyntheticRng rng(seed);
  const fs::path raw = testing::NewTempDir("raw");
  fs::create_directories(raw / "train");
  std::vector<std::string> rows;
  auto coordinate = [&]() -> std::string {
    if (rng.Bernoulli(0.05)) return "";
    return rng.Bernoulli(0.5) ? absl::StrCat(rng.UniformInt(int64_t{0}, int64_t{2000}), ".0")
                              : absl::StrCat(rng.UniformInt(int64_t{0}, int64_t{20000}) / 8.0);
  };
  for (int i = 0; i < images; ++i) {
    const std::string id = rng.Hex(32);
    EXPECT_TRUE(
        WriteStringToFile(raw / "train" / absl::StrCat(id, ".dicom"), absl::StrCat("DICM ", id))
            .ok());
    if (rng.Bernoulli(0.6)) {
      for (int r = 0, n = 1 + static_cast<int>(rng.UniformInt(3)); r < n; ++r) {
        rows.push_back(absl::StrCat(id, ",No finding,14,R", 1 + rng.UniformInt(17), ",,,,"));
      }
      continue;
    }
    for (int c = 0, n = 1 + static_cast<int>(rng.UniformInt(3)); c < n; ++c) {
      const int64_t class_id = rng.UniformInt(int64_t{0}, int64_t{14});
      for (int r = 0, readers = 1 + static_cast<int>(rng.UniformInt(3)); r < readers; ++r) {
        const std::string name = class_id == 14 ? "No finding" : absl::StrCat("Finding ", class_id);
        rows.push_back(
            absl::StrCat(id, ",", rng.Bernoulli(0.05) ? "" : name, ",", class_id, ",",
                         rng.Bernoulli(0.05) ? "" : absl::StrCat("R", 1 + rng.UniformInt(17)), ",",
                         coordinate(), ",", coordinate(), ",", coordinate(), ",", coordinate()));
      }
    }
  }
  for (size_t i = rows.size(); i > 1; --i)
    std::swap(rows[i - 1], rows[rng.UniformInt(uint64_t{i})]);
  std::string csv = kHeader;
  for (const std::string& row : rows) absl::StrAppend(&csv, row, "\n");
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", csv).ok());
  return raw;
}

// The CSV half of upstream's prepare() restated with pandas and scikit-learn.
constexpr char kReference[] = R"py(
import sys
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = sys.argv[1:4]
old = pd.read_csv(f"{raw}/train.csv", float_precision="round_trip")
train_ids, test_ids = train_test_split(old["image_id"].unique(), test_size=0.1, random_state=0)
old[old["image_id"].isin(train_ids)].to_csv(f"{public}/train.csv", index=False)
pd.DataFrame({"image_id": test_ids, "PredictionString": "14 1 0 0 1 1"}).to_csv(
    f"{public}/sample_submission.csv", index=False)
answers = old[old["image_id"].isin(test_ids)].groupby(["image_id", "class_id"]).first()
answers = answers.reset_index().fillna(0)
answers.loc[answers["class_id"] == 14, ["x_max", "y_max"]] = 1.0
answers.to_csv(f"{private}/answers.csv", index=False)
gold = answers[["image_id", "class_id", "x_min", "y_min", "x_max", "y_max"]].copy()
gold["PredictionString"] = [" ".join([str(c), "1.0", str(a), str(b), str(x), str(y)])
                            for c, a, b, x, y in zip(gold["class_id"], gold["x_min"],
                                                     gold["y_min"], gold["x_max"], gold["y_max"])]
gold.groupby("image_id")["PredictionString"].agg(" ".join).reset_index().to_csv(
    f"{private}/gold_submission.csv", index=False)
)py";

void ExpectMatchesPandas(const fs::path& raw, const testing::PreparedDirs& ours) {
  const fs::path reference = testing::NewTempDir("reference");
  fs::create_directories(reference / "public");
  fs::create_directories(reference / "private");
  const testing::CommandResult run = testing::RunPython(
      kReference,
      {raw.string(), (reference / "public").string(), (reference / "private").string()});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::map<std::string, std::string> public_csvs;
  for (const auto& [name, bytes] : testing::ReadTree(ours.public_dir)) {
    if (name.find('/') == std::string::npos) public_csvs[name] = bytes;
  }
  EXPECT_EQ(public_csvs, testing::ReadTree(reference / "public"));
  EXPECT_EQ(testing::ReadTree(ours.private_dir), testing::ReadTree(reference / "private"));
}

TEST(VinBigDataPrepareTest, SplitsByImageAndMatchesPandas) {
  const fs::path raw = MakeRaw(15000, 1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->private_dir),
              ElementsAre("answers.csv", "gold_submission.csv"));
  const Table old_train = testing::ReadCsvOrFail(raw / "train.csv");
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "answers.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_EQ(train.ColumnNames(), old_train.ColumnNames());
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("image_id", "class_id", "class_name", "rad_id",
                                                 "x_min", "y_min", "x_max", "y_max"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("image_id", "PredictionString"));
  EXPECT_EQ(sample.num_rows(), 1500u);

  std::set<std::string> train_ids, test_ids;
  for (const Cell& c : train.Find("image_id")->cells) train_ids.insert(std::get<std::string>(c));
  for (const Cell& c : sample.Find("image_id")->cells) test_ids.insert(std::get<std::string>(c));
  EXPECT_EQ(train_ids.size(), 13500u);
  EXPECT_EQ(test_ids.size(), 1500u);
  for (const std::string& id : test_ids) EXPECT_FALSE(train_ids.count(id)) << id;

  // Every image under its split, byte for byte.
  std::map<std::string, std::string> expected_train, expected_test;
  for (const auto& [name, bytes] : testing::ReadTree(raw / "train")) {
    (test_ids.count(name.substr(0, name.size() - 6)) ? expected_test : expected_train)[name] =
        bytes;
  }
  EXPECT_EQ(testing::ReadTree(dirs->public_dir / "train"), expected_train);
  EXPECT_EQ(testing::ReadTree(dirs->public_dir / "test"), expected_test);

  ExpectMatchesPandas(raw, *dirs);
}

TEST(VinBigDataPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(15000, 2);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(VinBigDataPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  // Upstream asserts Kaggle's 15,000 images.
  EXPECT_THAT(PrepareStatus(MakeRaw(200, 3)).message(),
              HasSubstr("Expected 13500 train image_ids"));
  // A required column absent.
  const fs::path no_class = testing::NewTempDir("no_class");
  ASSERT_TRUE(
      WriteStringToFile(no_class / "train.csv", "image_id,x_min,y_min,x_max,y_max\na,1,2,3,4\n")
          .ok());
  EXPECT_FALSE(PrepareStatus(no_class).ok());
  // Ids that are not plain names never reach the file system.
  const fs::path bad_id = testing::NewTempDir("bad_id");
  ASSERT_TRUE(
      WriteStringToFile(bad_id / "train.csv", std::string(kHeader) + "../x,No finding,14,R1,,,,\n")
          .ok());
  EXPECT_THAT(PrepareStatus(bad_id).message(), HasSubstr("is not a file name"));
  // A class id that is no whole number.
  const fs::path bad_class = testing::NewTempDir("bad_class");
  ASSERT_TRUE(
      WriteStringToFile(bad_class / "train.csv", std::string(kHeader) + "a,No finding,x,R1,,,,\n")
          .ok());
  EXPECT_THAT(PrepareStatus(bad_class).message(), HasSubstr("class_id"));
}

TEST(VinBigDataPrepareTest, MissingImageIsAnError) {
  const fs::path raw = MakeRaw(15000, 4);
  const auto tree = testing::ReadTree(raw / "train");
  fs::remove(raw / "train" / tree.begin()->first);
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("no file train/"));
}

}  // namespace
}  // namespace mlebench::prepare_test
