// Upstream's rsna-miccai-brain-tumor-radiogenomic-classification/prepare.py:
// a 90/10 train_test_split of Kaggle's labelled cases (train_labels.csv),
// each case's folder of DICOM series copied whole into public/train or
// public/test, the held-out labels as private/test.csv and a sample
// submission of 0.5 for every held-out case.
#include <filesystem>
#include <string>
#include <system_error>
#include <variant>
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

// Upstream reads with dtype={"BraTS21ID": str, "MGMT_value": int}: pandas
// rejects a label column that is not all integers (a missing or fractional
// value, text).
absl::Status CheckIntegerLabels(const Table& table) {
  ASSIGN_OR_RETURN(const Column* labels, table.Get("MGMT_value"));
  for (size_t row = 0; row < labels->cells.size(); ++row) {
    if (!std::holds_alternative<int64_t>(labels->cells[row])) {
      return absl::InvalidArgumentError(absl::StrCat(
          "train_labels.csv row ", row, ": MGMT_value must be an integer, as upstream reads it "
          "with dtype int"));
    }
  }
  return absl::OkStatus();
}

// The case ids as folder names: text naming a folder directly inside
// raw/train (upstream joins it to a path; anything else would reach
// outside it or is not a name at all).
absl::StatusOr<std::vector<std::string>> CaseIds(const Table& table) {
  ASSIGN_OR_RETURN(const Column* ids, table.Get("BraTS21ID"));
  std::vector<std::string> names;
  names.reserve(ids->cells.size());
  for (size_t row = 0; row < ids->cells.size(); ++row) {
    const std::string* id = std::get_if<std::string>(&ids->cells[row]);
    if (id == nullptr || !IsPlainFileName(*id)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "train_labels.csv: 'BraTS21ID' must be a case folder name, got ",
          id == nullptr ? std::string("a missing value") : absl::StrCat("'", *id, "'")));
    }
    names.push_back(*id);
  }
  return names;
}

// shutil.copytree(raw/train/<id>, <dest>/<id>, dirs_exist_ok=True) for
// each id, then upstream's count of the folders in `dest`.
absl::Status CopyCases(const fs::path& raw_train, const std::vector<std::string>& ids,
                       const fs::path& dest, std::string_view split) {
  std::error_code error;
  fs::create_directories(dest, error);
  if (error) return absl::InternalError(absl::StrCat("cannot create ", dest.string(), ": ", error.message()));
  for (const std::string& id : ids) {
    const fs::path source = raw_train / id;
    if (!fs::is_directory(source)) {
      return absl::NotFoundError(absl::StrCat("raw data has no case folder train/", id));
    }
    fs::create_directories(dest / id, error);
    if (!error) {
      fs::copy(source, dest / id,
               fs::copy_options::recursive | fs::copy_options::overwrite_existing, error);
    }
    if (error) {
      return absl::InternalError(
          absl::StrCat("cannot copy train/", id, " to ", std::string(split), ": ", error.message()));
    }
  }
  size_t entries = 0;
  for (auto it = fs::directory_iterator(dest, error); !error && it != fs::directory_iterator();
       it.increment(error)) {
    ++entries;
  }
  if (error) return absl::InternalError(absl::StrCat("cannot list ", dest.string()));
  if (entries != ids.size()) {
    return CheckFailed("Public train should have the same number of images as the train set");
  }
  return absl::OkStatus();
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  CsvReadOptions read_options;
  read_options.string_columns = {"BraTS21ID"};
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train_labels.csv").string(), read_options));
  RETURN_IF_ERROR(CheckIntegerLabels(old_train));
  if (absl::StatusOr<const Column*> ids = old_train.Get("BraTS21ID"); !ids.ok()) {
    return ids.status();
  }

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  const Table& new_train = split.train;
  const Table& new_test = split.test;

  ASSIGN_OR_RETURN(std::vector<std::string> train_ids, CaseIds(new_train));
  ASSIGN_OR_RETURN(std::vector<std::string> test_ids, CaseIds(new_test));
  RETURN_IF_ERROR(CopyCases(raw / "train", train_ids, public_dir / "train", "train"));
  RETURN_IF_ERROR(CopyCases(raw / "train", test_ids, public_dir / "test", "test"));

  Table sample_submission = new_test;
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "MGMT_value", 0.5));
  RETURN_IF_ERROR(WriteCsvFile(new_train, (public_dir / "train_labels.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(new_test, (private_dir / "test.csv").string()));
  return WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string());
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
