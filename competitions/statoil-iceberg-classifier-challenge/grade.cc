// Upstream's statoil-iceberg-classifier-challenge/grade.py: binary log loss
// of the submitted probabilities that each image shows an iceberg, aligned on
// `id` (grade.py shared with dogs-vs-cats-redux-kernels-edition). Unlike most
// graders upstream does not compare row counts itself: a submission with the
// right ids but repeated rows reaches log_loss, which rejects the
// inconsistent lengths.

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/metrics/classification/binary_log_loss_by_id.h"
#include "base/typed_table.h"

namespace mlebench {
namespace {

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  return GradeBinaryLogLossById(submission, answers,
                                {.target_column = "is_iceberg", .check_row_count = false});
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
});

}  // namespace mlebench
