// Upstream's paddy-disease-classification/prepare.py: a 75/25 split of
// Kaggle's labelled train.csv (Kaggle's own split had 10407 train to 3469
// test images). Train images keep their per-label folders
// (train_images/<label>/<image_id>); test images are flattened into
// test_images/<image_id>, and the answers keep every column of train.csv.
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
#include "competitions/common/preparer.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// One image of a split: where upstream copies it from (relative to raw/)
// and to (relative to public/).
struct ImageCopy {
  fs::path from;
  fs::path to;
};

// The text of `column` at `row` when it can name one entry of a folder;
// upstream joins it into a path, so anything else would reach outside the
// image folders (or, for a number, make pathlib raise).
absl::StatusOr<std::string> PathPart(const Table& table, std::string_view column, size_t row) {
  ASSIGN_OR_RETURN(const Column* c, table.Get(column));
  const std::string* text = std::get_if<std::string>(&c->cells[row]);
  if (text == nullptr || !IsPlainFileName(*text)) {
    return absl::InvalidArgumentError(
        absl::StrCat("train.csv row ", row, ": '", std::string(column),
                     "' must be a plain file or folder name"));
  }
  return *text;
}

// The copies upstream makes for one split. Its `copy` asserts that the
// source exists and the destination does not, so a destination named twice
// is an error. `flat` puts images directly in `folder` (the test split);
// otherwise in `folder`/<label>/.
absl::StatusOr<std::vector<ImageCopy>> PlanCopies(const Table& split, std::string_view folder,
                                                  bool flat, const fs::path& raw) {
  std::vector<ImageCopy> copies;
  std::set<fs::path> destinations;
  for (size_t row = 0; row < split.num_rows(); ++row) {
    ASSIGN_OR_RETURN(std::string id, PathPart(split, "image_id", row));
    ASSIGN_OR_RETURN(std::string label, PathPart(split, "label", row));
    ImageCopy copy{fs::path("train_images") / label / id,
                   flat ? fs::path(folder) / id : fs::path(folder) / label / id};
    if (!fs::is_regular_file(raw / copy.from)) {
      return CheckFailed(absl::StrCat(copy.from.string(), " does not exist"));
    }
    if (!destinations.insert(copy.to).second) {
      return CheckFailed(absl::StrCat(copy.to.string(), " already exists"));
    }
    copies.push_back(std::move(copy));
  }
  return copies;
}

// What upstream's closing `public.glob(pattern)` counts would miss: names
// that do not end in ".jpg" or that start with "." (glob's `*` skips them).
bool GlobMatchesJpg(const fs::path& relative) {
  for (const fs::path& part : relative) {
    if (part.string().starts_with(".")) return false;
  }
  return relative.filename().string().ends_with(".jpg");
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  ASSIGN_OR_RETURN(Table old_sample, ReadCsvFile((raw / "sample_submission.csv").string()));

  TrainTestSplitOptions options;
  options.train_size = 0.75;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  const Table& new_train = split.train;
  const Table& new_test = split.test;
  ASSIGN_OR_RETURN(Table sample, (SelectColumns(new_test, {"image_id", "label"})));
  RETURN_IF_ERROR(SetConstantColumn(sample, "label", std::string()));

  // Upstream's copies and checks (it runs them after writing the CSVs; we
  // run them first so that bad input leaves no output).
  ASSIGN_OR_RETURN(std::vector<ImageCopy> train_copies,
                   PlanCopies(new_train, "train_images", /*flat=*/false, raw));
  ASSIGN_OR_RETURN(std::vector<ImageCopy> test_copies,
                   PlanCopies(new_test, "test_images", /*flat=*/true, raw));
  std::set<std::string> train_ids;
  for (size_t row = 0; row < new_train.num_rows(); ++row) {
    train_ids.insert(*PathPart(new_train, "image_id", row));
  }
  for (size_t row = 0; row < new_test.num_rows(); ++row) {
    if (train_ids.count(*PathPart(new_test, "image_id", row)) > 0) {
      return CheckFailed("Train and test sets overlap!");
    }
  }
  const std::vector<std::string> train_columns = new_train.ColumnNames();
  const std::vector<std::string> old_train_columns = old_train.ColumnNames();
  if (std::set<std::string>(train_columns.begin(), train_columns.end()) !=
      std::set<std::string>(old_train_columns.begin(), old_train_columns.end())) {
    return CheckFailed("the new train set should have the original train set's columns");
  }
  const std::vector<std::string> sample_columns = sample.ColumnNames();
  const std::vector<std::string> old_sample_columns = old_sample.ColumnNames();
  if (std::set<std::string>(sample_columns.begin(), sample_columns.end()) !=
      std::set<std::string>(old_sample_columns.begin(), old_sample_columns.end())) {
    return CheckFailed(
        "the new sample submission should have the original sample submission's columns");
  }
  for (const auto& copies : {&train_copies, &test_copies}) {
    for (const ImageCopy& copy : *copies) {
      if (!GlobMatchesJpg(copy.to)) {
        return CheckFailed(absl::StrCat(
            "the number of images in public/ should match the number of rows; ",
            copy.to.string(), " is not a *.jpg file"));
      }
    }
  }

  for (const auto& [table, path] : {
           std::pair{&new_train, public_dir / "train.csv"},
           std::pair{static_cast<const Table*>(&sample), public_dir / "sample_submission.csv"},
           std::pair{&new_test, private_dir / "test.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  for (const auto& copies : {&train_copies, &test_copies}) {
    for (const ImageCopy& copy : *copies) {
      std::error_code error;
      fs::create_directories((public_dir / copy.to).parent_path(), error);
      if (!error) fs::copy_file(raw / copy.from, public_dir / copy.to, error);
      if (error) {
        return absl::InternalError(absl::StrCat("cannot copy ", copy.from.string(), " to public/",
                                                copy.to.string(), ": ", error.message()));
      }
    }
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(
    CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
