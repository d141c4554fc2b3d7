// Upstream's new-york-city-taxi-fare-prediction/prepare.py: Kaggle's test set
// has no labels, so 9914 rows (the size of Kaggle's test set) of the
// labelled train.csv become the test set and the rest `labels.csv`.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "base/typed_csv_writer.h"
#include "base/typed_table.h"
#include "competitions/common/preparer.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// A table and the file it is written to.
using CsvOutput = std::pair<const Table*, fs::path>;

constexpr int64_t kTestRows = 9914;
constexpr double kSampleFare = 11.35;  // the mean fare of Kaggle's train.csv
constexpr char kCoupons[] = "GCP-Coupons-Instructions.rtf";
// Train keys compared with the test keys at a time (see TrainKeysDisjoint).
constexpr size_t kKeyBlockRows = size_t{1} << 18;

// `set(a).isdisjoint(set(b))` with Python's set equality.
bool Disjoint(const Column& a, const Column& b) {
  const Column empty{a.name, a.dtype, {}};
  return SymmetricDifferenceSize(a, b) ==
         SymmetricDifferenceSize(a, empty) + SymmetricDifferenceSize(b, empty);
}

// `set(keys[train_rows]).isdisjoint(set(test_keys))`, a block of train keys
// at a time: the train side has no common element with the test keys exactly
// when none of its blocks has.
bool TrainKeysDisjoint(const TypedColumn& keys, const std::vector<int64_t>& train_rows,
                       const Column& test_keys) {
  for (size_t begin = 0; begin < train_rows.size(); begin += kKeyBlockRows) {
    const size_t end = std::min(train_rows.size(), begin + kKeyBlockRows);
    Column block{keys.name(), keys.dtype(), {}};
    block.cells.reserve(end - begin);
    for (size_t i = begin; i < end; ++i) {
      block.cells.push_back(keys.CellAt(static_cast<size_t>(train_rows[i])));
    }
    if (!Disjoint(block, test_keys)) return false;
  }
  return true;
}

// The Table of `table`'s rows at `rows`, in that order (TakeRows').
Table TakeTypedRows(const TypedTable& table, const std::vector<int64_t>& rows) {
  std::vector<Column> columns;
  columns.reserve(table.num_columns());
  for (const TypedColumn& c : table.columns()) {
    Column column{c.name(), c.dtype(), {}};
    column.cells.reserve(rows.size());
    for (const int64_t row : rows) column.cells.push_back(c.CellAt(static_cast<size_t>(row)));
    columns.push_back(std::move(column));
  }
  return Table(std::move(columns));
}

// Kaggle's train.csv has 55M rows (5.7 GB), so it is read into typed columns
// (numbers as arrays, text as views into the mapped file: about 80 bytes a
// row besides the file) and the 55M-row new train set is never built as a
// Table: only the 9914 test rows are, and labels.csv is written from the
// typed columns a slice of rows at a time. The outputs are those of
// TrainTestSplitTable on the whole file as a Table, byte for byte.
absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(const TypedTable old_train, ReadTypedCsvFile((raw / "train.csv").string()));
  TrainTestSplitOptions options;
  options.test_size = kTestRows;
  options.random_state = 0;
  ASSIGN_OR_RETURN(const TrainTestIndices split,
                   TrainTestSplitIndices(static_cast<int64_t>(old_train.num_rows()), options));
  const Table new_test = TakeTypedRows(old_train, split.test_indices);
  ASSIGN_OR_RETURN(Table new_test_without_labels, (DropColumns(new_test, {"fare_amount"})));
  ASSIGN_OR_RETURN(Table sample_submission, (SelectColumns(new_test, {"key"})));
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "fare_amount", kSampleFare));

  // Upstream's checks (it runs them after writing; we run them first so that
  // bad input leaves no output). The new train set has old_train's columns.
  if (!TrainKeysDisjoint(*old_train.Find("key"), split.train_indices, *new_test.Find("key"))) {
    return CheckFailed("Train and test sets share samples!");
  }
  if (new_test.num_columns() != 8) {
    return CheckFailed(
        absl::StrCat("Test set should have 8 columns, but has ", new_test.num_columns()));
  }
  if (new_test_without_labels.num_columns() != 7) {
    return CheckFailed(absl::StrCat("Test set without labels should have 7 columns, but has ",
                                    new_test_without_labels.num_columns()));
  }
  if (old_train.num_columns() != 8) {
    return CheckFailed(
        absl::StrCat("Train set should have 8 columns, but has ", old_train.num_columns()));
  }
  if (sample_submission.num_columns() != 2) {
    return CheckFailed(absl::StrCat("Sample submission should have 2 columns, but has ",
                                    sample_submission.num_columns()));
  }
  if (sample_submission.num_rows() != new_test.num_rows()) {
    return CheckFailed(absl::StrCat("Sample submission should have ", new_test.num_rows(),
                                    " rows, but has ", sample_submission.num_rows()));
  }
  const fs::path coupons = raw / kCoupons;
  if (!fs::is_regular_file(coupons)) {
    return absl::NotFoundError(absl::StrCat("raw data has no file ", kCoupons));
  }

  std::vector<const TypedColumn*> train_columns;
  for (const TypedColumn& column : old_train.columns()) train_columns.push_back(&column);
  RETURN_IF_ERROR(WriteTypedCsvRows(train_columns, split.train_indices,
                                    (public_dir / "labels.csv").string()));
  for (const auto& [table, path] : {
           CsvOutput{&new_test_without_labels, public_dir / "test.csv"},
           CsvOutput{&sample_submission, public_dir / "sample_submission.csv"},
           CsvOutput{&new_test, private_dir / "test.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  std::error_code error;
  fs::copy_file(coupons, public_dir / kCoupons, fs::copy_options::overwrite_existing, error);
  if (error) {
    return absl::InternalError(absl::StrCat("copying ", kCoupons, ": ", error.message()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
