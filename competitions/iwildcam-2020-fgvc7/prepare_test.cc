#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Key;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// A raw download with `images` train images over `locations` cameras, one
// annotation per image (plus a second for every fifth), written as JSON
// text so that tests can bend the types (`image_extra` is appended to every
// image record, `odd_image` replaces the fields of image 0).
struct RawSpec {
  int images = 40;
  int locations = 8;
  uint64_t seed = 1;
  std::string odd_image;
};

fs::path MakeRaw(const RawSpec& spec) {
  SyntheticRng rng(spec.seed);
  const fs::path raw = testing::NewTempDir("raw");
  fs::create_directories(raw / "train");
  std::string images, annotations;
  for (int i = 0; i < spec.images; ++i) {
    const std::string id = absl::StrCat("img", 1000 + i, "-", rng.Hex(4));
    const int64_t location = rng.UniformInt(0, spec.locations - 1) * 7 + 3;
    absl::StrAppend(&images, i ? ", " : "",
                    i == 0 && !spec.odd_image.empty()
                        ? absl::StrCat("{\"id\": \"", id, "\", ", spec.odd_image, "}")
                        : absl::StrCat("{\"id\": \"", id, "\", \"location\": ", location,
                                       ", \"width\": 1920, \"file_name\": \"", id, ".jpg\"}"));
    for (int k = 0; k < (i % 5 == 0 ? 2 : 1); ++k) {
      absl::StrAppend(&annotations, annotations.empty() ? "" : ", ",
                      "{\"count\": 1, \"image_id\": \"", id, "\", \"id\": \"a", i, "_", k,
                      "\", \"category_id\": ", rng.UniformInt(0, 30), "}");
    }
    EXPECT_TRUE(WriteStringToFile(raw / "train" / (id + ".jpg"), "JPEG" + rng.Hex(8)).ok());
  }
  const std::string categories =
      "[{\"count\": 3, \"id\": 0, \"name\": \"empty\"}, {\"id\": 7, \"name\": \"d\\u00e9er\"}]";
  EXPECT_TRUE(WriteStringToFile(raw / "iwildcam2020_train_annotations.json",
                                absl::StrCat("{\"annotations\": [", annotations, "], \"images\": [",
                                             images, "], \"categories\": ", categories,
                                             ", \"info\": {\"year\": 2020, \"v\": 1.50}}"))
                  .ok());
  EXPECT_TRUE(
      WriteStringToFile(raw / "iwildcam2020_test_information.json",
                        absl::StrCat("{\"info\": {\"x\": null}, \"images\": [{\"id\": \"t\"}], "
                                     "\"categories\": ",
                                     categories, "}"))
          .ok());
  EXPECT_TRUE(
      WriteStringToFile(raw / "iwildcam2020_megadetector_results.json", "{\"images\": []}").ok());
  return raw;
}

TEST(IWildCamPrepareTest, SplitsByLocation) {
  const fs::path raw = MakeRaw({});
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::ReadTree(dirs->private_dir), ElementsAre(Key("answers.csv")));
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "answers.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_EQ(answers.ColumnNames(), (std::vector<std::string>{"Id", "Category"}));
  EXPECT_EQ(sample.ColumnNames(), (std::vector<std::string>{"Id", "Category"}));
  ASSERT_EQ(sample.num_rows(), answers.num_rows());
  EXPECT_GT(answers.num_rows(), 0u);
  size_t train = 0, test = 0;
  for (const std::string& name : testing::FileNames(dirs->public_dir)) {
    train += name.starts_with("train/");
    test += name.starts_with("test/");
  }
  EXPECT_EQ(train + test, 40u);
  EXPECT_GT(test, 0u);
  EXPECT_TRUE(fs::exists(dirs->public_dir / "iwildcam2020_megadetector_results.json"));
}

TEST(IWildCamPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw({.images = 30, .locations = 6, .seed = 2});
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with json, numpy, pandas and scikit-learn:
// every output file must match byte for byte.
constexpr char kReference[] = R"py(
import json, shutil, sys
from pathlib import Path
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = map(Path, sys.argv[1:4])
tj = json.load(open(raw / "iwildcam2020_train_annotations.json"))
sj = json.load(open(raw / "iwildcam2020_test_information.json"))
ann, img, cat = pd.DataFrame(tj["annotations"]), pd.DataFrame(tj["images"]), pd.DataFrame(tj["categories"])
scat = pd.DataFrame(sj["categories"])
tr_loc, te_loc = train_test_split(img["location"].unique(), test_size=0.22, random_state=0)
tr, te = img[img["location"].isin(tr_loc)], img[img["location"].isin(te_loc)]
while len(te) / (len(img) + len(te)) < 0.22:
    te_loc, tr_loc = np.append(te_loc, tr_loc[-1]), tr_loc[:-1]
    tr, te = img[img["location"].isin(tr_loc)], img[img["location"].isin(te_loc)]
while len(te) / (len(img) + len(te)) > 0.22:
    tr_loc, te_loc = np.append(tr_loc, te_loc[-1]), te_loc[:-1]
    tr, te = img[img["location"].isin(tr_loc)], img[img["location"].isin(te_loc)]
tr_ids, te_ids = tr["id"].unique(), te["id"].unique()
tr_ann, te_ann = ann[ann["image_id"].isin(tr_ids)], ann[ann["image_id"].isin(te_ids)]
answers = te_ann[["image_id", "category_id"]].rename(columns={"image_id": "Id", "category_id": "Category"})
sample = answers.copy()
np.random.seed(0)
sample["Category"] = np.random.randint(0, 676, size=len(sample))
answers.to_csv(private / "answers.csv", index=False)
sample.to_csv(public / "sample_submission.csv", index=False)
with open(public / "iwildcam2020_train_annotations.json", "w") as f:
    json.dump({"annotations": tr_ann.to_dict(orient="records"), "images": tr.to_dict(orient="records"),
               "categories": cat.to_dict(orient="records"), "info": tj["info"]}, f)
with open(public / "iwildcam2020_test_information.json", "w") as f:
    json.dump({"images": te.to_dict(orient="records"), "categories": scat.to_dict(orient="records"),
               "info": sj["info"]}, f)
shutil.copyfile(raw / "iwildcam2020_megadetector_results.json", public / "iwildcam2020_megadetector_results.json")
for folder, ids in [("train", tr_ids), ("test", te_ids)]:
    (public / folder).mkdir()
    for i in ids:
        shutil.copyfile(raw / "train" / f"{i}.jpg", public / folder / f"{i}.jpg")
)py";

void ExpectMatchesReference(const fs::path& raw) {
  absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(ours.ok()) << ours.status();
  const fs::path reference = testing::NewTempDir("reference");
  fs::create_directories(reference / "public");
  fs::create_directories(reference / "private");
  const testing::CommandResult run = testing::RunPython(
      kReference,
      {raw.string(), (reference / "public").string(), (reference / "private").string()});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  for (const char* part : {"public", "private"}) {
    const auto ours_tree =
        testing::ReadTree(part == std::string("public") ? ours->public_dir : ours->private_dir);
    const auto theirs = testing::ReadTree(reference / part);
    EXPECT_EQ(testing::FileNames(reference / part).size(), ours_tree.size());
    for (const auto& [name, bytes] : theirs) {
      auto it = ours_tree.find(name);
      ASSERT_NE(it, ours_tree.end()) << name;
      if (it->second != bytes) {
        size_t at = 0;
        while (at < bytes.size() && at < it->second.size() && bytes[at] == it->second[at]) ++at;
        const size_t from = at < 200 ? 0 : at - 200;
        ADD_FAILURE() << name << " differs at byte " << at
                      << ":\nours:   " << it->second.substr(from, 400)
                      << "\npandas: " << bytes.substr(from, 400);
      }
    }
  }
}

TEST(IWildCamPrepareTest, MatchesPandasByteForByte) {
  ExpectMatchesReference(MakeRaw({.images = 40, .locations = 8, .seed = 10}));
  ExpectMatchesReference(MakeRaw({.images = 200, .locations = 30, .seed = 11}));
  ExpectMatchesReference(MakeRaw({.images = 12, .locations = 3, .seed = 12}));
  // pandas' dtype inference: an image without width turns the column into
  // floats with NaN; extra fields appear in every record.
  ExpectMatchesReference(MakeRaw({.images = 30,
                                  .locations = 5,
                                  .seed = 13,
                                  .odd_image = "\"location\": 3, \"seq\": null, \"t\": true"}));
  // An image without a location: pandas' NaN is a location of its own.
  ExpectMatchesReference(
      MakeRaw({.images = 30, .locations = 5, .seed = 14, .odd_image = "\"width\": 5"}));
  absl::StatusOr<fs::path> synthetic = testing::GenerateSynthetic(kId, 4);
  ASSERT_TRUE(synthetic.ok()) << synthetic.status();
  ExpectMatchesReference(*synthetic);
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(IWildCamPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  // One location cannot be split.
  EXPECT_FALSE(PrepareStatus(MakeRaw({.images = 10, .locations = 1})).ok());
  // Image records without an id.
  const fs::path no_image = MakeRaw({});
  for (const std::string& name : testing::FileNames(no_image / "train"))
    fs::remove(no_image / "train" / name);
  EXPECT_THAT(PrepareStatus(no_image).message(), HasSubstr("does not exist"));
  const fs::path no_megadetector = MakeRaw({});
  fs::remove(no_megadetector / "iwildcam2020_megadetector_results.json");
  EXPECT_FALSE(PrepareStatus(no_megadetector).ok());
  const fs::path bad_json = MakeRaw({});
  ASSERT_TRUE(
      WriteStringToFile(bad_json / "iwildcam2020_test_information.json", "{\"images\": [").ok());
  EXPECT_FALSE(PrepareStatus(bad_json).ok());
  // An extra top-level key breaks upstream's key check.
  const fs::path extra_key = MakeRaw({});
  const std::string text = *ReadFileToString(extra_key / "iwildcam2020_test_information.json");
  ASSERT_TRUE(WriteStringToFile(extra_key / "iwildcam2020_test_information.json",
                                "{\"extra\": 1, " + text.substr(1))
                  .ok());
  EXPECT_THAT(PrepareStatus(extra_key).message(), HasSubstr("same keys"));
}

}  // namespace
}  // namespace mlebench::prepare_test
