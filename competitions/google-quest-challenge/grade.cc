// Upstream's google-quest-challenge/grade.py: the mean over the 30 target
// columns of scipy's Spearman correlation between the submission's and the
// answers' column, after both are sorted by `qa_id`.
//
// Upstream's steps, and what they imply:
//  1. the submission must hold `qa_id`, every target column, and nothing
//     else (exactly 31 columns), and as many rows as the answers;
//  2. both are sorted by qa_id and paired row by row. The ids themselves
//     are never compared: a submission with other ids (or repeated ones)
//     but the right length is scored as it pairs up;
//  3. spearmanr of each column pair (SpearmanCorrelation: a constant or
//     NaN-holding column gives NaN, text is ranked as text, text mixed with
//     numbers cannot be sorted), then np.mean, so one NaN column makes the
//     score NaN (upstream returns it; it raises nothing).

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "competitions/google-quest-challenge/classes.h"
#include "grading/grader.h"
#include "pycompat/numpy_sum.h"
#include "pycompat/pandas_ops.h"
#include "grading/metrics/correlation/spearman_correlation.h"
#include "base/table.h"

namespace mlebench {
namespace {

using google_quest::kIdColumn;
using google_quest::kTargets;

// The target columns `table` lacks, in sorted order.
std::vector<std::string> MissingTargets(const Table& table) {
  std::set<std::string> missing;
  for (std::string_view target : kTargets) {
    if (table.Find(target) == nullptr) missing.insert(std::string(target));
  }
  return {missing.begin(), missing.end()};
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  const size_t expected_columns = kTargets.size() + 1;
  if (submission.Find(kIdColumn) == nullptr) {
    return InvalidSubmission("Submission is missing `qa_id` column");
  }
  if (std::vector<std::string> missing = MissingTargets(submission); !missing.empty()) {
    return InvalidSubmission(absl::StrCat("Submission is missing the following columns: ",
                                          absl::StrJoin(missing, ", ")));
  }
  if (submission.num_columns() != expected_columns) {
    return InvalidSubmission(absl::StrCat("Submission has ", submission.num_columns() - 1,
                                          " columns, expected ", kTargets.size()));
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission("Submission and answers have different lengths");
  }
  if (answers.Find(kIdColumn) == nullptr) return MalformedAnswers("no qa_id column");
  if (!MissingTargets(answers).empty() || answers.num_columns() != expected_columns) {
    return MalformedAnswers("expected qa_id and the 30 target columns");
  }

  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(*submission.Find(kIdColumn));
  if (!order.ok()) {
    return InvalidSubmission(
        absl::StrCat("sorting the submission by qa_id: ", order.status().message()));
  }
  absl::StatusOr<std::vector<size_t>> answer_order = SortValuesOrder(*answers.Find(kIdColumn));
  if (!answer_order.ok()) return MalformedAnswers(std::string(answer_order.status().message()));

  std::vector<double> correlations;
  for (std::string_view target : kTargets) {
    const Column y_true = TakeCells(*answers.Find(target), *answer_order);
    if (y_true.dtype == Dtype::kObject) {
      return MalformedAnswers(absl::StrCat(std::string(target), " is not numeric"));
    }
    absl::StatusOr<double> rho =
        SpearmanCorrelation(TakeCells(*submission.Find(target), *order), y_true);
    if (!rho.ok()) {
      return InvalidSubmission(
          absl::StrCat("spearmanr rejects `", std::string(target), "`: ", rho.status().message()));
    }
    correlations.push_back(*rho);
  }
  return NumpyMean(correlations);
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
