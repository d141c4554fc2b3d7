// Upstream's imet-2020-fgvc7/grade.py: micro-averaged F1 of the
// space-separated attribute ids per image, aligned on `id`.
//
// Upstream's steps: the answers must have `id` and `attribute_ids` (an
// assert: malformed answers here); the submission must have both columns,
// then as many rows as the answers; both are sorted by id and must list the
// same ids row by row; the attribute ids are split on whitespace (missing =
// none), binarized over the answers' ids (predicted ids outside them are
// ignored) and scored with f1_score(average="micro"). See
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
  if (answers.Find("id") == nullptr || answers.Find("attribute_ids") == nullptr) {
    return MalformedAnswers("Answers DataFrame must have 'id' and 'attribute_ids' columns");
  }
  if (submission.Find("id") == nullptr) {
    return InvalidSubmission("Submission DataFrame must have an 'id' column.");
  }
  if (submission.Find("attribute_ids") == nullptr) {
    return InvalidSubmission("Submission DataFrame must have a 'attribute_ids' column.");
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat(
        "Submission and answers DataFrames must have the same number of rows (expected ",
        answers.num_rows(), ", got ", submission.num_rows(), ")."));
  }
  return MultilabelMicroF1ById(
      submission, answers,
      {.id = "id",
       .labels = "attribute_ids",
       .classes = AnswerClasses::kExplodeAll,
       .id_mismatch_reason = "Submission and answers DataFrames must have matching 'id' columns."});
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
