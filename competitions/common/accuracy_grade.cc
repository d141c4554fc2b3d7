#include "competitions/common/accuracy_grade.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "grading/metrics/classification/accuracy.h"
#include "grading/metrics/metric_inputs.h"
#include "grading/outcome.h"

namespace mlebench {

absl::StatusOr<double> GradeAccuracyById(const TypedTable& submission, const TypedTable& answers,
                                         std::string_view id_column,
                                         std::string_view target_column) {
  ASSIGN_OR_RETURN(AccuracyInputs inputs,
                   PrepareForAccuracyMetric(submission, answers, id_column, target_column));
  absl::StatusOr<double> score = AccuracyScore(inputs);
  if (!score.ok()) {
    return InvalidSubmission(absl::StrCat("accuracy_score rejects `", std::string(target_column),
                                          "`: ", score.status().message()));
  }
  return score;
}

}  // namespace mlebench
