// Upstream's spooky-author-identification/grade.py: multi-class log loss of
// the per-author probabilities, aligned on `id`.

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/python_float.h"
#include "base/status_macros.h"
#include "base/typed_table.h"
#include "grading/grader.h"
#include "grading/metrics/metric_inputs.h"
#include "grading/metrics/probability_rows.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

constexpr std::string_view kIdColumn = "id";
// Upstream's classes.py.
constexpr std::array<std::string_view, 3> kClasses = {"EAP", "HPL", "MWS"};


// Upstream's prepare_for_metric checks, which look at the probability
// columns by position (`submission.iloc[:, 1:]`), whatever their names.
absl::Status CheckProbabilities(const TypedTable& submission) {
  std::vector<const TypedColumn*> columns;
  for (size_t c = 1; c < submission.num_columns(); ++c) columns.push_back(&submission.columns()[c]);
  return CheckProbabilityRows(columns, "Each row in submission should sum to one, as probabilities",
                              "All probabilities in submission DataFrame must be between 0 and 1");
}

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  if (answers.Find(kIdColumn) == nullptr) {
    return MalformedAnswers("no 'id' column");
  }
  for (std::string_view name : kClasses) {
    if (answers.Find(name) == nullptr) {
      return MalformedAnswers(absl::StrCat("no '", std::string(name), "' column"));
    }
  }
  const size_t expected_columns = kClasses.size() + 1;
  if (submission.num_rows() != answers.num_rows() || submission.num_columns() != expected_columns) {
    return InvalidSubmission(absl::StrCat(
        "Submission shape (", submission.num_rows(), ", ", submission.num_columns(),
        ") does not match answers shape (", answers.num_rows(), ", ", answers.num_columns(), ")."));
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
