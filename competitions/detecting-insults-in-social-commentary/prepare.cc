// Upstream's detecting-insults-in-social-commentary/prepare.py. Kaggle ships
// the labelled test set (test_with_solutions.csv), so nothing is split:
// train.csv is copied as is, the labelled test set becomes the answers, and
// the public test set, a gold submission and an all-zero sample submission
// are derived from it. (Kaggle's own test.csv is the later verification
// stage, which upstream leaves out.)
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// A table and the file it is written to.
using CsvOutput = std::pair<const Table*, fs::path>;

// `a.equals(b)` for two DataFrames read from CSV: the same column names in
// the same order, the same dtypes, and equal cells, where missing values
// equal each other (pandas' array_equivalent) and object cells compare as
// Python's == does.
bool FramesEqual(const Table& a, const Table& b) {
  if (a.ColumnNames() != b.ColumnNames() || a.num_rows() != b.num_rows()) return false;
  for (size_t c = 0; c < a.num_columns(); ++c) {
    const Column& left = a.columns()[c];
    const Column& right = b.columns()[c];
    if (left.dtype != right.dtype) return false;
    for (size_t row = 0; row < left.cells.size(); ++row) {
      const bool left_missing = IsMissing(left.cells[row]);
      if (left_missing != IsMissing(right.cells[row])) return false;
      if (!left_missing && !CellsEqual(left.cells[row], right.cells[row])) return false;
    }
  }
  return true;
}

// `set(a).isdisjoint(set(b))` with Python's set semantics (those of
// SymmetricDifferenceSize): |A ^ B| = |A| + |B| exactly when A and B share
// nothing.
bool ValueSetsDisjoint(const Column& a, const Column& b) {
  const Column none;
  return SymmetricDifferenceSize(a, b) ==
         SymmetricDifferenceSize(a, none) + SymmetricDifferenceSize(b, none);
}

// `set(a) == set(b)`.
bool ValueSetsEqual(const Column& a, const Column& b) { return SymmetricDifferenceSize(a, b) == 0; }

// shutil.copy's bytes, with the ordinary mode 0644 rather than the source's
// (a raw file made by a build action is read-only and executable).
absl::Status CopyFile(const fs::path& from, const fs::path& to) {
  std::error_code error;
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, error);
  if (!error) {
    fs::permissions(to,
                    fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                        fs::perms::others_read,
                    error);
  }
  if (error) {
    return absl::InternalError(
        absl::StrCat("cannot copy ", from.string(), " to ", to.string(), ": ", error.message()));
  }
  return absl::OkStatus();
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  // Upstream copies both files and reads them back; the copies are
  // byte-identical, so we read the originals.
  ASSIGN_OR_RETURN(Table public_train, ReadCsvFile((raw / "train.csv").string()));
  ASSIGN_OR_RETURN(Table private_test, ReadCsvFile((raw / "test_with_solutions.csv").string()));

  absl::StatusOr<Table> gold_submission =
      SelectColumns(private_test, {"Insult", "Date", "Comment"});
  if (!gold_submission.ok()) {
    return absl::NotFoundError(
        absl::StrCat("test_with_solutions.csv: ", gold_submission.status().message()));
  }
  ASSIGN_OR_RETURN(Table public_test, (DropColumns(*gold_submission, {"Insult"})));
  Table sample_submission = *gold_submission;
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "Insult", int64_t{0}));
  // Upstream's checks read test.csv back after writing it.
  const std::string public_test_csv = WriteCsvString(public_test);
  ASSIGN_OR_RETURN(Table public_test_read, ReadCsvString(public_test_csv, "public test.csv"));

  // Upstream's checks (run after writing there; here first, so that bad
  // input leaves no output).
  const std::vector<std::string> labelled = {"Insult", "Date", "Comment"};
  if (public_train.ColumnNames() != labelled) {
    return CheckFailed("Train columns should be Insult, Date, Comment");
  }
  if (public_test_read.ColumnNames() != std::vector<std::string>{"Date", "Comment"}) {
    return CheckFailed("Test columns should be Date, Comment");
  }
  if (sample_submission.ColumnNames() != labelled) {
    return CheckFailed("Sample submission columns should be Insult, Date, Comment");
  }
  if (gold_submission->ColumnNames() != labelled) {
    return CheckFailed("Gold submission columns should be Insult, Date, Comment");
  }
  if (private_test.ColumnNames() !=
      std::vector<std::string>{"Insult", "Date", "Comment", "Usage"}) {
    return CheckFailed("Private test columns should be Insult, Date, Comment, Usage");
  }
  const Column& train_comments = *public_train.Find("Comment");
  const Column& test_comments = *public_test_read.Find("Comment");
  if (!ValueSetsDisjoint(train_comments, test_comments)) {
    return CheckFailed("None of the test comments should be in the train comments");
  }
  ASSIGN_OR_RETURN(Table private_test_unlabelled, (DropColumns(private_test, {"Insult", "Usage"})));
  if (!FramesEqual(public_test_read, private_test_unlabelled)) {
    return CheckFailed(
        "Public test should be identical to private test, modulo the Insult and Usage columns");
  }
  if (!ValueSetsEqual(test_comments, *sample_submission.Find("Comment"))) {
    return CheckFailed("Public test and sample submission should have the same Comments");
  }
  if (!ValueSetsEqual(test_comments, *gold_submission->Find("Comment"))) {
    return CheckFailed("Public test and gold submission should have the same Comments");
  }

  RETURN_IF_ERROR(CopyFile(raw / "train.csv", public_dir / "train.csv"));
  RETURN_IF_ERROR(CopyFile(raw / "test_with_solutions.csv", private_dir / "test.csv"));
  for (const auto& [table, path] : {
           CsvOutput{&*gold_submission, private_dir / "gold_submission.csv"},
           CsvOutput{&public_test, public_dir / "test.csv"},
           CsvOutput{&sample_submission, public_dir / "sample_submission_null.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
