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
#include "competitions/dog-breed-identification/classes.h"
#include "grading/grader.h"
#include "grading/metrics/log_loss.h"
#include "grading/metrics/metric_inputs.h"
#include "grading/metrics/pandas_ops.h"
#include "grading/python_float.h"
#include "grading/table.h"

namespace mlebench {
namespace {

using dog_breed_identification::Breeds;

constexpr char kIdColumn[] = "id";

bool HasAllBreedColumns(const Table& table) {
  for (const std::string& name : Breeds()) {
    if (table.Find(name) == nullptr) return false;
  }
  return true;
}

// upstream: np.isclose(row_sum, 1, atol=1e-6), with isclose's default
// rtol=1e-5, i.e. |sum - 1| <= 1e-6 + 1e-5 * |1|; never for inf or NaN.
bool IsCloseToOne(double sum) {
  constexpr double kAtol = 1e-6;
  constexpr double kRtol = 1e-5;
  return std::isfinite(sum) && std::fabs(sum - 1.0) <= kAtol + kRtol * 1.0;
}

// Upstream's row-sum check, then its range check, on `submission[DOGS_LIST]`.
absl::Status CheckProbabilities(const Table& submission) {
  // Values as pandas' row sum sees them, in DOGS_LIST order. Text in a class
  // column makes upstream raise (TypeError in the sum or in `>= 0`).
  std::vector<std::vector<double>> values;
  for (const std::string& name : Breeds()) {
    const Column* column = submission.Find(name);
    std::vector<double>& column_values = values.emplace_back();
    column_values.reserve(column->cells.size());
    for (size_t row = 0; row < column->cells.size(); ++row) {
      std::optional<double> v = NumericValue(column->cells[row]);
      if (!v.has_value()) {
        return InvalidSubmission(absl::StrCat(
            "Dog probabilities must be numbers, but column '", name, "' holds the text '",
            std::get<std::string>(column->cells[row]), "' in row ", row));
      }
      column_values.push_back(*v);
    }
  }
  for (size_t row = 0; row < submission.num_rows(); ++row) {
    double sum = 0.0;  // DataFrame.sum(axis=1): NaN skipped, columns added in order
    for (const std::vector<double>& column_values : values) {
      if (!std::isnan(column_values[row])) sum += column_values[row];
    }
    if (!IsCloseToOne(sum)) {
      return InvalidSubmission(
          absl::StrCat("Dog probabilities in each row in submission should sum to one (row ", row,
                       " sums to ", FormatPythonFloat(sum), ")."));
    }
  }
  for (size_t c = 0; c < values.size(); ++c) {
    for (size_t row = 0; row < values[c].size(); ++row) {
      const double v = values[c][row];
      if (!(v >= 0.0 && v <= 1.0)) {  // NaN fails both comparisons
        return InvalidSubmission(absl::StrCat(
            "All probabilities in submission must be between 0 and 1 (column '", Breeds()[c],
            "', row ", row, ")."));
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  // Upstream asserts this after its first submission checks; malformed
  // answers are ours, not the submission's, so they are reported first.
  if (answers.Find(kIdColumn) == nullptr || !HasAllBreedColumns(answers)) {
    return absl::FailedPreconditionError(
        "answers are malformed: they must have an 'id' column and a column for each breed");
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
  if (absl::Status s = CheckProbabilities(submission); !s.ok()) return s;

  // Extra submission columns are dropped here, as upstream does.
  absl::StatusOr<LogLossInputs> inputs =
      OneHotTablesToLogLossInputs(submission, answers, kIdColumn);
  if (!inputs.ok()) return inputs.status();
  absl::StatusOr<double> score = LogLoss(inputs->true_view(), inputs->pred_view());
  if (!score.ok()) {
    return InvalidSubmission(
        absl::StrCat("log_loss rejects the submission: ", score.status().message()));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = "dog-breed-identification",
    .metric = "multi-class-log-loss",
    .grade = &Grade,
});

}  // namespace mlebench
