// Upstream's imet-2020-fgvc7/grade.py: micro-averaged F1 of the
// space-separated attribute ids per image, aligned on `id`.
//
// Upstream's steps: the answers must have `id` and `attribute_ids` (an
// assert: malformed answers here); the submission must have both columns,
// then as many rows as the answers; both are sorted by id and must list the
// same ids row by row; the attribute ids are split on whitespace (missing =
// none), binarized over the answers' ids (predicted ids outside them are
// ignored) and scored with f1_score(average="micro"). See
// competitions/families/fgvc/label_sets_micro_f1.h, shared with plant-pathology-2021-fgvc8.

#include <string>

#include "absl/status/statusor.h"
#include "base/table.h"
#include "competitions/families/fgvc/label_sets_micro_f1.h"
#include "grading/grader.h"

namespace mlebench {
namespace {

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  return GradeLabelSetsMicroF1(submission, answers, /*id_column=*/"id",
                               /*labels_column=*/"attribute_ids");
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
