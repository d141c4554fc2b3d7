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
constexpr const char* kLabels[] = {"negative", "typical", "indeterminate", "atypical"};

struct RawImage {
  std::string id;     // without "_image"
  std::string boxes;  // empty for none
  std::string label;
};

struct RawStudy {
  std::string id;  // without "_study"
  int label;
  std::vector<RawImage> images;
};

std::vector<RawStudy> RandomStudies(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<RawStudy> studies;
  for (int i = 0; i < count; ++i) {
    RawStudy study{.id = rng.Hex(12), .label = static_cast<int>(rng.UniformInt(4))};
    const int images = 1 + static_cast<int>(rng.UniformInt(3) == 0);
    for (int n = 0; n < images; ++n) {
      if (study.label == 0) {
        study.images.push_back({rng.Hex(12), "", "none 1 0 0 1 1"});
      } else {
        const double x = rng.Uniform(0, 2000), y = rng.Uniform(0, 2000);
        study.images.push_back(
            {rng.Hex(12), absl::StrCat("[{'x': ", x, ", 'y': ", y, ", 'width': 5.5, 'height': 7}]"),
             absl::StrCat("opacity 1 ", x, " ", y, " ", x + 5.5, " ", y + 7)});
      }
    }
    studies.push_back(std::move(study));
  }
  return studies;
}

// Kaggle's layout: the two CSVs (rows in the order given, not sorted) and
// train/<study>/<series>/<image>.dcm, whose contents only need to be
// recognisable here.
fs::path MakeRaw(const std::vector<RawStudy>& studies) {
  const fs::path raw = testing::NewTempDir("raw");
  std::string study_csv =
      "id,Negative for Pneumonia,Typical Appearance,Indeterminate Appearance,Atypical Appearance\n";
  std::string image_csv = "id,boxes,label,StudyInstanceUID\n";
  for (const RawStudy& study : studies) {
    absl::StrAppend(&study_csv, study.id, "_study");
    for (int k = 0; k < 4; ++k) absl::StrAppend(&study_csv, ",", k == study.label ? 1 : 0);
    study_csv += "\n";
    const fs::path series = raw / "train" / study.id / ("s" + study.id.substr(0, 4));
    fs::create_directories(series);
    for (const RawImage& image : study.images) {
      absl::StrAppend(&image_csv, image.id, "_image,",
                      image.boxes.empty() ? "" : absl::StrCat("\"", image.boxes, "\""), ",",
                      image.label, ",", study.id, "\n");
      EXPECT_TRUE(WriteStringToFile(series / (image.id + ".dcm"), "DICM " + image.id).ok());
    }
  }
  EXPECT_TRUE(WriteStringToFile(raw / "train_study_level.csv", study_csv).ok());
  EXPECT_TRUE(WriteStringToFile(raw / "train_image_level.csv", image_csv).ok());
  return raw;
}

std::vector<std::string> Column(const Table& table, std::string_view name) {
  std::vector<std::string> values;
  for (const Cell& cell : table.Find(name)->cells) values.push_back(std::get<std::string>(cell));
  return values;
}

TEST(SiimCovid19PrepareTest, SplitsStudiesImagesAndFolders) {
  const std::vector<RawStudy> studies = RandomStudies(50, 1);
  const fs::path raw = MakeRaw(studies);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));
  const Table train_studies = testing::ReadCsvOrFail(dirs->public_dir / "train_study_level.csv");
  const Table train_images = testing::ReadCsvOrFail(dirs->public_dir / "train_image_level.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_EQ(train_studies.num_rows(), 45u);  // 50 - ceil(0.1 * 50)
  EXPECT_THAT(train_images.ColumnNames(), ElementsAre("id", "boxes", "label", "StudyInstanceUID"));
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("id", "PredictionString"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("id", "PredictionString"));

  const std::vector<std::string> train_ids = Column(train_studies, "id");
  EXPECT_TRUE(std::is_sorted(train_ids.begin(), train_ids.end()));
  std::map<std::string, const RawStudy*> by_id;
  for (const RawStudy& s : studies) by_id[s.id + "_study"] = &s;
  std::set<std::string> test_studies;
  for (const auto& [id, study] : by_id) {
    if (!std::binary_search(train_ids.begin(), train_ids.end(), id)) test_studies.insert(id);
  }
  ASSERT_EQ(test_studies.size(), 5u);

  // Answers and sample: the test studies sorted, then their images sorted.
  std::vector<std::string> expected_ids, expected_truths, expected_samples;
  std::vector<std::pair<std::string, std::string>> test_images;
  for (const std::string& id : test_studies) {
    expected_ids.push_back(id);
    expected_truths.push_back(absl::StrCat(kLabels[by_id[id]->label], " 1 0 0 1 1"));
    expected_samples.push_back("negative 1 0 0 1 1");
    for (const RawImage& image : by_id[id]->images)
      test_images.push_back({image.id + "_image", image.label});
  }
  std::sort(test_images.begin(), test_images.end());
  for (const auto& [id, label] : test_images) {
    expected_ids.push_back(id);
    expected_truths.push_back(label);
    expected_samples.push_back("none 1 0 0 1 1");
  }
  EXPECT_EQ(Column(answers, "id"), expected_ids);
  EXPECT_EQ(Column(answers, "PredictionString"), expected_truths);
  EXPECT_EQ(Column(sample, "id"), expected_ids);
  EXPECT_EQ(Column(sample, "PredictionString"), expected_samples);
  size_t image_count = 0;
  for (const RawStudy& s : studies) image_count += s.images.size();
  EXPECT_EQ(train_images.num_rows() + test_images.size(), image_count);

  // Every study folder, whole, under its split.
  std::map<std::string, std::string> expected_train, expected_test;
  for (const auto& [name, bytes] : testing::ReadTree(raw / "train")) {
    const std::string study = name.substr(0, name.find('/')) + "_study";
    (test_studies.count(study) ? expected_test : expected_train)[name] = bytes;
  }
  EXPECT_EQ(testing::ReadTree(dirs->public_dir / "train"), expected_train);
  EXPECT_EQ(testing::ReadTree(dirs->public_dir / "test"), expected_test);
}

TEST(SiimCovid19PrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RandomStudies(30, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// The CSV half of upstream's prepare() restated with pandas and scikit-learn.
constexpr char kReference[] = R"py(
import sys
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = sys.argv[1:4]
studies = pd.read_csv(f"{raw}/train_study_level.csv", float_precision="round_trip")
train, test = train_test_split(studies, test_size=0.1, random_state=0)
train, test = train.sort_values(by="id"), test.sort_values(by="id")
train.to_csv(f"{public}/train_study_level.csv", index=False)
images = pd.read_csv(f"{raw}/train_image_level.csv", float_precision="round_trip")
study_of = images["StudyInstanceUID"] + "_study"
images[study_of.isin(train["id"])].sort_values(by="id").to_csv(
    f"{public}/train_image_level.csv", index=False)
test_images = images[study_of.isin(test["id"])].sort_values(by="id")
names = ["negative", "typical", "indeterminate", "atypical"]
label = [names[int(v.argmax())] for v in test.iloc[:, 1:].to_numpy()]
ids = list(test["id"]) + list(test_images["id"])
pd.DataFrame({"id": ids, "PredictionString": [f"{l} 1 0 0 1 1" for l in label] + list(test_images["label"])}
             ).to_csv(f"{private}/test.csv", index=False)
pd.DataFrame({"id": ids, "PredictionString": ["negative 1 0 0 1 1"] * len(test) + ["none 1 0 0 1 1"] * len(test_images)}
             ).to_csv(f"{public}/sample_submission.csv", index=False)
)py";

TEST(SiimCovid19PrepareTest, CsvFilesMatchPandasByteForByte) {
  for (const auto& [count, seed] :
       std::vector<std::pair<int, uint64_t>>{{2, 10}, {11, 11}, {317, 12}}) {
    SCOPED_TRACE(count);
    const fs::path raw = MakeRaw(RandomStudies(count, seed));
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const testing::CommandResult run = testing::RunPython(
        kReference,
        {raw.string(), (reference / "public").string(), (reference / "private").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    std::map<std::string, std::string> public_csvs;
    for (const auto& [name, bytes] : testing::ReadTree(ours->public_dir)) {
      if (name.find('/') == std::string::npos) public_csvs[name] = bytes;
    }
    EXPECT_EQ(public_csvs, testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(SiimCovid19PrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  // A study without its folder.
  const std::vector<RawStudy> studies = RandomStudies(20, 3);
  const fs::path missing = MakeRaw(studies);
  fs::remove_all(missing / "train" / studies[7].id);
  EXPECT_THAT(PrepareStatus(missing).message(),
              HasSubstr("no study folder train/" + studies[7].id));
  // An image of a study that is not listed: upstream's count check.
  const fs::path orphan = MakeRaw(RandomStudies(20, 4));
  absl::StatusOr<std::string> image_csv = ReadFileToString(orphan / "train_image_level.csv");
  ASSERT_TRUE(image_csv.ok());
  ASSERT_TRUE(WriteStringToFile(orphan / "train_image_level.csv",
                                *image_csv + "0123456789ab_image,,none 1 0 0 1 1,ffffffffffff\n")
                  .ok());
  EXPECT_THAT(PrepareStatus(orphan).message(), HasSubstr("Expected"));
  // A repeated study: copytree refuses to copy onto the first copy.
  std::vector<RawStudy> repeated = RandomStudies(20, 5);
  repeated[3].id = repeated[4].id;
  EXPECT_THAT(PrepareStatus(MakeRaw(repeated)).message(), HasSubstr("copied twice"));
  // Ids that are not plain folder names never reach the file system.
  std::vector<RawStudy> escaping = RandomStudies(20, 6);
  for (RawStudy& s : escaping) s.id = "../" + s.id;
  EXPECT_THAT(PrepareStatus(MakeRaw(escaping)).message(),
              HasSubstr("does not name a study folder"));
  // No StudyInstanceUID column.
  const fs::path no_study = MakeRaw(RandomStudies(10, 7));
  ASSERT_TRUE(
      WriteStringToFile(no_study / "train_image_level.csv", "id,boxes,label\na_image,,none\n")
          .ok());
  EXPECT_THAT(PrepareStatus(no_study).message(), HasSubstr("StudyInstanceUID"));
  // Label columns that are not numbers.
  const fs::path bad_labels = MakeRaw(RandomStudies(10, 8));
  ASSERT_TRUE(WriteStringToFile(bad_labels / "train_study_level.csv",
                                "id,Negative for Pneumonia,Typical Appearance,Indeterminate "
                                "Appearance,Atypical Appearance\n" +
                                    std::string("x_study,a,b,c,d\ny_study,a,b,c,d\n"))
                  .ok());
  EXPECT_FALSE(PrepareStatus(bad_labels).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
