#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "formats/seven_zip.h"
#include "formats/zip_archive.h"
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

struct RawImage {
  int64_t name;
  int64_t invasive;
  std::string bytes;
};

// Image numbers 1..count in a shuffled order (the split must follow rows,
// not numbers).
std::vector<RawImage> RandomImages(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<RawImage> images;
  for (int i = 0; i < count; ++i) {
    images.push_back({i + 1, rng.Bernoulli(0.63) ? 1 : 0, "JPEG" + rng.Hex(30)});
  }
  rng.Shuffle(images);
  return images;
}

void WriteLabels(const fs::path& raw, const std::string& csv) {
  ASSERT_TRUE(
      WriteZip(raw / "train_labels.csv.zip", {ZipEntry::FromBytes("train_labels.csv", csv)}).ok());
}

// Kaggle's layout: train_labels.csv.zip and train.7z holding train/<name>.jpg.
fs::path MakeRaw(const std::vector<RawImage>& images) {
  const fs::path raw = testing::NewTempDir("raw");
  CsvTextBuilder csv;
  csv.Row({"name", "invasive"});
  std::vector<SevenZipEntry> entries = {SevenZipEntry::Directory("train")};
  std::map<int64_t, bool> archived;
  for (const RawImage& image : images) {
    csv.Int(image.name).Int(image.invasive).EndRow();
    if (!archived[image.name]) {
      archived[image.name] = true;
      entries.push_back(
          SevenZipEntry::FromBytes("train/" + std::to_string(image.name) + ".jpg", image.bytes));
    }
  }
  WriteLabels(raw, csv.text());
  EXPECT_TRUE(Write7z(raw / "train.7z", entries).ok());
  return raw;
}

std::vector<int64_t> Names(const Table& table) {
  std::vector<int64_t> names;
  const Column* c = table.Find("name");
  EXPECT_NE(c, nullptr);
  if (c == nullptr) return names;
  for (const Cell& cell : c->cells) names.push_back(std::get<int64_t>(cell));
  return names;
}

// The one CSV inside a zip that prepare wrote.
std::string ZippedCsv(const fs::path& zip, const std::string& name) {
  const fs::path out = testing::NewTempDir("unzipped");
  EXPECT_TRUE(ExtractZip(zip, out).ok());
  std::map<std::string, std::string> tree = testing::ReadTree(out);
  EXPECT_EQ(tree.size(), 1u);
  return tree[name];
}

TEST(InvasiveSpeciesPrepareTest, SplitsTablesAndImages) {
  const std::vector<RawImage> images = RandomImages(200, 1);
  const fs::path raw = MakeRaw(images);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->public_dir),
              ElementsAre("sample_submission.csv.zip", "test.7z", "train.7z",
                          "train_labels.csv.zip"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir),
              ElementsAre("answers.csv", "sample_submission.csv"));

  const std::string train_csv =
      ZippedCsv(dirs->public_dir / "train_labels.csv.zip", "train_labels.csv");
  const std::string sample_csv =
      ZippedCsv(dirs->public_dir / "sample_submission.csv.zip", "sample_submission.csv");
  EXPECT_EQ(*ReadFileToString(dirs->private_dir / "sample_submission.csv"), sample_csv);
  const absl::StatusOr<Table> train = ReadCsvString(train_csv, "train_labels.csv");
  ASSERT_TRUE(train.ok());
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "answers.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->private_dir / "sample_submission.csv");
  EXPECT_THAT(train->ColumnNames(), ElementsAre("name", "invasive"));
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("name", "invasive"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("name", "invasive"));
  EXPECT_EQ(answers.num_rows(), 40u);
  EXPECT_EQ(train->num_rows(), 160u);
  EXPECT_EQ(Names(sample), Names(answers));
  for (const Cell& p : sample.Find("invasive")->cells) EXPECT_EQ(p, Cell(0.5));

  TrainTestSplitOptions options;
  options.test_size = 0.2;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(200, options);
  ASSERT_TRUE(split.ok());
  for (size_t i = 0; i < split->train_indices.size(); ++i) {
    const RawImage& image = images[split->train_indices[i]];
    EXPECT_EQ(Names(*train)[i], image.name);
    EXPECT_EQ(train->Find("invasive")->cells[i], Cell(image.invasive));
  }
  for (size_t i = 0; i < split->test_indices.size(); ++i) {
    const RawImage& image = images[split->test_indices[i]];
    EXPECT_EQ(Names(answers)[i], image.name);
    EXPECT_EQ(answers.Find("invasive")->cells[i], Cell(image.invasive));
  }

  // Each 7z holds only its folder's own entry, as py7zr's write() of a
  // directory leaves it upstream: no images.
  for (const char* archive : {"train", "test"}) {
    SCOPED_TRACE(archive);
    absl::StatusOr<std::vector<std::string>> names =
        List7z(dirs->public_dir / (std::string(archive) + ".7z"));
    ASSERT_TRUE(names.ok()) << names.status();
    EXPECT_THAT(*names, ElementsAre(archive));
    const fs::path out = testing::NewTempDir("extracted");
    ASSERT_TRUE(Extract7z(dirs->public_dir / (std::string(archive) + ".7z"), out).ok());
    EXPECT_TRUE(fs::is_directory(out / archive));
    EXPECT_TRUE(fs::is_empty(out / archive));
  }
}

TEST(InvasiveSpeciesPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RandomImages(60, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);  // upstream extracts into raw/; we do not
}

// The CSV half of upstream's prepare() restated with pandas and scikit-learn
// (py7zr is not installed, so the 7z half is checked above by content). The
// labels CSV is given unzipped; the public CSVs are compared unzipped.
constexpr char kReference[] = R"py(
import sys
import pandas as pd
from sklearn.model_selection import train_test_split

labels, public, private = sys.argv[1:4]
old_train = pd.read_csv(labels, float_precision="round_trip")  # upstream's read_csv
new_train, answers = train_test_split(old_train, test_size=0.2, random_state=0)
sample = answers.copy()
sample["invasive"] = 0.5
answers.to_csv(f"{private}/answers.csv", index=False)
new_train.to_csv(f"{public}/train_labels.csv", index=False)
sample.to_csv(f"{private}/sample_submission.csv", index=False)
sample.to_csv(f"{public}/sample_submission.csv", index=False)
)py";

TEST(InvasiveSpeciesPrepareTest, CsvFilesMatchPandasByteForByte) {
  for (const auto& [rows, seed] :
       std::vector<std::pair<int, uint64_t>>{{5, 10}, {251, 11}, {2295, 12}}) {
    SCOPED_TRACE(rows);
    const std::vector<RawImage> images = RandomImages(rows, seed);
    const fs::path raw = MakeRaw(images);
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    ASSERT_TRUE(ExtractZip(raw / "train_labels.csv.zip", reference).ok());
    const testing::CommandResult run = testing::RunPython(
        kReference, {(reference / "train_labels.csv").string(), (reference / "public").string(),
                     (reference / "private").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    const auto expected_public = testing::ReadTree(reference / "public");
    EXPECT_EQ(ZippedCsv(ours->public_dir / "train_labels.csv.zip", "train_labels.csv"),
              expected_public.at("train_labels.csv"));
    EXPECT_EQ(ZippedCsv(ours->public_dir / "sample_submission.csv.zip", "sample_submission.csv"),
              expected_public.at("sample_submission.csv"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(InvasiveSpeciesPrepareTest, RunsUpstreamsChecks) {
  // A repeated name lands in both splits or twice in one.
  std::vector<RawImage> images = RandomImages(30, 4);
  for (RawImage& image : images) image.name = 7;
  EXPECT_THAT(PrepareStatus(MakeRaw(images)).message(), HasSubstr("should have unique names"));
  // No label column: the sample submission gains one, so columns differ.
  const fs::path no_label = MakeRaw(RandomImages(10, 5));
  WriteLabels(no_label, "name\n1\n2\n3\n4\n5\n");
  EXPECT_THAT(PrepareStatus(no_label).message(),
              HasSubstr("sample_submission should have the same columns as old_train"));
}

TEST(InvasiveSpeciesPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  const fs::path no_labels = MakeRaw(RandomImages(10, 6));
  fs::remove(no_labels / "train_labels.csv.zip");
  EXPECT_FALSE(PrepareStatus(no_labels).ok());
  // train.7z that is not a 7z archive.
  const fs::path corrupt = MakeRaw(RandomImages(10, 6));
  ASSERT_TRUE(WriteStringToFile(corrupt / "train.7z", "not an archive").ok());
  EXPECT_THAT(PrepareStatus(corrupt).message(), HasSubstr("train.7z"));
  // An image listed but absent from train.7z.
  const std::vector<RawImage> images = RandomImages(10, 7);
  const fs::path missing_image = MakeRaw(images);
  std::vector<SevenZipEntry> entries;
  for (size_t i = 1; i < images.size(); ++i) {
    entries.push_back(SevenZipEntry::FromBytes(
        "train/" + std::to_string(images[i].name) + ".jpg", images[i].bytes));
  }
  ASSERT_TRUE(Write7z(missing_image / "train.7z", entries).ok());
  EXPECT_THAT(PrepareStatus(missing_image).message(),
              HasSubstr("train.7z has no image train/" + std::to_string(images[0].name) + ".jpg"));
  // Names that would reach outside the image folder, and missing names.
  for (const std::string bad : {"../x", "a/b", "..", ""}) {
    SCOPED_TRACE(bad);
    const fs::path raw = MakeRaw(RandomImages(10, 8));
    WriteLabels(raw, "name,invasive\n1,1\n" + bad + ",0\n3,1\n4,0\n5,1\n");
    EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("'name' must name an image"));
  }
}

}  // namespace
}  // namespace mlebench::prepare_test
