// Upstream's tabular-playground-series-dec-2021/prepare.py: a 90/10 split of
// Kaggle's labelled train.csv, the held-out tenth becoming the test set, and a
// sample submission predicting class 2 everywhere.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "base/typed_csv_writer.h"
#include "base/typed_table.h"
#include "competitions/common/preparer.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

// A cell as an element of a Python set built from a pandas column: numbers
// compare by value whatever their type (True == 1 == 1.0), strings by
// content. Missing values differ by dtype: an object column holds one shared
// NaN object, which a set matches by identity (std::monostate here), while a
// float64 column boxes a fresh float for every NaN, equal to nothing (no key).
using SetKey = std::variant<std::monostate, int64_t, double, std::string>;

std::optional<SetKey> PythonSetKey(const Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return SetKey(std::monostate());
  if (const auto* b = std::get_if<bool>(&cell)) return SetKey(int64_t{*b ? 1 : 0});
  if (const auto* i = std::get_if<int64_t>(&cell)) return SetKey(*i);
  if (const auto* s = std::get_if<std::string>(&cell)) return SetKey(*s);
  const double d = std::get<double>(cell);
  if (std::isnan(d)) return std::nullopt;
  // An integral float equals the int of the same value (exactly, as Python
  // compares int with float); 2**63 and beyond are no int64.
  if (d == std::trunc(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0) {
    return SetKey(static_cast<int64_t>(d));
  }
  return SetKey(d);
}

// Upstream's `set(train["Id"]).isdisjoint(set(test["Id"]))` over `ids` at
// the train and test rows, as an error naming how many ids are shared and
// the least of them. Only the test ids are held in a set (a tenth of the
// rows); each train id is looked up in it.
absl::Status CheckIdsDisjoint(const TypedColumn& ids, const std::vector<int64_t>& train_rows,
                              const std::vector<int64_t>& test_rows) {
  std::set<SetKey> test_keys;
  for (const int64_t row : test_rows) {
    if (std::optional<SetKey> key = PythonSetKey(ids.CellAt(static_cast<size_t>(row)))) {
      test_keys.insert(std::move(*key));
    }
  }
  std::set<SetKey> shared;
  for (const int64_t row : train_rows) {
    std::optional<SetKey> key = PythonSetKey(ids.CellAt(static_cast<size_t>(row)));
    if (key.has_value() && test_keys.count(*key) > 0) shared.insert(std::move(*key));
  }
  if (shared.empty()) return absl::OkStatus();
  const std::string example = std::visit(
      [](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>) {
          return v;
        } else if constexpr (std::is_same_v<T, std::monostate>) {
          return std::string("nan");
        } else {
          return absl::StrCat(v);
        }
      },
      *shared.begin());
  return absl::FailedPreconditionError(absl::StrCat(
      "there are ", shared.size(), " Ids in both train and test sets, e.g. ", example));
}

// The columns of `table` named `names`, in that order (each must exist).
std::vector<const TypedColumn*> Columns(const TypedTable& table,
                                        const std::vector<std::string>& names) {
  std::vector<const TypedColumn*> columns;
  for (const std::string& name : names) columns.push_back(table.Find(name));
  return columns;
}

// Kaggle's train.csv is 4M rows x 56 columns (0.7 GB): as a Table (~40 bytes
// a cell) it needed ~18 GiB, so it is read into typed columns (8 bytes a
// number) and each output is written from them a slice of rows at a time.
absl::Status Prepare(const std::filesystem::path& raw, const std::filesystem::path& public_dir,
                     const std::filesystem::path& private_dir,
                     const std::filesystem::path& /*scratch*/) {
  ASSIGN_OR_RETURN(const TypedTable old_train, ReadTypedCsvFile((raw / "train.csv").string()));
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(const TrainTestIndices split,
                   TrainTestSplitIndices(static_cast<int64_t>(old_train.num_rows()), options));

  // Every output's columns are found and upstream's checks run before any
  // file is written, so bad raw data leaves no partial output behind. (The
  // length checks upstream makes hold by construction of the split.) The
  // column errors are those of DropColumns and SelectColumns on the table.
  std::vector<Column> header_columns;
  for (const TypedColumn& c : old_train.columns()) {
    header_columns.push_back({c.name(), c.dtype(), {}});
  }
  const Table no_rows(std::move(header_columns));
  ASSIGN_OR_RETURN(const Table public_test_header, (DropColumns(no_rows, {"Cover_Type"})));
  ASSIGN_OR_RETURN(Table sample_submission, (SelectColumns(no_rows, {"Id"})));
  ASSIGN_OR_RETURN(const TypedColumn* ids, old_train.Get("Id"));
  ASSIGN_OR_RETURN(Column test_ids, TakeRows(*ids, split.test_indices));
  sample_submission.mutable_columns()[0].cells = std::move(test_ids.cells);
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "Cover_Type", int64_t{2}));
  RETURN_IF_ERROR(CheckIdsDisjoint(*ids, split.train_indices, split.test_indices));

  const std::vector<const TypedColumn*> all = Columns(old_train, old_train.ColumnNames());
  RETURN_IF_ERROR(WriteTypedCsvRows(all, split.train_indices, (public_dir / "train.csv").string()));
  RETURN_IF_ERROR(WriteTypedCsvRows(all, split.test_indices, (private_dir / "test.csv").string()));
  RETURN_IF_ERROR(WriteTypedCsvRows(Columns(old_train, public_test_header.ColumnNames()),
                                    split.test_indices, (public_dir / "test.csv").string()));
  return WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string());
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
