#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "competitions/leaf-classification/classes.h"
#include "formats/zip_archive.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pycompat/train_test_split.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using leaf_classification::Classes;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

struct RawLeaf {
  int64_t id;
  std::string species;
  std::string image;  // the "JPEG" bytes
};

// Leaves with ids 1..count in random order, random species; `labelled` of
// them are train.csv's rows, the rest only have images (Kaggle's test set).
std::vector<RawLeaf> RandomLeaves(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<RawLeaf> leaves;
  for (int i = 1; i <= count; ++i) {
    leaves.push_back({i, rng.Choice(Classes()), "JPEG" + rng.Hex(30)});
  }
  rng.Shuffle(leaves);
  return leaves;
}

// Kaggle's layout: train.csv.zip (id, species, features with Kaggle's
// spellings: "0" for zero, six decimals) and images.zip (images/<id>.jpg
// for every leaf, labelled or not).
fs::path MakeRaw(const std::vector<RawLeaf>& leaves, size_t labelled, uint64_t seed = 0) {
  SyntheticRng rng(seed);
  std::string csv = "id,species,margin1,margin2,shape1,texture1,texture2\n";
  for (size_t i = 0; i < labelled; ++i) {
    absl::StrAppend(&csv, leaves[i].id, ",", leaves[i].species);
    for (int f = 0; f < 5; ++f) {
      const double v = rng.UniformInt(4) == 0 ? 0.0 : rng.UniformInt(100) / 1024.0;
      absl::StrAppend(&csv, ",", v == 0.0 ? std::string("0") : absl::StrFormat("%.6f", v));
    }
    csv += "\n";
  }
  const fs::path raw = testing::NewTempDir("raw");
  EXPECT_TRUE(WriteZip(raw / "train.csv.zip", {ZipEntry::FromBytes("train.csv", csv)}).ok());
  std::vector<ZipEntry> images = {ZipEntry::Directory("images/")};
  std::set<int64_t> zipped;
  for (const RawLeaf& leaf : leaves) {
    if (!zipped.insert(leaf.id).second) continue;  // a repeated id has one image
    images.push_back(ZipEntry::FromBytes(absl::StrCat("images/", leaf.id, ".jpg"), leaf.image));
  }
  EXPECT_TRUE(WriteZip(raw / "images.zip", images).ok());
  return raw;
}

std::vector<Cell> Cells(const Table& table, const std::string& column) {
  const Column* c = table.Find(column);
  EXPECT_NE(c, nullptr) << column;
  return c == nullptr ? std::vector<Cell>{} : c->cells;
}

TEST(LeafClassificationPrepareTest, WritesUpstreamsFilesColumnsRowsAndImages) {
  const std::vector<RawLeaf> leaves = RandomLeaves(260, 1);
  const size_t labelled = 200;
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, MakeRaw(leaves, labelled));
  ASSERT_TRUE(dirs.ok()) << dirs.status();

  const std::map<std::string, std::string> public_files = testing::ReadTree(dirs->public_dir);
  std::vector<std::string> csvs;
  std::map<std::string, std::string> images;
  for (const auto& [name, bytes] : public_files) {
    if (name.rfind("images/", 0) == 0) {
      images[name.substr(7)] = bytes;
    } else {
      csvs.push_back(name);
    }
  }
  EXPECT_THAT(csvs, ElementsAre("sample_submission.csv", "test.csv", "train.csv"));
  std::vector<std::string> private_files;
  for (const auto& [name, bytes] : testing::ReadTree(dirs->private_dir)) {
    private_files.push_back(name);
  }
  EXPECT_THAT(private_files, ElementsAre("test.csv"));
  EXPECT_TRUE(fs::is_directory(dirs->private_dir / "images"));  // created empty, as upstream

  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_THAT(train.ColumnNames(),
              ElementsAre("id", "species", "margin1", "margin2", "shape1", "texture1", "texture2"));
  EXPECT_THAT(test.ColumnNames(),
              ElementsAre("id", "margin1", "margin2", "shape1", "texture1", "texture2"));
  std::vector<std::string> one_hot_columns = {"id"};
  one_hot_columns.insert(one_hot_columns.end(), Classes().begin(), Classes().end());
  EXPECT_EQ(answers.ColumnNames(), one_hot_columns);
  EXPECT_EQ(sample.ColumnNames(), one_hot_columns);
  EXPECT_EQ(test.num_rows(), 20u);  // ceil(0.1 * 200)
  EXPECT_EQ(train.num_rows(), 180u);

  // Rows in train_test_split order; answers one-hot with int 0/1; the sample
  // gives every species 1/99.
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(labelled, options);
  ASSERT_TRUE(split.ok());
  for (size_t i = 0; i < split->train_indices.size(); ++i) {
    const RawLeaf& leaf = leaves[split->train_indices[i]];
    EXPECT_EQ(Cells(train, "id")[i], Cell(leaf.id));
    EXPECT_EQ(Cells(train, "species")[i], Cell(leaf.species));
  }
  for (size_t i = 0; i < split->test_indices.size(); ++i) {
    const RawLeaf& leaf = leaves[split->test_indices[i]];
    EXPECT_EQ(Cells(test, "id")[i], Cell(leaf.id));
    EXPECT_EQ(Cells(answers, "id")[i], Cell(leaf.id));
    EXPECT_EQ(Cells(sample, "id")[i], Cell(leaf.id));
    for (const std::string& species : Classes()) {
      EXPECT_EQ(Cells(answers, species)[i], Cell(int64_t{species == leaf.species ? 1 : 0}));
      EXPECT_EQ(Cells(sample, species)[i], Cell(1.0 / 99));
    }
  }

  // Exactly the labelled leaves' images, unchanged; none of Kaggle's test set.
  std::map<std::string, std::string> expected_images;
  for (size_t i = 0; i < labelled; ++i) {
    expected_images[absl::StrCat(leaves[i].id, ".jpg")] = leaves[i].image;
  }
  EXPECT_EQ(images, expected_images);
}

TEST(LeafClassificationPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RandomLeaves(80, 2), 60);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);  // upstream extracts into raw/; we do not
}

// Upstream's prepare() restated with pandas and scikit-learn (the one-hot
// table built column by column rather than with df_to_one_hot's loop, the
// images copied likewise).
constexpr char kReference[] = R"py(
import shutil, sys, zipfile
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split
sys.path.insert(0, sys.argv[4])
from classes import CLASSES

raw, public, private = (Path(p) for p in sys.argv[1:4])
with zipfile.ZipFile(raw / "train.csv.zip") as archive:
    with archive.open("train.csv") as f:
        table = pd.read_csv(f, float_precision="round_trip")
train, test = train_test_split(table, test_size=0.1, random_state=0)
answers = pd.DataFrame({"id": test["id"]})
for species in CLASSES:
    answers[species] = (test["species"] == species).astype("int64")
sample = answers.copy()
sample[CLASSES] = 1 / len(CLASSES)
train.to_csv(public / "train.csv", index=False)
test.drop(columns=["species"]).to_csv(public / "test.csv", index=False)
sample.to_csv(public / "sample_submission.csv", index=False)
answers.to_csv(private / "test.csv", index=False)
(public / "images").mkdir()
with zipfile.ZipFile(raw / "images.zip") as archive:
    for leaf in pd.concat([train["id"], test["id"]]):
        (public / "images" / f"{leaf}.jpg").write_bytes(archive.read(f"images/{leaf}.jpg"))
)py";

// Upstream's class list as Python, for the reference script.
fs::path WriteClassesModule() {
  const fs::path dir = testing::NewTempDir("classes");
  std::string module = "CLASSES = [\n";
  for (const std::string& species : Classes()) absl::StrAppend(&module, "    \"", species, "\",\n");
  module += "]\n";
  EXPECT_TRUE(WriteStringToFile(dir / "classes.py", module).ok());
  return dir;
}

TEST(LeafClassificationPrepareTest, MatchesPandasByteForByte) {
  const fs::path classes = WriteClassesModule();
  for (const auto& [rows, seed] :
       std::vector<std::pair<int, uint64_t>>{{2, 10}, {51, 11}, {990, 12}}) {
    SCOPED_TRACE(rows);
    const fs::path raw = MakeRaw(RandomLeaves(rows + 7, seed), rows, seed);
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const testing::CommandResult run =
        testing::RunPython(kReference, {raw.string(), (reference / "public").string(),
                                        (reference / "private").string(), classes.string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(testing::ReadTree(ours->public_dir), testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

std::string PrepareError(const fs::path& raw) {
  return std::string(testing::RunPreparer(kId, raw).status().message());
}

TEST(LeafClassificationPrepareTest, RunsUpstreamsChecks) {
  // A repeated id: fewer image files than rows.
  std::vector<RawLeaf> leaves = RandomLeaves(30, 3);
  leaves[5].id = leaves[4].id;
  EXPECT_THAT(PrepareError(MakeRaw(leaves, 30)),
              HasSubstr("Public images should have the same number of images"));
}

TEST(LeafClassificationPrepareTest, RejectsBadRawData) {
  // No archives at all; no images.zip; a train.csv.zip without train.csv.
  EXPECT_NE(PrepareError(testing::NewTempDir("empty_raw")), "");
  const fs::path no_images = MakeRaw(RandomLeaves(20, 4), 20);
  fs::remove(no_images / "images.zip");
  EXPECT_NE(PrepareError(no_images), "");
  const fs::path no_csv = MakeRaw(RandomLeaves(20, 4), 20);
  ASSERT_TRUE(
      WriteZip(no_csv / "train.csv.zip", {ZipEntry::FromBytes("test.csv", "id\n1\n")}).ok());
  EXPECT_THAT(PrepareError(no_csv), HasSubstr("no train.csv"));
  // A labelled leaf without its image.
  const std::vector<RawLeaf> leaves = RandomLeaves(20, 5);
  const fs::path missing_image = MakeRaw(leaves, 20);
  std::vector<ZipEntry> images;
  for (size_t i = 1; i < leaves.size(); ++i) {
    images.push_back(ZipEntry::FromBytes(absl::StrCat("images/", leaves[i].id, ".jpg"), "x"));
  }
  ASSERT_TRUE(WriteZip(missing_image / "images.zip", images).ok());
  EXPECT_THAT(PrepareError(missing_image),
              HasSubstr(absl::StrCat("images.zip has no image images/", leaves[0].id, ".jpg")));
  // A species that is not one of the 99 (upstream would grow the one-hot
  // table); every row has it, so the test split does.
  std::vector<RawLeaf> unknown = RandomLeaves(20, 6);
  for (RawLeaf& leaf : unknown) leaf.species = "Acer_Unknown";
  EXPECT_NE(PrepareError(MakeRaw(unknown, 20)), "");
  // Ids that are not integers or plain file names never reach the file system
  // (the first row's id is bad, the others are text, or integers for "1.5",
  // which makes the column float).
  for (const std::string bad_id : {"../escape", "sub/dir", "", "1.5"}) {
    SCOPED_TRACE(bad_id);
    const fs::path raw = MakeRaw(RandomLeaves(20, 7), 20);
    std::string csv = absl::StrCat("id,species\n", bad_id, ",Acer_Mono\n");
    for (int i = 1; i < 20; ++i) {
      absl::StrAppend(&csv, bad_id == "1.5" ? "" : "a", i, ",Acer_Mono\n");
    }
    ASSERT_TRUE(WriteZip(raw / "train.csv.zip", {ZipEntry::FromBytes("train.csv", csv)}).ok());
    EXPECT_THAT(PrepareError(raw), HasSubstr("'id' must be an integer or a file name"));
  }
}

}  // namespace
}  // namespace mlebench::prepare_test
