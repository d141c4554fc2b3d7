#include "competitions/families/fgvc/label_sets_micro_f1.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "grading/metrics/classification/f1_score_label_sets.h"
#include "grading/outcome.h"

namespace mlebench {

absl::StatusOr<double> GradeLabelSetsMicroF1(const Table& submission, const Table& answers,
                                             std::string_view id_column,
                                             std::string_view labels_column) {
  const std::string id(id_column);
  const std::string labels(labels_column);
  if (answers.Find(id) == nullptr || answers.Find(labels) == nullptr) {
    return MalformedAnswers(
        absl::StrCat("Answers DataFrame must have '", id, "' and '", labels, "' columns"));
  }
  if (submission.Find(id) == nullptr) {
    return InvalidSubmission(absl::StrCat("Submission DataFrame must have an '", id, "' column."));
  }
  if (submission.Find(labels) == nullptr) {
    return InvalidSubmission(
        absl::StrCat("Submission DataFrame must have a '", labels, "' column."));
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat(
        "Submission and answers DataFrames must have the same number of rows (expected ",
        answers.num_rows(), ", got ", submission.num_rows(), ")."));
  }
  const std::string id_mismatch =
      absl::StrCat("Submission and answers DataFrames must have matching '", id, "' columns.");
  return MultilabelMicroF1ById(submission, answers,
                               {.id = id,
                                .labels = labels,
                                .classes = AnswerClasses::kExplodeAll,
                                .id_mismatch_reason = id_mismatch});
}

}  // namespace mlebench
