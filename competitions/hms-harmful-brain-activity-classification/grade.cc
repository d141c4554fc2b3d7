// Upstream's hms-harmful-brain-activity-classification/grade.py: Kaggle's
// KL divergence between the submitted class probabilities and the experts'
// vote shares, rows paired by sorting both tables on eeg_id.

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/python_float.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/grader.h"
#include "grading/metrics/regression/kl_divergence.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

constexpr std::string_view kIdColumn = "eeg_id";
// Upstream's constants.py.
constexpr std::array<std::string_view, 6> kTargetColumns = {
    "seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"};

// pandas' `submission[TARGET_COLS].sum(axis=1)` for one row: NaN skipped,
// columns added in order; nullopt where pandas raises (text in a column).
std::optional<double> TargetRowSum(const std::vector<const Column*>& columns, size_t row) {
  double sum = 0.0;
  for (const Column* column : columns) {
    std::optional<double> value = NumericValue(column->cells[row]);
    if (!value.has_value()) return std::nullopt;
    if (!std::isnan(*value)) sum += *value;
  }
  return sum;
}

// `table` with its rows in `order` and without the id column.
Table WithoutIdInOrder(const Table& table, const std::vector<size_t>& order) {
  std::vector<Column> columns;
  for (const Column& column : table.columns()) {
    if (column.name != kIdColumn) columns.push_back(TakeCells(column, order));
  }
  return Table(std::move(columns));
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  // prepare_for_metric's checks on the submission, in upstream's order.
  const Column* submitted_ids = submission.Find(kIdColumn);
  if (submitted_ids == nullptr) {
    return InvalidSubmission("Submission must contain eeg_id column");
  }
  std::vector<const Column*> submitted_targets;
  for (std::string_view name : kTargetColumns) {
    const Column* column = submission.Find(name);
    if (column == nullptr) {
      return InvalidSubmission(absl::StrCat("Submission must contain all target columns; '",
                                            std::string(name), "' is missing"));
    }
    submitted_targets.push_back(column);
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission and answers must have the same length (",
                                          submission.num_rows(), " vs ", answers.num_rows(),
                                          " rows)"));
  }
  for (size_t r = 0; r < submission.num_rows(); ++r) {
    std::optional<double> sum = TargetRowSum(submitted_targets, r);
    if (!sum.has_value()) {
      return InvalidSubmission(
          absl::StrCat("Submission probabilities must be numbers; row ", r, " holds text"));
    }
    // `round(x, 5) == 1`.
    if (RoundPython(*sum, 5) != 1.0) {
      return InvalidSubmission(absl::StrCat(
          "Submission probabilities must add to 1 for each row; row ", r, " sums to ",
          FormatPythonFloat(*sum)));
    }
  }
  const Column* answer_ids = answers.Find(kIdColumn);
  if (answer_ids == nullptr) {
    return MalformedAnswers("no 'eeg_id' column");
  }
  if (size_t differing = SymmetricDifferenceSize(*answer_ids, *submitted_ids); differing > 0) {
    return InvalidSubmission(absl::StrCat("Submission and answers must have the same IDs (",
                                          differing, " ids are in only one of them)"));
  }
  for (std::string_view name : kTargetColumns) {
    if (answers.Find(name) == nullptr) {
      return MalformedAnswers(absl::StrCat("no '", std::string(name), "' column"));
    }
  }

  absl::StatusOr<std::vector<size_t>> submission_order = SortValuesOrder(*submitted_ids);
  if (!submission_order.ok()) return InvalidSubmission(std::string(submission_order.status().message()));
  ASSIGN_OR_RETURN(std::vector<size_t> answers_order, SortValuesOrder(*answer_ids));

  // The votes normalised into shares: vote / sum(votes) per row.
  std::vector<const Column*> votes;
  for (std::string_view name : kTargetColumns) votes.push_back(answers.Find(name));
  std::vector<Column> shares;
  for (std::string_view name : kTargetColumns) {
    shares.push_back(Column{std::string(name), Dtype::kFloat64, {}});
  }
  for (size_t r : answers_order) {
    std::optional<double> total = TargetRowSum(votes, r);
    if (!total.has_value()) {
      return MalformedAnswers(absl::StrCat("text among the votes of row ", r));
    }
    for (size_t c = 0; c < votes.size(); ++c) {
      shares[c].cells.push_back(*NumericValue(votes[c]->cells[r]) / *total);
    }
  }
  const Table solution(std::move(shares));
  if (absl::Status s = VerifyValidProbabilities(solution, "solution"); !s.ok()) {
    return MalformedAnswers(std::string(s.message()));
  }
  absl::StatusOr<double> score =
      KlDivergenceScore(solution, WithoutIdInOrder(submission, *submission_order));
  if (!score.ok()) return InvalidSubmission(std::string(score.status().message()));
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
