// Upstream's learning-agency-lab-automated-essay-scoring-2/prepare.py: a
// 90/10 split of Kaggle's labelled train.csv (essay_id, full_text, score).
// The answers are the held-out rows, the public test drops `score`, and the
// sample submission gives each test essay a score drawn by
// `np.random.RandomState(42).randint(1, 7, size=n)`.
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "pycompat/numpy_random.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// A table and the file it is written to.
using CsvOutput = std::pair<const Table*, fs::path>;

constexpr char kIdColumn[] = "essay_id";

// Python's `set(a).isdisjoint(set(b))` over two id columns.
bool Disjoint(const Column& a, const Column& b) {
  for (const Cell& x : a.cells) {
    for (const Cell& y : b.cells) {
      if (CellsEqual(x, y)) return false;
    }
  }
  return true;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  const Table& new_train = split.train;
  const Table& answers = split.test;
  ASSIGN_OR_RETURN(Table new_test, (DropColumns(answers, {"score"})));

  ASSIGN_OR_RETURN(Table sample_submission, (SelectColumns(answers, {kIdColumn})));
  NumpyRandomState random_state(42);
  ASSIGN_OR_RETURN(std::vector<int64_t> scores, random_state.RandInt(1, 7, answers.num_rows()));
  Column score_column{"score", Dtype::kInt64, {}};
  for (int64_t s : scores) score_column.cells.push_back(s);
  std::vector<Column> sample_columns = sample_submission.columns();
  sample_columns.push_back(std::move(score_column));
  sample_submission = Table(std::move(sample_columns));

  // Upstream's checks, before anything is written.
  if (!Disjoint(*new_train.Find(kIdColumn), *new_test.Find(kIdColumn))) {
    return CheckFailed("Essay IDs in train and test sets are not disjoint");
  }
  if (new_train.num_rows() + new_test.num_rows() != old_train.num_rows()) {
    return CheckFailed("Train and test sets do not sum to original train set");
  }
  if (new_test.ColumnNames() != std::vector<std::string>{"essay_id", "full_text"}) {
    return CheckFailed(absl::StrCat("Test set columns do not match expected columns, got ",
                                    new_test.num_columns(), " columns"));
  }

  for (const auto& [table, path] : {
           CsvOutput{&answers, private_dir / "answers.csv"},
           CsvOutput{&new_train, public_dir / "train.csv"},
           CsvOutput{&new_test, public_dir / "test.csv"},
           CsvOutput{&sample_submission, public_dir / "sample_submission.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
