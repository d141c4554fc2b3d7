// Upstream's dogs-vs-cats-redux-kernels-edition/grade.py: binary log loss of
// the submitted probabilities that each test image shows a dog, aligned on
// `id` (grade.py shared with statoil-iceberg-classifier-challenge, which does
// not compare row counts).

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/metrics/classification/binary_log_loss_by_id.h"
#include "base/typed_table.h"

namespace mlebench {
namespace {

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  return GradeBinaryLogLossById(submission, answers,
                                {.target_column = "label", .check_row_count = true});
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
});

}  // namespace mlebench
