// Upstream's invasive-species-monitoring/prepare.py: an 80/20 split of
// Kaggle's labelled train_labels.csv (Kaggle's own test set is unlabelled),
// re-packed the way Kaggle ships it: the CSVs zipped, the images in 7z
// archives.
//
// Upstream's public train.7z and test.7z hold no images: it copies them to
// public/train/ and public/test/ (failing if one is missing), then calls
// py7zr's `write(public / "train")`, which adds only the directory's own entry
// (not its contents: that would be `writeall`), and deletes the folders. We
// reproduce that, so that agents face what upstream's agents faced and medal
// results stay comparable; the entry is named "train" ("test") where py7zr
// uses the absolute path without its leading "/", which no other machine
// could reproduce anyway.
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "formats/seven_zip.h"
#include "formats/zip_archive.h"
#include "pycompat/python_str.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// The `name` column as upstream's f"{file_id}" (Python str of each value),
// each a plain file name stem; `unique` as pandas' is_unique.
absl::StatusOr<std::vector<std::string>> ImageStems(const Table& table, bool& unique) {
  ASSIGN_OR_RETURN(const Column* names, table.Get("name"));
  std::vector<std::string> stems;
  std::set<std::string> seen;
  unique = true;
  for (size_t row = 0; row < names->cells.size(); ++row) {
    const Cell& cell = names->cells[row];
    std::string stem = PythonStr(cell);
    if (IsMissing(cell) || !IsPlainFileName(stem)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "train_labels.csv row ", row, ": 'name' must name an image, got '", stem, "'"));
    }
    if (!seen.insert(stem).second) unique = false;
    stems.push_back(std::move(stem));
  }
  return stems;
}

// Upstream's copy of the images `<stem>.jpg` of the extracted train/ folder
// fails when one is missing.
absl::Status CheckImagesExist(const fs::path& image_dir, const std::vector<std::string>& stems) {
  for (const std::string& stem : stems) {
    if (!fs::is_regular_file(image_dir / (stem + ".jpg"))) {
      return absl::NotFoundError(absl::StrCat("train.7z has no image train/", stem, ".jpg"));
    }
  }
  return absl::OkStatus();
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& scratch) {
  // Upstream extracts both archives into raw/; we extract into scratch/.
  const fs::path extracted = scratch / "raw";
  RETURN_IF_ERROR(Extract7z(raw / "train.7z", extracted));
  RETURN_IF_ERROR(ExtractZip(raw / "train_labels.csv.zip", extracted));

  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((extracted / "train_labels.csv").string()));
  TrainTestSplitOptions options;
  options.test_size = 0.2;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  const Table& new_train = split.train;
  const Table& answers = split.test;
  Table sample_submission = answers;
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "invasive", 0.5));

  // Upstream's checks, in its order.
  bool train_unique = true, answers_unique = true;
  ASSIGN_OR_RETURN(std::vector<std::string> train_stems, ImageStems(new_train, train_unique));
  ASSIGN_OR_RETURN(std::vector<std::string> test_stems, ImageStems(answers, answers_unique));
  if (!train_unique) return CheckFailed("new_train should have unique names");
  if (!answers_unique) return CheckFailed("answers should have unique names");
  const std::set<std::string> train_set(train_stems.begin(), train_stems.end());
  for (const std::string& stem : test_stems) {
    if (train_set.count(stem) > 0) return CheckFailed("new_train and answers should be disjoint");
  }
  if (new_train.num_rows() + answers.num_rows() != old_train.num_rows()) {
    return CheckFailed(
        "new_train and answers together should have the same number of rows as old_train");
  }
  if (sample_submission.ColumnNames() != old_train.ColumnNames()) {
    return CheckFailed("sample_submission should have the same columns as old_train");
  }

  RETURN_IF_ERROR(CheckImagesExist(extracted / "train", train_stems));
  RETURN_IF_ERROR(CheckImagesExist(extracted / "train", test_stems));

  RETURN_IF_ERROR(WriteCsvFile(answers, (private_dir / "answers.csv").string()));
  RETURN_IF_ERROR(
      WriteCsvFile(sample_submission, (private_dir / "sample_submission.csv").string()));
  // Upstream writes the public CSVs, zips each alone and deletes them.
  RETURN_IF_ERROR(
      WriteZip(public_dir / "sample_submission.csv.zip",
               {ZipEntry::FromBytes("sample_submission.csv", WriteCsvString(sample_submission))}));
  RETURN_IF_ERROR(WriteZip(public_dir / "train_labels.csv.zip",
                           {ZipEntry::FromBytes("train_labels.csv", WriteCsvString(new_train))}));
  RETURN_IF_ERROR(Write7z(public_dir / "train.7z", {SevenZipEntry::Directory("train")}));
  return Write7z(public_dir / "test.7z", {SevenZipEntry::Directory("test")});
}

MLEBENCH_REGISTER_PREPARER(
    CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
