// Upstream's dog-breed-identification/grade.py: multi-class log loss of the
// per-breed probabilities, aligned on `id`.

#include <cmath>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/python_float.h"
#include "base/status_macros.h"
#include "base/typed_table.h"
#include "competitions/dog-breed-identification/classes.h"
#include "grading/grader.h"
#include "grading/metrics/metric_inputs.h"
#include "grading/metrics/probability_rows.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

using dog_breed_identification::Breeds;

constexpr char kIdColumn[] = "id";

bool HasAllBreedColumns(const TypedTable& table) {
  for (const std::string& name : Breeds()) {
    if (table.Find(name) == nullptr) return false;
  }
  return true;
}


// Upstream's row-sum check, then its range check, on `submission[DOGS_LIST]`.
absl::Status CheckProbabilities(const TypedTable& submission) {
  std::vector<const TypedColumn*> columns;
  for (const std::string& name : Breeds()) columns.push_back(submission.Find(name));
  return CheckProbabilityRows(columns, "Dog probabilities in each row in submission should sum to one",
                              "All probabilities in submission must be between 0 and 1");
}

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  // Upstream asserts this after its first submission checks; malformed
  // answers are ours, not the submission's, so they are reported first.
  if (answers.Find(kIdColumn) == nullptr || !HasAllBreedColumns(answers)) {
    return MalformedAnswers("they must have an 'id' column and a column for each breed");
  }
  if (!HasAllBreedColumns(submission)) {
    return InvalidSubmission("Submission must have columns for all 120 dog breeds.");
  }
  if (submission.Find(kIdColumn) == nullptr) {
    return InvalidSubmission("Submission must have an `id` column");
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat(
        "Submission should be the same length as the answers (submission has ",
        submission.num_rows(), " rows, answers have ", answers.num_rows(), ")."));
  }
  RETURN_IF_ERROR(CheckProbabilities(submission));

  // Extra submission columns are dropped here, as upstream does.
  return OneHotLogLossAlignedOnIds(submission, answers, kIdColumn);
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
});

}  // namespace mlebench
