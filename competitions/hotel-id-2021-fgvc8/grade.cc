// Upstream's hotel-id-2021-fgvc8/grade.py: MAP@5 of up to five
// space-separated hotel ids per test image, rows aligned on `image`.

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/metrics/ranking/map_at_k.h"
#include "base/table.h"

namespace mlebench {
namespace {

constexpr char kIdColumn[] = "image";
constexpr char kTargetColumn[] = "hotel_id";

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  if (!submission.Get(kIdColumn).ok()) {
    return InvalidSubmission("Submission is missing `image` column");
  }
  if (!submission.Get(kTargetColumn).ok()) {
    return InvalidSubmission("Submission is missing `hotel_id` column");
  }
  absl::StatusOr<const Column*> answer_ids = answers.Get(kIdColumn);
  absl::StatusOr<const Column*> answer_labels = answers.Get(kTargetColumn);
  if (!answer_ids.ok() || !answer_labels.ok()) {
    return absl::FailedPreconditionError("answers must have `image` and `hotel_id` columns");
  }
  const Column& submission_ids = **submission.Get(kIdColumn);
  const Column& submission_labels = **submission.Get(kTargetColumn);

  if (!SameIdSets(submission_ids, **answer_ids)) {
    return InvalidSubmission("Submission and answers have different ids");
  }
  if (submission_ids.cells.size() != (*answer_ids)->cells.size()) {
    return InvalidSubmission("Submission and answers have different lengths");
  }
  return MapAtKAlignedOnIds(submission_ids, submission_labels, **answer_ids, **answer_labels,
                            /*k=*/5);
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
    .submission_csv = {.string_columns = {"image"}},
    // Only what Grade reads: the answers also hold the chain and timestamp.
    .answers_csv = {.string_columns = {"image"},
                    .only_columns = {kIdColumn, kTargetColumn}},
});

}  // namespace mlebench
