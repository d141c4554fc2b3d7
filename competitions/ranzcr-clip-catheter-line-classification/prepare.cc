// Upstream's ranzcr-clip-catheter-line-classification/prepare.py: a 90/10
// split of Kaggle's labelled train.csv. public/ gets the train rows, the
// train rows' annotations (train_annotations.csv filtered to them, in their
// original order), train/ and test/ images named by StudyInstanceUID, and a
// sample submission of zeros for the nine graded classes; private/test.csv
// is the test rows with every column.
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
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kIdColumn = "StudyInstanceUID";
const std::vector<std::string> kClasses = {
    "ETT - Abnormal", "ETT - Borderline", "ETT - Normal",
    "NGT - Abnormal", "NGT - Borderline", "NGT - Incompletely Imaged",
    "NGT - Normal",   "CVC - Abnormal",   "CVC - Borderline",
};

// The id column as text naming an image "<id>.jpg" directly in raw/train/
// (upstream joins it to a path; anything else would reach outside it).
absl::StatusOr<std::vector<std::string>> ImageIds(const Table& table, std::string_view file) {
  ASSIGN_OR_RETURN(const Column* ids, table.Get(kIdColumn));
  std::vector<std::string> names;
  names.reserve(ids->cells.size());
  for (size_t row = 0; row < ids->cells.size(); ++row) {
    const std::string* id = std::get_if<std::string>(&ids->cells[row]);
    if (id == nullptr || !IsPlainFileName(*id)) {
      return absl::InvalidArgumentError(absl::StrCat(std::string(file), " row ", row, ": '",
                                                     std::string(kIdColumn),
                                                     "' must be text naming an image in train/"));
    }
    names.push_back(*id);
  }
  return names;
}

// Copies raw/train/<id>.jpg to `to_dir`/<id>.jpg for each id, then checks,
// as upstream does, that `to_dir` holds one .jpg per row.
absl::Status CopyImages(const fs::path& raw, const std::vector<std::string>& ids,
                        const fs::path& to_dir, std::string_view split) {
  RETURN_IF_ERROR(CopyNamedFiles(raw / "train", to_dir, ids, ".jpg"));
  std::error_code error;
  size_t copied = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(to_dir, error)) {
    copied += entry.path().extension() == ".jpg";
  }
  if (error) return absl::InternalError(absl::StrCat("cannot list public/", std::string(split)));
  if (copied != ids.size()) {
    return CheckFailed(absl::StrCat("Expected ", ids.size(), " files in public ",
                                    std::string(split), ", got ", copied));
  }
  return absl::OkStatus();
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

  ASSIGN_OR_RETURN(Table old_annotations, ReadCsvFile((raw / "train_annotations.csv").string()));
  ASSIGN_OR_RETURN(const Column* annotation_ids, old_annotations.Get(kIdColumn));
  ASSIGN_OR_RETURN(std::vector<std::string> train_ids, ImageIds(new_train, "train.csv"));
  ASSIGN_OR_RETURN(std::vector<std::string> test_ids, ImageIds(new_test, "train.csv"));
  // Series.isin: text ids match text ids only.
  const std::set<std::string> train_id_set(train_ids.begin(), train_ids.end());
  std::vector<int64_t> kept_annotations;
  for (size_t row = 0; row < annotation_ids->cells.size(); ++row) {
    const std::string* id = std::get_if<std::string>(&annotation_ids->cells[row]);
    if (id != nullptr && train_id_set.contains(*id)) kept_annotations.push_back(row);
  }
  ASSIGN_OR_RETURN(Table new_annotations, TakeRows(old_annotations, kept_annotations));

  RETURN_IF_ERROR(CopyImages(raw, train_ids, public_dir / "train", "train"));
  RETURN_IF_ERROR(CopyImages(raw, test_ids, public_dir / "test", "test"));

  std::vector<std::string> submission_columns = {std::string(kIdColumn)};
  submission_columns.insert(submission_columns.end(), kClasses.begin(), kClasses.end());
  ASSIGN_OR_RETURN(Table sample_submission, SelectColumns(new_test, submission_columns));
  for (const std::string& name : kClasses) {
    RETURN_IF_ERROR(SetConstantColumn(sample_submission, name, int64_t{0}));
  }

  for (const auto& [table, path] : {
           std::pair{&new_train, public_dir / "train.csv"},
           std::pair{static_cast<const Table*>(&new_annotations),
                     public_dir / "train_annotations.csv"},
           std::pair{&new_test, private_dir / "test.csv"},
           std::pair{static_cast<const Table*>(&sample_submission),
                     public_dir / "sample_submission.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
