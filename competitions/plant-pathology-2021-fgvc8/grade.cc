// Upstream's plant-pathology-2021-fgvc8/grade.py: micro-averaged F1 of the
// space-separated disease labels per image, aligned on `image`.
//
// Upstream's steps: the answers must have `image` and `labels` (an assert:
// malformed answers here); the submission must have both columns, then as
// many rows as the answers; both are sorted by image and must list the same
// images row by row; the labels are split on whitespace (missing = none),
// binarized over the answers' labels (predicted labels outside them are
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
  if (answers.Find("image") == nullptr || answers.Find("labels") == nullptr) {
    return MalformedAnswers("Answers DataFrame must have 'image' and 'labels' columns");
  }
  if (submission.Find("image") == nullptr) {
    return InvalidSubmission("Submission DataFrame must have an 'image' column.");
  }
  if (submission.Find("labels") == nullptr) {
    return InvalidSubmission("Submission DataFrame must have a 'labels' column.");
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat(
        "Submission and answers DataFrames must have the same number of rows (expected ",
        answers.num_rows(), ", got ", submission.num_rows(), ")."));
  }
  return MultilabelMicroF1ById(
      submission, answers,
      {.id = "image",
       .labels = "labels",
       .classes = AnswerClasses::kExplodeAll,
       .id_mismatch_reason =
           "Submission and answers DataFrames must have matching 'image' columns."});
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
