// Upstream's petfinder-pawpularity-score/prepare.py: a 90/10 split of
// Kaggle's labelled train.csv. public/ gets the train rows, the test rows
// without `Pawpularity`, train/ and test/ images named by Id, and a sample
// submission of random scores (numpy's `default_rng(0).uniform(1, 100)`
// rounded to 2 decimals); private/test.csv is the test rows with labels.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "pycompat/numpy_default_rng.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kIdColumn = "Id";
constexpr std::string_view kTargetColumn = "Pawpularity";

// numpy's `round(x, 2)` on float64: x * 100, rint (half to even), / 100.
double RoundTo2Decimals(double x) { return std::nearbyint(x * 100.0) / 100.0; }

// The Id column as text naming an image "<Id>.jpg" directly in raw/train/
// (upstream joins it to a path; anything else would reach outside it).
absl::StatusOr<std::vector<std::string>> ImageIds(const Table& table) {
  ASSIGN_OR_RETURN(const Column* ids, table.Get(kIdColumn));
  std::vector<std::string> names;
  names.reserve(ids->cells.size());
  for (size_t row = 0; row < ids->cells.size(); ++row) {
    const std::string* id = std::get_if<std::string>(&ids->cells[row]);
    if (id == nullptr || !IsPlainFileName(*id)) {
      return absl::InvalidArgumentError(
          absl::StrCat("train.csv row ", row, ": 'Id' must be text naming an image in train/"));
    }
    names.push_back(*id);
  }
  return names;
}

// Copies raw/train/<id>.jpg into `to_dir` for each id; returns how many
// .jpg files `to_dir` then holds.
absl::StatusOr<size_t> CopyImages(const fs::path& raw, const std::vector<std::string>& ids,
                                  const fs::path& to_dir) {
  RETURN_IF_ERROR(CopyNamedFiles(raw / "train", to_dir, ids, ".jpg"));
  std::error_code error;
  size_t count = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(to_dir, error)) {
    count += entry.path().extension() == ".jpg";
  }
  if (error) return absl::InternalError("cannot list the copied images");
  return count;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  const Table& new_train = split.train;
  const Table& new_test = split.test;
  ASSIGN_OR_RETURN(Table public_test, (DropColumns(new_test, {std::string(kTargetColumn)})));
  ASSIGN_OR_RETURN(Table sample_submission,
                   (SelectColumns(new_test, {std::string(kIdColumn), std::string(kTargetColumn)})));
  const std::vector<double> scores =
      NumpyDefaultRng(0).Uniform(1.0, 100.0, sample_submission.num_rows());
  for (Column& column : sample_submission.mutable_columns()) {
    if (column.name != kTargetColumn) continue;
    column.dtype = Dtype::kFloat64;
    for (size_t i = 0; i < scores.size(); ++i) column.cells[i] = RoundTo2Decimals(scores[i]);
  }
  ASSIGN_OR_RETURN(std::vector<std::string> train_ids, ImageIds(new_train));
  ASSIGN_OR_RETURN(std::vector<std::string> test_ids, ImageIds(new_test));

  for (const auto& [table, path] : {
           std::pair{&new_train, public_dir / "train.csv"},
           std::pair{&new_test, private_dir / "test.csv"},
           std::pair{static_cast<const Table*>(&public_test), public_dir / "test.csv"},
           std::pair{static_cast<const Table*>(&sample_submission),
                     public_dir / "sample_submission.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  ASSIGN_OR_RETURN(size_t train_images, CopyImages(raw, train_ids, public_dir / "train"));
  ASSIGN_OR_RETURN(size_t test_images, CopyImages(raw, test_ids, public_dir / "test"));

  // Upstream's checks (the length ones hold by construction).
  const std::vector<std::string> columns = old_train.ColumnNames();
  if (columns.back() != kTargetColumn) {
    return CheckFailed("Public test columns should match train columns, minus the target column");
  }
  const std::set<std::string> train_id_set(train_ids.begin(), train_ids.end());
  for (const std::string& id : test_ids) {
    if (train_id_set.contains(id)) return CheckFailed("Train and test ids should not overlap");
  }
  if (train_images != train_ids.size()) {
    return CheckFailed("Train images should match the train set");
  }
  if (test_images != test_ids.size()) return CheckFailed("Test images should match the test set");
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(
    CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
