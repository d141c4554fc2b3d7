// Upstream's rsna-breast-cancer-detection/prepare.py: Kaggle's train.csv is
// split by patient (train_test_split of the unique patient ids, test_size
// 0.1, random_state 42). The held-out patients' images become the test set:
// public/test.csv keeps upstream's test columns plus prediction_id
// ("<patient_id>_<laterality>"), private/answers.csv has one `cancer` label
// per prediction_id (the first of the breast's images, sorted by id), and
// the sample submission predicts the new train set's mean cancer rate. The
// DICOM files are copied to public/{train,test}_images/<patient>/<image>.dcm.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/group_split.h"
#include "competitions/common/preparer.h"
#include "pycompat/numpy_sum.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_str.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// Upstream's columns of test.csv; the last one is built here.
const std::vector<std::string>& TestColumns() {
  static const auto* columns = new std::vector<std::string>{
      "site_id", "patient_id", "image_id", "laterality", "view",
      "age",     "implant",    "machine_id", "prediction_id"};
  return *columns;
}

// A patient id as a Python set/dict key: its type and its str().
using PatientKey = std::pair<size_t, std::string>;
PatientKey KeyOf(const Cell& cell) { return {cell.index(), PythonStr(cell)}; }

// A value used as a file or folder name by upstream (str() of it).
absl::StatusOr<std::string> PathName(const Cell& cell, std::string_view what) {
  const std::string name = PythonStr(cell);
  if (IsMissing(cell) || !IsPlainFileName(name)) {
    return absl::InvalidArgumentError(
        absl::StrCat("train.csv: ", std::string(what), " '", name, "' is not a file name"));
  }
  return name;
}

// `train.cancer.mean()` (pandas skips NaN: the sum runs over the column
// with NaN as 0, divided by the number of present values).
absl::StatusOr<double> PandasMean(const Column& column) {
  std::vector<double> values;
  values.reserve(column.cells.size());
  size_t count = 0;
  for (const Cell& cell : column.cells) {
    const std::optional<double> value = NumericValue(cell);
    if (!value.has_value()) {
      return absl::InvalidArgumentError("train.csv: `cancer` holds text; pandas cannot average it");
    }
    const bool missing = *value != *value;
    values.push_back(missing ? 0.0 : *value);
    count += !missing;
  }
  return NumpySum(values) / static_cast<double>(count);
}

// `answers.groupby("prediction_id").first().reset_index()`: keys sorted,
// each with its first non-missing `cancer`.
Table FirstPerPredictionId(const Column& ids, const Column& cancer) {
  std::map<std::string, Cell> first;
  for (size_t row = 0; row < ids.cells.size(); ++row) {
    const std::string& id = std::get<std::string>(ids.cells[row]);
    auto [it, inserted] = first.try_emplace(id, cancer.cells[row]);
    if (!inserted && IsMissing(it->second)) it->second = cancer.cells[row];
  }
  Column id_column{.name = "prediction_id", .dtype = Dtype::kObject};
  Column cancer_column{.name = "cancer", .dtype = cancer.dtype};
  for (auto& [id, label] : first) {
    id_column.cells.emplace_back(id);
    cancer_column.cells.push_back(label);
  }
  return Table({std::move(id_column), std::move(cancer_column)});
}

// Copies raw/train_images/<patient>/<image>.dcm of every row of `table`
// into dest/<patient>/, creating a folder for each of `patients`, then
// checks upstream's count of the .dcm files under `dest`.
absl::Status CopyImages(const fs::path& raw, const Table& table,
                        const std::vector<std::string>& patients, const fs::path& dest,
                        std::string_view check) {
  std::error_code error;
  for (const std::string& patient : patients) {
    fs::create_directories(dest / patient, error);
    if (error) {
      return absl::InternalError(absl::StrCat("cannot create ", (dest / patient).string(), ": ",
                                              error.message()));
    }
  }
  const Column& patient_ids = *table.Find("patient_id");
  const Column& image_ids = *table.Find("image_id");
  std::vector<std::string> files;  // <patient>/<image>
  for (size_t row = 0; row < table.num_rows(); ++row) {
    ASSIGN_OR_RETURN(std::string patient, PathName(patient_ids.cells[row], "patient_id"));
    ASSIGN_OR_RETURN(std::string image, PathName(image_ids.cells[row], "image_id"));
    files.push_back(absl::StrCat(patient, "/", image));
  }
  RETURN_IF_ERROR(CopyNamedFiles(raw / "train_images", dest, files, ".dcm"));
  size_t count = 0;
  for (auto it = fs::recursive_directory_iterator(dest, error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    count += it->path().extension() == ".dcm";
  }
  if (error) return absl::InternalError(absl::StrCat("cannot list ", dest.string()));
  if (count != table.num_rows()) return CheckFailed(check);
  return absl::OkStatus();
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  std::vector<std::string> answer_columns(TestColumns().begin(), TestColumns().end() - 1);
  answer_columns.push_back("cancer");
  for (const std::string& name : answer_columns) {
    if (absl::StatusOr<const Column*> column = old_train.Get(name); !column.ok()) {
      return column.status();
    }
  }

  // patient_ids = old_train["patient_id"].unique(), in order of appearance.
  const Column& patient_column = *old_train.Find("patient_id");
  std::vector<Cell> patient_ids;
  std::vector<std::string> patient_names;
  std::map<PatientKey, size_t> patient_index;
  std::vector<size_t> row_patient;
  for (const Cell& cell : patient_column.cells) {
    ASSIGN_OR_RETURN(std::string name, PathName(cell, "patient_id"));
    auto [it, inserted] = patient_index.try_emplace(KeyOf(cell), patient_ids.size());
    if (inserted) {
      patient_ids.push_back(cell);
      patient_names.push_back(name);
    }
    row_patient.push_back(it->second);
  }

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 42;
  ASSIGN_OR_RETURN(GroupSplit split, SplitRowsByGroup(patient_names, row_patient, options));
  const std::vector<std::string>& train_patients = split.train_groups;
  const std::vector<std::string>& test_patients = split.test_groups;
  const std::vector<int64_t>& train_rows = split.train_rows;
  const std::vector<int64_t>& test_rows = split.test_rows;

  ASSIGN_OR_RETURN(Table new_train, TakeRows(old_train, train_rows));
  ASSIGN_OR_RETURN(Table test_rows_table, TakeRows(old_train, test_rows));
  ASSIGN_OR_RETURN(Table answers, SelectColumns(test_rows_table, answer_columns));
  RETURN_IF_ERROR(WriteCsvFile(new_train, (public_dir / "train.csv").string()));

  // answers["prediction_id"] = answers["patient_id"].astype(str) + "_" + answers["laterality"]
  Column prediction_ids{.name = "prediction_id", .dtype = Dtype::kObject};
  const Column& laterality = *answers.Find("laterality");
  for (size_t row = 0; row < answers.num_rows(); ++row) {
    const std::string* side = std::get_if<std::string>(&laterality.cells[row]);
    if (side == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "train.csv: laterality '", PythonStr(laterality.cells[row]),
          "' is not text, so pandas cannot append it to the prediction id"));
    }
    prediction_ids.cells.emplace_back(
        absl::StrCat(PythonStr(answers.Find("patient_id")->cells[row]), "_", *side));
  }
  answers.mutable_columns().push_back(prediction_ids);
  ASSIGN_OR_RETURN(Table new_test_without_labels, (DropColumns(answers, {"cancer"})));
  RETURN_IF_ERROR(WriteCsvFile(new_test_without_labels, (public_dir / "test.csv").string()));

  const Table per_breast = FirstPerPredictionId(prediction_ids, *answers.Find("cancer"));
  RETURN_IF_ERROR(WriteCsvFile(per_breast, (private_dir / "answers.csv").string()));
  ASSIGN_OR_RETURN(double cancer_rate, PandasMean(*new_train.Find("cancer")));
  Table sample_submission = per_breast;
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "cancer", cancer_rate));
  RETURN_IF_ERROR(WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string()));
  if (per_breast.num_rows() == new_test_without_labels.num_rows()) {
    return CheckFailed("new_test and new_test_without_labels should have different number of rows");
  }

  RETURN_IF_ERROR(CopyImages(raw, new_train, train_patients, public_dir / "train_images",
                             "Number of images in train_images should be equal to the "
                             "number of rows in new_train"));
  return CopyImages(raw, new_test_without_labels, test_patients, public_dir / "test_images",
                    "Number of images in test_images should be equal to the number of rows in "
                    "new_test_without_labels");
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
