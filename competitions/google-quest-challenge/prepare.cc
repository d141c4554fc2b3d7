// Upstream's google-quest-challenge/prepare.py: a 90/10 split (random_state
// 0) of Kaggle's train.csv. If the new test rows all share one
// question_type_spelling value (the target is almost always 0), the first
// test row trades places with the first train row whose spelling is not 0,
// so that every target varies in the answers. public/test.csv keeps the 11
// non-target columns, private/test.csv qa_id and the 30 targets, and the
// sample submission is the latter with every target column set to
// np.linspace(0, 1, n).
#include <filesystem>
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
#include "competitions/google-quest-challenge/classes.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using google_quest::kIdColumn;
using google_quest::kTargets;

constexpr std::string_view kSpelling = "question_type_spelling";

// pandas' `Series.nunique()`: distinct values, missing ones not counted.
size_t NumUnique(const Column& column) {
  std::vector<const Cell*> distinct;
  for (const Cell& cell : column.cells) {
    if (IsMissing(cell)) continue;
    bool seen = false;
    for (const Cell* d : distinct) seen = seen || CellsEqual(*d, cell);
    if (!seen) distinct.push_back(&cell);
  }
  return distinct.size();
}

// `np.linspace(0, 1, n)`: i * (1 / (n - 1)), the last value exactly 1.
std::vector<double> Linspace01(size_t n) {
  std::vector<double> values(n, 0.0);
  if (n < 2) return values;
  const double step = 1.0 / static_cast<double>(n - 1);
  for (size_t i = 0; i < n; ++i) values[i] = static_cast<double>(i) * step;
  values[n - 1] = 1.0;
  return values;
}

// Upstream's swap: new_test.iloc[0] and new_train.loc[<first train row
// whose spelling != 0>] trade values (index labels stay; they are not
// written). NaN != 0, so a missing spelling qualifies.
absl::Status SwapSpellingRow(Table& train, Table& test) {
  const Column* spelling = train.Find(kSpelling);
  size_t row = 0;
  while (row < train.num_rows() && CellsEqual(spelling->cells[row], Cell(int64_t{0}))) ++row;
  if (row == train.num_rows()) {
    return CheckFailed("no train row has a question_type_spelling other than 0 (IndexError)");
  }
  for (size_t c = 0; c < train.num_columns(); ++c) {
    std::swap(train.mutable_columns()[c].cells[row], test.mutable_columns()[c].cells[0]);
  }
  return absl::OkStatus();
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  std::vector<std::string> targets(kTargets.begin(), kTargets.end());
  std::vector<std::string> answer_columns = {std::string(kIdColumn)};
  answer_columns.insert(answer_columns.end(), targets.begin(), targets.end());
  // Columns upstream indexes (a KeyError there).
  for (const std::string& name : answer_columns) {
    if (old_train.Find(name) == nullptr) {
      return absl::NotFoundError(absl::StrCat("train.csv has no column '", name, "'"));
    }
  }

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  Table& new_train = split.train;
  Table full_test = std::move(split.test);
  if (NumUnique(*full_test.Find(kSpelling)) == 1) {
    RETURN_IF_ERROR(SwapSpellingRow(new_train, full_test));
  }
  ASSIGN_OR_RETURN(Table test_without_labels, DropColumns(full_test, targets));
  ASSIGN_OR_RETURN(Table new_test, SelectColumns(full_test, answer_columns));
  Table sample = new_test;
  const std::vector<double> ramp = Linspace01(sample.num_rows());
  for (const std::string& target : targets) {
    Column* column = sample.FindMutable(target);
    column->dtype = Dtype::kFloat64;
    column->cells.assign(ramp.begin(), ramp.end());
  }

  // Upstream's checks (it writes first; we check first so that bad input
  // leaves no output).
  if (test_without_labels.num_columns() != 11) {
    return CheckFailed("Public test set should have 11 columns");
  }
  if (new_train.num_columns() != 41) return CheckFailed("Public train set should have 41 columns");
  for (const std::string& target : targets) {
    if (NumUnique(*new_test.Find(target)) <= 1) {
      return CheckFailed(
          absl::StrCat("Column ", target, " should not be constant in the private test set"));
    }
  }

  for (const auto& [table, path] : {
           std::pair{static_cast<const Table*>(&new_test), private_dir / "test.csv"},
           std::pair{static_cast<const Table*>(&new_train), public_dir / "train.csv"},
           std::pair{static_cast<const Table*>(&test_without_labels), public_dir / "test.csv"},
           std::pair{static_cast<const Table*>(&sample), public_dir / "sample_submission.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
