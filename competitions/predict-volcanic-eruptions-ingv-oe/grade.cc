// Upstream's predict-volcanic-eruptions-ingv-oe/grade.py: the mean absolute
// error of the `time_to_eruption` predictions, matched on `segment_id`,
// rounded to an integer.
//
// Upstream's steps, and what they imply:
//  1. the answers must have `time_to_eruption` and `segment_id` (asserts:
//     malformed answers);
//  2. the submission must have both columns, and the SET of its segment ids
//     must equal the answers' (Python set equality: 5 == 5.0; a NaN id never
//     matches). There is no row-count check: a repeated id passes;
//  3. `answers.merge(submission, on="segment_id")`, an inner join: every
//     answers row, in order, paired with each submission row holding its id,
//     in submission order, so a repeated id is scored once per repeat;
//  4. sklearn's mean_absolute_error on the pairs (non-numeric, NaN or
//     infinite predictions make it raise);
//  5. `int(round(score))`: half to even; an infinite score (predictions near
//     the float64 limit) makes int() raise OverflowError.

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "grading/metrics/inner_merge.h"
#include "grading/metrics/regression/mean_absolute_error.h"
#include "pycompat/pandas_ops.h"
#include "grading/metrics/regression_target.h"
#include "base/table.h"

namespace mlebench {
namespace {

constexpr std::string_view kIdColumn = "segment_id";
constexpr std::string_view kTargetColumn = "time_to_eruption";

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  const Column* answer_targets = answers.Find(kTargetColumn);
  if (answer_targets == nullptr) return MalformedAnswers("no time_to_eruption column");
  const Column* answer_ids = answers.Find(kIdColumn);
  if (answer_ids == nullptr) return MalformedAnswers("no segment_id column");
  if (answers.num_rows() == 0) return MalformedAnswers("no rows");
  if (absl::Status s = CheckRegressionTarget(*answer_targets).status(); !s.ok()) {
    return MalformedAnswers(std::string(s.message()));
  }

  const Column* targets = submission.Find(kTargetColumn);
  if (targets == nullptr) {
    return InvalidSubmission("Target column time_to_eruption not found in submissions DataFrame.");
  }
  const Column* ids = submission.Find(kIdColumn);
  if (ids == nullptr) {
    return InvalidSubmission("Segment ID column not found in submission DataFrame.");
  }
  if (const size_t differing = SymmetricDifferenceSize(*ids, *answer_ids); differing != 0) {
    return InvalidSubmission(absl::StrCat(
        "Submission's segment_ids differ from the answers' (", differing,
        " ids are in only one of them)"));
  }

  Column y_true{.name = "time_to_eruption_true", .dtype = answer_targets->dtype, .cells = {}};
  Column y_pred{.name = "time_to_eruption_pred", .dtype = targets->dtype, .cells = {}};
  for (const auto& [answer_row, row] : InnerMergeRows(*answer_ids, *ids)) {
    y_true.cells.push_back(answer_targets->cells[answer_row]);
    y_pred.cells.push_back(targets->cells[row]);
  }
  const absl::StatusOr<double> score = MeanAbsoluteError(y_true, y_pred);
  if (!score.ok()) return InvalidSubmission(std::string(score.status().message()));
  if (!std::isfinite(*score)) {
    return InvalidSubmission("cannot convert float infinity to integer");
  }
  return std::nearbyint(*score);  // Python's round(): half to even
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
