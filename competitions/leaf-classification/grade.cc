// Upstream's leaf-classification/grade.py: multi-class log loss of the
// per-species probabilities, aligned on `id`.

#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "competitions/leaf-classification/classes.h"
#include "grading/grader.h"
#include "grading/metrics/log_loss.h"
#include "grading/metrics/metric_inputs.h"
#include "grading/metrics/pandas_ops.h"
#include "grading/python_float.h"
#include "grading/table.h"

namespace mlebench {
namespace {

using leaf_classification::Classes;

constexpr char kIdColumn[] = "id";

// Upstream compares column *sets*: {"id"} and the classes, in any order,
// nothing more (the reader has already made names unique).
bool HasExactlyIdAndClassColumns(const Table& table) {
  if (table.num_columns() != Classes().size() + 1 || table.Find(kIdColumn) == nullptr) {
    return false;
  }
  for (const std::string& name : Classes()) {
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

// Upstream's row-sum and range checks on `submission[CLASSES]`.
absl::Status CheckProbabilities(const Table& submission) {
  // The class columns' values as pandas' row sum sees them, in CLASSES
  // order; a string makes the sum raise TypeError (pandas 2 drops no
  // "nuisance" columns).
  std::vector<const Column*> columns;
  std::vector<std::vector<double>> values;
  for (const std::string& name : Classes()) {
    const Column* column = submission.Find(name);
    columns.push_back(column);
    std::vector<double>& column_values = values.emplace_back();
    column_values.reserve(column->cells.size());
    for (size_t row = 0; row < column->cells.size(); ++row) {
      std::optional<double> v = NumericValue(column->cells[row]);
      if (!v.has_value()) {
        return InvalidSubmission(
            absl::StrCat("Each row in submission should sum to one, as probabilities, but column '",
                         name, "' holds the text '", std::get<std::string>(column->cells[row]),
                         "' in row ", row, ", which cannot be summed"));
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
          absl::StrCat("Each row in submission should sum to one, as probabilities (row ", row,
                       " sums to ", FormatPythonFloat(sum), ")."));
    }
  }
  for (size_t c = 0; c < values.size(); ++c) {
    for (size_t row = 0; row < values[c].size(); ++row) {
      const double v = values[c][row];
      if (!(v >= 0.0 && v <= 1.0)) {  // NaN fails both comparisons
        return InvalidSubmission(absl::StrCat(
            "All probabilities in submission DataFrame must be between 0 and 1 (column '",
            columns[c]->name, "', row ", row, ")."));
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  // Upstream asserts this after checking the submission; malformed answers
  // are ours, not the submission's, so they are reported first.
  if (!HasExactlyIdAndClassColumns(answers)) {
    return absl::FailedPreconditionError(
        "answers are malformed: they must have an 'id' column and a column for each class, "
        "and no other");
  }
  if (!HasExactlyIdAndClassColumns(submission)) {
    return InvalidSubmission(
        "Submission DataFrame must have an 'id' column and a column for each class.");
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat(
        "Submission and answers DataFrames must have the same number of rows (submission has ",
        submission.num_rows(), ", answers have ", answers.num_rows(), ")."));
  }
  if (absl::Status s = CheckProbabilities(submission); !s.ok()) return s;

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
    .id = "leaf-classification",
    .metric = "multi-class-log-loss",
    .grade = &Grade,
});

}  // namespace mlebench
