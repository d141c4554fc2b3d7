// Upstream's aerial-cactus-identification/prepare.py: a 81/19 split of the
// labelled train.csv (Kaggle's test set has 4000 images to 17500 train), with
// Kaggle's train.zip of images re-packed into one archive per split.
#include <algorithm>
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
#include "formats/zip_archive.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

// A table and the file it is written to.
using CsvOutput = std::pair<const Table*, std::filesystem::path>;

namespace fs = std::filesystem;

// The `id` column as image file names: text that names a file directly
// inside a folder (upstream joins it to a path; anything else would reach
// outside the image folder or is not a file name at all).
absl::StatusOr<std::vector<std::string>> ImageIds(const Table& table, std::string_view what) {
  ASSIGN_OR_RETURN(const Column* ids, table.Get("id"));
  std::vector<std::string> names;
  names.reserve(ids->cells.size());
  for (size_t row = 0; row < ids->cells.size(); ++row) {
    const std::string* id = std::get_if<std::string>(&ids->cells[row]);
    if (id == nullptr || !IsPlainFileName(*id)) {
      return absl::InvalidArgumentError(absl::StrCat(
          std::string(what), " row ", row, ": 'id' must be an image file name, got ",
          id == nullptr ? std::string("a missing or non-text value") : absl::StrCat("'", *id, "'")));
    }
    names.push_back(*id);
  }
  return names;
}

// The images named by `ids`, from the extracted folder, as archive entries
// at the archive root. Sorted by name so that the archive is deterministic
// (upstream adds them in its file system's directory order).
absl::StatusOr<std::vector<ZipEntry>> ImageEntries(const fs::path& image_dir,
                                                   std::vector<std::string> ids) {
  std::sort(ids.begin(), ids.end());
  std::vector<ZipEntry> entries;
  entries.reserve(ids.size());
  for (std::string& id : ids) {
    const fs::path image = image_dir / id;
    if (!fs::is_regular_file(image)) {
      return absl::NotFoundError(absl::StrCat("train.zip has no image train/", id));
    }
    entries.push_back(ZipEntry::FromFile(std::move(id), image));
  }
  return entries;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& scratch) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));

  TrainTestSplitOptions options;
  options.test_size = 0.19;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  const Table& new_train = split.train;
  const Table& new_test = split.test;
  Table sample_submission = new_test;
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "has_cactus", 0.5));

  // Upstream's checks (it runs them after writing; we run them first so that
  // bad input leaves no output).
  if (new_train.num_rows() + new_test.num_rows() != old_train.num_rows()) {
    return CheckFailed("The lengths of the splits should add up to the original");
  }
  if (new_train.num_rows() <= new_test.num_rows()) {
    return CheckFailed("The train set should be larger than the test set");
  }
  if (new_test.num_rows() != sample_submission.num_rows()) {
    return CheckFailed("The test set should match the sample submission");
  }
  if (new_train.ColumnNames() != sample_submission.ColumnNames()) {
    return CheckFailed("All dataframes should have the same columns, i.e. ['id', 'has_cactus']");
  }
  ASSIGN_OR_RETURN(std::vector<std::string> train_ids, ImageIds(new_train, "train.csv"));
  ASSIGN_OR_RETURN(std::vector<std::string> test_ids, ImageIds(new_test, "train.csv"));
  const std::set<std::string> train_id_set(train_ids.begin(), train_ids.end());
  const std::set<std::string> test_id_set(test_ids.begin(), test_ids.end());
  for (const std::string& id : test_ids) {
    if (train_id_set.count(id) > 0) return CheckFailed("Train and test ids should not overlap");
  }
  if (train_id_set.size() != train_ids.size()) {
    return CheckFailed("There should be no duplicate ids in train");
  }
  if (test_id_set.size() != test_ids.size()) {
    return CheckFailed("There should be no duplicate ids in test");
  }

  // Upstream extracts raw/train.zip into raw/ (giving raw/train/<id>) and
  // copies each split's images to a folder that it compresses; we extract
  // into scratch/ and archive straight from there.
  const fs::path extracted = scratch / "train_zip";
  RETURN_IF_ERROR(ExtractZip(raw / "train.zip", extracted));
  ASSIGN_OR_RETURN(std::vector<ZipEntry> train_images,
                   ImageEntries(extracted / "train", std::move(train_ids)));
  ASSIGN_OR_RETURN(std::vector<ZipEntry> test_images,
                   ImageEntries(extracted / "train", std::move(test_ids)));

  for (const auto& [table, path] : {
           CsvOutput{&new_train, public_dir / "train.csv"},
           CsvOutput{&new_test, private_dir / "test.csv"},
           CsvOutput{&sample_submission, public_dir / "sample_submission.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  RETURN_IF_ERROR(WriteZip(public_dir / "train.zip", train_images));
  return WriteZip(public_dir / "test.zip", test_images);
}

MLEBENCH_REGISTER_PREPARER(
    CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
