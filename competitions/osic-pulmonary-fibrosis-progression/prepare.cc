// Upstream's osic-pulmonary-fibrosis-progression/prepare.py: Kaggle's
// train.csv split 90/10 by patient (sklearn's train_test_split over the
// patient groups, in Patient order).
//  - public/train.csv: the train patients' rows;
//  - public/test.csv: each test patient's earliest visit (rows sorted by
//    Weeks, then groupby("Patient").first(): per column the first non-missing
//    value; patients in Patient order);
//  - private/test.csv: every test patient crossed with every week from the
//    test rows' smallest to largest Weeks, left-merged with the test rows
//    (unmeasured weeks get missing values, so integer columns turn float),
//    plus Patient_Week ("<Patient>_<Weeks>") and Confidence (100);
//  - public/sample_submission.csv: Patient_Week, FVC 2000, Confidence 100;
//  - public/train/<Patient>/ and public/test/<Patient>/: copies of the
//    patients' raw/train/<Patient>/ directories (CT scans).
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
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
#include "pycompat/pandas_ops.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// Patient ids as text naming a directory in raw/train/.
absl::StatusOr<std::vector<std::string>> Patients(const Table& table) {
  ASSIGN_OR_RETURN(const Column* column, table.Get("Patient"));
  std::vector<std::string> names;
  for (size_t row = 0; row < column->cells.size(); ++row) {
    const std::string* name = std::get_if<std::string>(&column->cells[row]);
    if (name == nullptr || !IsPlainFileName(*name)) {
      return absl::InvalidArgumentError(
          absl::StrCat("train.csv row ", row, ": 'Patient' must be text naming a directory"));
    }
    names.push_back(*name);
  }
  return names;
}

std::vector<std::string> Unique(const std::vector<std::string>& values) {
  std::vector<std::string> unique;
  std::set<std::string> seen;
  for (const std::string& v : values) {
    if (seen.insert(v).second) unique.push_back(v);
  }
  return unique;
}

// `new_test.sort_values(by="Weeks").groupby("Patient").first().reset_index()`.
absl::StatusOr<Table> FirstVisits(const Table& test, const std::vector<std::string>& patients) {
  ASSIGN_OR_RETURN(std::vector<size_t> order, SortValuesOrder(*test.Find("Weeks")));
  std::map<std::string, std::vector<size_t>> rows_by_patient;  // rows in Weeks order
  for (size_t row : order) rows_by_patient[patients[row]].push_back(row);
  std::vector<Column> columns;
  columns.push_back(Column{.name = "Patient", .dtype = Dtype::kObject, .cells = {}});
  for (const auto& [patient, rows] : rows_by_patient) columns[0].cells.push_back(patient);
  for (const Column& column : test.columns()) {
    if (column.name == "Patient") continue;
    Column first{.name = column.name, .dtype = column.dtype, .cells = {}};
    for (const auto& [patient, rows] : rows_by_patient) {
      Cell value = std::monostate{};
      for (size_t row : rows) {
        if (!IsMissing(column.cells[row])) {
          value = column.cells[row];
          break;
        }
      }
      if (IsMissing(value) && first.dtype != Dtype::kObject) value = std::nan("");
      first.cells.push_back(value);
    }
    columns.push_back(std::move(first));
  }
  return Table(std::move(columns));
}

// The private answers: all_weeks.merge(new_test, on=["Patient", "Weeks"],
// how="left"), then Patient_Week and Confidence.
absl::StatusOr<Table> AllWeeks(const Table& test, const std::vector<std::string>& patients) {
  const Column& weeks = *test.Find("Weeks");
  int64_t min_week = INT64_MAX, max_week = INT64_MIN;
  std::map<std::pair<std::string, int64_t>, std::vector<size_t>> rows_by_key;
  for (size_t row = 0; row < weeks.cells.size(); ++row) {
    const int64_t week = std::get<int64_t>(weeks.cells[row]);
    min_week = std::min(min_week, week);
    max_week = std::max(max_week, week);
    rows_by_key[{patients[row], week}].push_back(row);
  }
  std::vector<Column> columns = {
      Column{.name = "Patient", .dtype = Dtype::kObject, .cells = {}},
      Column{.name = "Weeks", .dtype = Dtype::kInt64, .cells = {}}};
  std::vector<const Column*> others;
  for (const Column& column : test.columns()) {
    if (column.name == "Patient" || column.name == "Weeks") continue;
    others.push_back(&column);
    columns.push_back(Column{.name = column.name, .dtype = column.dtype, .cells = {}});
  }
  bool unmatched = false;
  for (const std::string& patient : Unique(patients)) {
    for (int64_t week = min_week; week <= max_week; ++week) {
      const auto it = rows_by_key.find({patient, week});
      const std::vector<size_t> none = {SIZE_MAX};
      for (size_t row : it == rows_by_key.end() ? none : it->second) {
        columns[0].cells.push_back(patient);
        columns[1].cells.push_back(week);
        for (size_t c = 0; c < others.size(); ++c) {
          columns[2 + c].cells.push_back(row == SIZE_MAX ? Cell(std::monostate{})
                                                         : others[c]->cells[row]);
        }
        unmatched |= row == SIZE_MAX;
      }
    }
  }
  // Missing values turn int64 and bool columns into float64 (NaN) and
  // object ones keep them as missing.
  if (unmatched) {
    for (size_t c = 2; c < columns.size(); ++c) {
      Column& column = columns[c];
      if (column.dtype == Dtype::kObject) continue;
      const bool was_bool = column.dtype == Dtype::kBool;
      if (was_bool) {
        column.dtype = Dtype::kObject;  // pandas: bool with NaN is object
        continue;
      }
      column.dtype = Dtype::kFloat64;
      for (Cell& cell : column.cells) {
        if (IsMissing(cell)) {
          cell = std::nan("");
        } else if (const int64_t* i = std::get_if<int64_t>(&cell)) {
          cell = static_cast<double>(*i);
        }
      }
    }
  }
  Column patient_week{.name = "Patient_Week", .dtype = Dtype::kObject, .cells = {}};
  for (size_t row = 0; row < columns[0].cells.size(); ++row) {
    patient_week.cells.push_back(absl::StrCat(std::get<std::string>(columns[0].cells[row]), "_",
                                              std::get<int64_t>(columns[1].cells[row])));
  }
  columns.push_back(std::move(patient_week));
  Table table(std::move(columns));
  RETURN_IF_ERROR(SetConstantColumn(table, "Confidence", Cell(int64_t{100})));
  return table;
}

absl::Status CopyPatientDirs(const fs::path& raw, const std::vector<std::string>& patients,
                             const fs::path& to_dir) {
  std::error_code error;
  fs::create_directories(to_dir, error);
  if (error) {
    return absl::InternalError(
        absl::StrCat("cannot create ", to_dir.string(), ": ", error.message()));
  }
  for (const std::string& patient : Unique(patients)) {
    RETURN_IF_ERROR(CopyFolderTree(raw / "train" / patient, to_dir / patient));
  }
  return absl::OkStatus();
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  ASSIGN_OR_RETURN(std::vector<std::string> patients, Patients(old_train));
  ASSIGN_OR_RETURN(const Column* weeks, old_train.Get("Weeks"));
  if (weeks->dtype != Dtype::kInt64) {
    return absl::InvalidArgumentError("train.csv: 'Weeks' must hold integers");
  }

  // groupby("Patient"): groups in Patient order, rows in file order.
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestIndices split, TrainTestSplitGroups(patients, options));
  const std::vector<int64_t>& train_rows = split.train_indices;
  const std::vector<int64_t>& test_rows = split.test_indices;
  ASSIGN_OR_RETURN(Table new_train, TakeRows(old_train, train_rows));
  ASSIGN_OR_RETURN(Table new_test, TakeRows(old_train, test_rows));
  std::vector<std::string> train_patients, test_patients;
  for (int64_t row : train_rows) train_patients.push_back((patients)[row]);
  for (int64_t row : test_rows) test_patients.push_back((patients)[row]);

  ASSIGN_OR_RETURN(Table public_test, FirstVisits(new_test, test_patients));
  ASSIGN_OR_RETURN(Table answers, AllWeeks(new_test, test_patients));
  std::map<std::string, size_t> rows_per_patient;
  for (const Cell& cell : answers.Find("Patient")->cells) {
    ++rows_per_patient[std::get<std::string>(cell)];
  }
  std::set<size_t> counts;
  for (const auto& [patient, count] : rows_per_patient) counts.insert(count);
  if (counts.size() != 1) return CheckFailed("Not all patients have the same number of rows.");
  ASSIGN_OR_RETURN(Table sample_submission, (SelectColumns(answers, {"Patient_Week"})));
  for (const auto& [name, value] : {std::pair{"FVC", 2000}, std::pair{"Confidence", 100}}) {
    RETURN_IF_ERROR(SetConstantColumn(sample_submission, name, Cell(int64_t{value})));
  }

  for (const auto& [table, path] : {
           std::pair{&new_train, public_dir / "train.csv"},
           std::pair{&public_test, public_dir / "test.csv"},
           std::pair{&answers, private_dir / "test.csv"},
           std::pair{&sample_submission, public_dir / "sample_submission.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  RETURN_IF_ERROR(CopyPatientDirs(raw, train_patients, public_dir / "train"));
  RETURN_IF_ERROR(CopyPatientDirs(raw, test_patients, public_dir / "test"));

  // Upstream's final checks (disjoint patients hold by construction).
  if (new_train.num_columns() != 7) {
    return CheckFailed(
        absl::StrCat("Expected 7 columns in new_train, but got ", new_train.num_columns()));
  }
  if (answers.num_columns() != 9) {
    return CheckFailed(
        absl::StrCat("Expected 9 columns in new_test, but got ", answers.num_columns()));
  }
  if (public_test.num_columns() != 7) {
    return CheckFailed(
        absl::StrCat("Expected 7 columns in new_test_public, but got ", public_test.num_columns()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(
    CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
