// Upstream's jigsaw-unintended-bias-in-toxicity-classification/prepare.py:
// Kaggle's labelled private test set (test_private_expanded.csv) becomes the
// answers, copied as is; the public files are Kaggle's train.csv, copied as
// is, the test comments (id, comment_text) and a sample submission predicting
// 0.0 everywhere.
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// Upstream asserts that the labelled test file has Kaggle's 45 columns.
constexpr size_t kExpandedTestColumns = 45;

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table test, ReadCsvFile((raw / "test_private_expanded.csv").string()));
  ASSIGN_OR_RETURN(Table test_without_labels, (SelectColumns(test, {"id", "comment_text"})));

  RETURN_IF_ERROR(CopyRegularFile(raw / "test_private_expanded.csv", private_dir / "test.csv"));
  RETURN_IF_ERROR(CopyRegularFile(raw / "train.csv", public_dir / "train.csv"));
  RETURN_IF_ERROR(WriteCsvFile(test_without_labels, (public_dir / "test.csv").string()));
  ASSIGN_OR_RETURN(Table sample_submission, (SelectColumns(test, {"id"})));
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "prediction", 0.0));
  RETURN_IF_ERROR(WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string()));

  if (test.num_columns() != kExpandedTestColumns) {
    return absl::FailedPreconditionError(
        absl::StrCat("test_private_expanded.csv should have ", kExpandedTestColumns,
                     " columns as per raw data, not ", test.num_columns()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
