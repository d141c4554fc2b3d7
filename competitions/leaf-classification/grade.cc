// Upstream's leaf-classification/grade.py: multi-class log loss of the
// per-species probabilities, aligned on `id`.

#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/python_float.h"
#include "base/status_macros.h"
#include "base/typed_table.h"
#include "competitions/leaf-classification/classes.h"
#include "grading/grader.h"
#include "grading/metrics/metric_inputs.h"
#include "grading/metrics/probability_rows.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

using leaf_classification::Classes;

constexpr char kIdColumn[] = "id";

// Upstream compares column *sets*: {"id"} and the classes, in any order,
// nothing more (the reader has already made names unique).
bool HasExactlyIdAndClassColumns(const TypedTable& table) {
  if (table.num_columns() != Classes().size() + 1 || table.Find(kIdColumn) == nullptr) {
    return false;
  }
  for (const std::string& name : Classes()) {
    if (table.Find(name) == nullptr) return false;
  }
  return true;
}


// Upstream's row-sum and range checks on `submission[CLASSES]`.
absl::Status CheckProbabilities(const TypedTable& submission) {
  std::vector<const TypedColumn*> columns;
  for (const std::string& name : Classes()) columns.push_back(submission.Find(name));
  return CheckProbabilityRows(columns, "Each row in submission should sum to one, as probabilities",
                              "All probabilities in submission DataFrame must be between 0 and 1");
}

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  // Upstream asserts this after checking the submission; malformed answers
  // are ours, not the submission's, so they are reported first.
  if (!HasExactlyIdAndClassColumns(answers)) {
    return MalformedAnswers(
        "they must have an 'id' column and a column for each class, "
        "and no other");
  }
  if (!HasExactlyIdAndClassColumns(submission)) {
    return InvalidSubmission(
        "Submission DataFrame must have an 'id' column and a column for each class.");
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat(
        "Submission and answers DataFrames must have the same number of rows (submission has ",
        submission.num_rows(), ", answers have ", answers.num_rows(), ")."));
  }
  RETURN_IF_ERROR(CheckProbabilities(submission));

  return OneHotLogLossAlignedOnIds(submission, answers, kIdColumn);
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
});

}  // namespace mlebench
