// Upstream's plant-pathology-2021-fgvc8/grade.py: micro-averaged F1 of the
// space-separated disease labels per image, aligned on `image`.
//
// Upstream's steps: the answers must have `image` and `labels` (an assert:
// malformed answers here); the submission must have both columns, then as
// many rows as the answers; both are sorted by image and must list the same
// images row by row; the labels are split on whitespace (missing = none),
// binarized over the answers' labels (predicted labels outside them are
// ignored) and scored with f1_score(average="micro"). See
// competitions/families/fgvc/label_sets_micro_f1.h, shared with imet-2020-fgvc7.

#include <string>

#include "absl/status/statusor.h"
#include "base/table.h"
#include "competitions/families/fgvc/label_sets_micro_f1.h"
#include "grading/grader.h"

namespace mlebench {
namespace {

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  return GradeLabelSetsMicroF1(submission, answers, /*id_column=*/"image",
                               /*labels_column=*/"labels");
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
