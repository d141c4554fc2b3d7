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

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

// A table and the file it is written to.
using CsvOutput = std::pair<const Table*, std::filesystem::path>;

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

// Upstream's `set(train["Id"]).isdisjoint(set(test["Id"]))`, as an error
// naming how many ids are shared and one of them.
absl::Status CheckIdsDisjoint(const Column& train_ids, const Column& test_ids) {
  std::set<SetKey> train_keys;
  for (const Cell& cell : train_ids.cells) {
    if (std::optional<SetKey> key = PythonSetKey(cell)) train_keys.insert(std::move(*key));
  }
  std::set<SetKey> shared;
  for (const Cell& cell : test_ids.cells) {
    std::optional<SetKey> key = PythonSetKey(cell);
    if (key.has_value() && train_keys.count(*key) > 0) shared.insert(std::move(*key));
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

absl::Status Prepare(const std::filesystem::path& raw, const std::filesystem::path& public_dir,
                     const std::filesystem::path& private_dir,
                     const std::filesystem::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));

  // Every output is built and upstream's checks run before any file is
  // written, so bad raw data leaves no partial output behind. (The length
  // checks upstream makes hold by construction of the split.)
  ASSIGN_OR_RETURN(Table public_test, (DropColumns(split.test, {"Cover_Type"})));
  ASSIGN_OR_RETURN(Table sample_submission, (SelectColumns(split.test, {"Id"})));
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "Cover_Type", int64_t{2}));
  ASSIGN_OR_RETURN(const Column* train_ids, split.train.Get("Id"));
  ASSIGN_OR_RETURN(const Column* test_ids, split.test.Get("Id"));
  RETURN_IF_ERROR(CheckIdsDisjoint(*train_ids, *test_ids));

  for (const auto& [table, path] : {
           CsvOutput{&split.train, public_dir / "train.csv"},
           CsvOutput{&split.test, private_dir / "test.csv"},
           CsvOutput{&public_test, public_dir / "test.csv"},
           CsvOutput{&sample_submission, public_dir / "sample_submission.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
