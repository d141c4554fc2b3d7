// Upstream's whale-categorization-playground/grade.py: MAP@5 of up to five
// space-separated whale ids per test image, rows aligned on `Image`.

#include <set>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/metrics/ranking/map_at_k.h"
#include "base/typed_table.h"

namespace mlebench {
namespace {

bool HasExactlyImageAndId(const TypedTable& table) {
  const std::vector<std::string> names = table.ColumnNames();
  return std::set<std::string>(names.begin(), names.end()) == std::set<std::string>{"Image", "Id"};
}

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  if (!HasExactlyImageAndId(answers)) {
    return absl::FailedPreconditionError("answers must have exactly the columns 'Image' and 'Id'");
  }
  if (!HasExactlyImageAndId(submission)) {
    return InvalidSubmission("Submission DataFrame must have 'Image' and 'Id' columns.");
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission("Submission and answers DataFrames must have the same number of rows.");
  }
  const TypedColumn& submission_ids = **submission.Get("Image");
  const TypedColumn& answer_ids = **answers.Get("Image");
  if (!SameIdSets(submission_ids, answer_ids)) {
    return InvalidSubmission("Submission and answers have different Image IDs");
  }
  return MapAtKAlignedOnIds(submission_ids, **submission.Get("Id"), answer_ids,
                            **answers.Get("Id"), /*k=*/5);
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
    .submission_csv = {.string_columns = {"Image"}},
    .answers_csv = {.string_columns = {"Image"}},
});

}  // namespace mlebench
