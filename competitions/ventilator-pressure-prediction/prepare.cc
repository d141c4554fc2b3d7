// Upstream's ventilator-pressure-prediction/prepare.py: Kaggle's train.csv
// split 90/10 by breath (whole breaths on one side), ids renumbered from 1
// in each part. public/ gets train.csv, test.csv (without `pressure`) and a
// sample submission (pressure 0); private/test.csv is the test rows with
// pressure. Floats are written with float_format="%.10g".
//
// Upstream reads with dtypes id/breath_id int32, R/C/u_out int8 and
// time_step/u_in/pressure float64: we require those columns to hold
// integers in range (pandas raises otherwise) and write the float columns
// as floats even where the CSV spelled them as integers.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <string>
#include <string_view>
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

struct IntColumnSpec {
  std::string_view name;
  int64_t min;
  int64_t max;
};
constexpr IntColumnSpec kIntColumns[] = {
    {"id", std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()},
    {"breath_id", std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()},
    {"R", -128, 127},
    {"C", -128, 127},
    {"u_out", -128, 127},
};
constexpr std::string_view kFloatColumns[] = {"time_step", "u_in", "pressure"};

// read_csv's `dtype=` for the columns present: integer columns must hold
// integers in the type's range; float columns become float64.
absl::Status ApplyUpstreamDtypes(Table& table) {
  for (const IntColumnSpec& spec : kIntColumns) {
    const Column* column = table.Find(spec.name);
    if (column == nullptr) continue;
    if (column->dtype != Dtype::kInt64) {
      return absl::InvalidArgumentError(absl::StrCat(
          "train.csv: column '", std::string(spec.name), "' must hold integers (no missing values)"));
    }
    for (const Cell& cell : column->cells) {
      const int64_t value = std::get<int64_t>(cell);
      if (value < spec.min || value > spec.max) {
        return absl::InvalidArgumentError(absl::StrCat("train.csv: column '",
                                                       std::string(spec.name), "' value ", value,
                                                       " is out of range"));
      }
    }
  }
  for (std::string_view name : kFloatColumns) {
    Column* column = table.FindMutable(name);
    if (column == nullptr) continue;
    if (column->dtype == Dtype::kInt64) {
      for (Cell& cell : column->cells) cell = static_cast<double>(std::get<int64_t>(cell));
      column->dtype = Dtype::kFloat64;
    } else if (column->dtype != Dtype::kFloat64) {
      return absl::InvalidArgumentError(
          absl::StrCat("train.csv: column '", std::string(name), "' must hold numbers"));
    }
  }
  return absl::OkStatus();
}

// `to_csv(float_format="%.10g")`: float64 columns become text formatted by
// printf's %.10g (as Python's % operator formats), missing values stay empty.
Table WithFloatFormat(const Table& table) {
  Table out = table;
  for (Column& column : out.mutable_columns()) {
    if (column.dtype != Dtype::kFloat64) continue;
    column.dtype = Dtype::kObject;
    for (Cell& cell : column.cells) {
      const double* value = std::get_if<double>(&cell);
      if (value == nullptr || std::isnan(*value)) {
        cell = std::monostate{};
        continue;
      }
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, "%.10g", *value);
      cell = std::string(buffer);
    }
  }
  return out;
}

// `df["id"] = range(1, len(df) + 1)`.
void RenumberIds(Table& table) {
  Column* ids = table.FindMutable("id");
  ids->dtype = Dtype::kInt64;
  for (size_t row = 0; row < ids->cells.size(); ++row) ids->cells[row] = int64_t(row + 1);
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  RETURN_IF_ERROR(ApplyUpstreamDtypes(old_train));
  for (std::string_view name : {"id", "breath_id", "pressure"}) {
    RETURN_IF_ERROR(old_train.Get(name).status());
  }

  // groupby("breath_id"): groups in key order, each its rows in file order
  // (ApplyUpstreamDtypes made breath_id int64).
  std::vector<int64_t> breath_ids;
  breath_ids.reserve(old_train.num_rows());
  for (const Cell& cell : old_train.Find("breath_id")->cells) {
    breath_ids.push_back(std::get<int64_t>(cell));
  }
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestIndices split, TrainTestSplitGroups(breath_ids, options));
  ASSIGN_OR_RETURN(Table new_train, TakeRows(old_train, split.train_indices));
  ASSIGN_OR_RETURN(Table new_test, TakeRows(old_train, split.test_indices));
  RenumberIds(new_train);
  RenumberIds(new_test);

  ASSIGN_OR_RETURN(Table public_test, (DropColumns(new_test, {"pressure"})));
  ASSIGN_OR_RETURN(Table sample_submission, (SelectColumns(public_test, {"id"})));
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "pressure", Cell(int64_t{0})));

  for (const auto& [table, path] : {
           std::pair{&new_train, public_dir / "train.csv"},
           std::pair{&public_test, public_dir / "test.csv"},
           std::pair{&sample_submission, public_dir / "sample_submission.csv"},
           std::pair{&new_test, private_dir / "test.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(WithFloatFormat(*table), path.string()));
  }

  // Upstream's checks (disjoint breaths and the row counts hold by
  // construction).
  if (public_test.num_columns() != 7) {
    return CheckFailed(absl::StrCat("Expected 7 columns in new_test_without_labels, but got ",
                                    public_test.num_columns()));
  }
  if (new_train.num_columns() != 8) {
    return CheckFailed(
        absl::StrCat("Expected 8 columns in new_train, but got ", new_train.num_columns()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(
    CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
