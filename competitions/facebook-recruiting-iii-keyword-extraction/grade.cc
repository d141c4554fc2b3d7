// Upstream's facebook-recruiting-iii-keyword-extraction/grade.py:
// micro-averaged F1 of the space-separated tags per question, aligned on
// `Id`.
//
// Upstream's steps: the answers must have `Id` and `Tags` (asserts:
// malformed answers here); the submission must have both columns, then as
// many rows as the answers; both are sorted by Id and must list the same ids
// row by row; the classes are the tags of the answers' text cells (missing
// ones are skipped); the tags are split on whitespace (missing = none),
// binarized over those classes (predicted tags outside them are ignored) and
// scored with f1_score(average="micro"). See
// grading/metrics/classification/f1_score_label_sets.h for the shared part.

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "grading/metrics/classification/f1_score_label_sets.h"
#include "base/table.h"

namespace mlebench {
namespace {

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  if (answers.Find("Id") == nullptr || answers.Find("Tags") == nullptr) {
    return MalformedAnswers("Answers must have 'Id' and 'Tags' columns.");
  }
  if (submission.Find("Id") == nullptr) {
    return InvalidSubmission("Submission DataFrame must have an 'Id' column.");
  }
  if (submission.Find("Tags") == nullptr) {
    return InvalidSubmission("Submission DataFrame must have a 'Tags' column.");
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat(
        "Submission DataFrame must have the same number of rows as the answers DataFrame "
        "(expected ",
        answers.num_rows(), ", got ", submission.num_rows(), ")."));
  }
  return MultilabelMicroF1ById(
      submission, answers,
      {.id = "Id",
       .labels = "Tags",
       .classes = AnswerClasses::kSkipMissing,
       .id_mismatch_reason = "Submission and answers must have matching 'Id's."});
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
