// Upstream's tgs-salt-identification-challenge/prepare.py: Kaggle's labelled
// train set (competition_data.zip: train.csv, train/images, train/masks) split
// 75/25; the test images lose their masks, and depths.csv keeps only the
// train ids.

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "formats/zip_archive.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// upstream's `applymap(lambda x: isinstance(x, str))` after `fillna("")`:
// every cell is text or missing.
bool AllText(const Table& table) {
  for (const Column& column : table.columns()) {
    for (const Cell& cell : column.cells) {
      if (!std::holds_alternative<std::string>(cell) && !IsMissing(cell)) return false;
    }
  }
  return true;
}

// The `id` column's values, which must be text that names a file inside a
// folder (upstream matches them against image file stems).
absl::StatusOr<std::vector<std::string>> ImageIds(const Table& table) {
  ASSIGN_OR_RETURN(const Column* ids, table.Get("id"));
  std::vector<std::string> out;
  for (size_t row = 0; row < ids->cells.size(); ++row) {
    const std::string* id = std::get_if<std::string>(&ids->cells[row]);
    if (id == nullptr || id->empty() ||
        id->find_first_of(std::string_view("/\\\0", 3)) != std::string::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("train.csv row ", row, ": 'id' must be an image file stem"));
    }
    out.push_back(*id);
  }
  return out;
}

// `table.sort_values(by="id")`.
absl::StatusOr<Table> SortedById(const Table& table) {
  ASSIGN_OR_RETURN(const Column* ids, table.Get("id"));
  ASSIGN_OR_RETURN(std::vector<size_t> order, SortValuesOrder(*ids));
  const std::vector<int64_t> rows(order.begin(), order.end());
  return TakeRows(table, rows);
}

absl::Status WriteSortedById(const Table& table, const fs::path& path) {
  ASSIGN_OR_RETURN(Table sorted, SortedById(table));
  return WriteCsvFile(sorted, path.string());
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& scratch) {
  // Upstream extracts into raw/; we extract into scratch/.
  RETURN_IF_ERROR(ExtractZip(raw / "competition_data.zip", scratch));
  const fs::path data = scratch / "competition_data";
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((data / "train.csv").string()));

  TrainTestSplitOptions options;
  options.test_size = 0.25;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  const Table& new_train = split.train;
  const Table& new_test = split.test;

  // Upstream's checks, run before anything is written.
  if (!AllText(new_train) || !AllText(new_test)) {
    return CheckFailed("Not all elements in the DataFrame are strings!");
  }
  ASSIGN_OR_RETURN(std::vector<std::string> train_ids, ImageIds(new_train));
  ASSIGN_OR_RETURN(std::vector<std::string> test_ids, ImageIds(new_test));
  const std::set<std::string> train_id_set(train_ids.begin(), train_ids.end());
  const std::set<std::string> test_id_set(test_ids.begin(), test_ids.end());
  for (const std::string& id : test_id_set) {
    if (train_id_set.count(id) > 0) {
      return CheckFailed("`id` is not disjoint between train and test sets");
    }
  }
  // Every row has its own image: the images (*.png) number the rows, and
  // each id names one of them.
  const fs::path images = data / "train" / "images";
  size_t image_count = 0;
  std::error_code error;
  for (fs::directory_iterator it(images, error), end; !error && it != end; it.increment(error)) {
    if (it->path().extension() == ".png") ++image_count;
  }
  if (error) return absl::NotFoundError("competition_data.zip has no train/images folder");
  if (image_count != old_train.num_rows()) {
    return CheckFailed(
        "The number of images in the old train set doesn't match the number of training images!");
  }
  size_t matched = 0;
  for (const std::set<std::string>* ids : {&train_id_set, &test_id_set}) {
    for (const std::string& id : *ids) matched += fs::is_regular_file(images / (id + ".png"));
  }
  if (matched != image_count) {
    return CheckFailed("Some images were lost when creating the new train and test sets!");
  }

  ASSIGN_OR_RETURN(Table sample_submission, (DropColumns(new_test, {"rle_mask"})));
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "rle_mask", std::string("1 1")));

  ASSIGN_OR_RETURN(Table old_depths, ReadCsvFile((raw / "depths.csv").string()));
  ASSIGN_OR_RETURN(const Column* depth_ids, old_depths.Get("id"));
  std::vector<int64_t> train_depth_rows;
  for (size_t row = 0; row < depth_ids->cells.size(); ++row) {
    const std::string* id = std::get_if<std::string>(&depth_ids->cells[row]);
    if (id != nullptr && train_id_set.count(*id) > 0) train_depth_rows.push_back(row);
  }
  ASSIGN_OR_RETURN(Table new_depths, TakeRows(old_depths, train_depth_rows));

  RETURN_IF_ERROR(WriteSortedById(new_train, public_dir / "train.csv"));
  RETURN_IF_ERROR(WriteSortedById(new_test, private_dir / "test.csv"));
  RETURN_IF_ERROR(CopyNamedFiles(images, public_dir / "train" / "images", train_ids, ".png"));
  RETURN_IF_ERROR(
      CopyNamedFiles(data / "train" / "masks", public_dir / "train" / "masks", train_ids, ".png"));
  RETURN_IF_ERROR(CopyNamedFiles(images, public_dir / "test" / "images", test_ids, ".png"));
  RETURN_IF_ERROR(WriteSortedById(sample_submission, public_dir / "sample_submission.csv"));
  return WriteSortedById(new_depths, public_dir / "depths.csv");
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
