// Upstream's spooky-author-identification/grade.py: multi-class log loss of
// the per-author probabilities, aligned on `id`.

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "grading/metrics/log_loss.h"
#include "grading/metrics/metric_inputs.h"
#include "grading/metrics/pandas_ops.h"
#include "grading/python_float.h"
#include "grading/table.h"

namespace mlebench {
namespace {

constexpr std::string_view kIdColumn = "id";
// Upstream's classes.py.
constexpr std::array<std::string_view, 3> kClasses = {"EAP", "HPL", "MWS"};

// upstream: np.isclose(row_sum, 1, atol=1e-6), with isclose's default
// rtol=1e-5, i.e. |sum - 1| <= 1e-6 + 1e-5 * |1|; never for inf.
bool IsCloseToOne(double sum) {
  constexpr double kAtol = 1e-6;
  constexpr double kRtol = 1e-5;
  return std::isfinite(sum) && std::fabs(sum - 1.0) <= kAtol + kRtol * 1.0;
}

// Upstream's prepare_for_metric checks, which look at the probability
// columns by position (`submission.iloc[:, 1:]`), whatever their names.
absl::Status CheckProbabilities(const Table& submission) {
  const std::vector<Column>& columns = submission.columns();
  // Values as pandas' row sum sees them; a string makes the sum raise
  // TypeError (pandas 2 drops no "nuisance" columns).
  std::vector<std::vector<double>> values;
  for (size_t c = 1; c < columns.size(); ++c) {
    std::vector<double>& column_values = values.emplace_back();
    column_values.reserve(columns[c].cells.size());
    for (size_t row = 0; row < columns[c].cells.size(); ++row) {
      std::optional<double> v = NumericValue(columns[c].cells[row]);
      if (!v.has_value()) {
        return InvalidSubmission(absl::StrCat(
            "Each row in submission should sum to one, as probabilities, but column '",
            columns[c].name, "' holds the text '", std::get<std::string>(columns[c].cells[row]),
            "' in row ", row, ", which cannot be summed"));
      }
      column_values.push_back(*v);
    }
  }
  for (size_t row = 0; row < submission.num_rows(); ++row) {
    double sum = 0.0;  // DataFrame.sum(axis=1): NaN skipped, columns added left to right
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
            columns[c + 1].name, "', row ", row, ")."));
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  if (answers.Find(kIdColumn) == nullptr) {
    return absl::FailedPreconditionError("answers are malformed: no 'id' column");
  }
  for (std::string_view name : kClasses) {
    if (answers.Find(name) == nullptr) {
      return absl::FailedPreconditionError(
          absl::StrCat("answers are malformed: no '", std::string(name), "' column"));
    }
  }
  const size_t expected_columns = kClasses.size() + 1;
  if (submission.num_rows() != answers.num_rows() || submission.num_columns() != expected_columns) {
    return InvalidSubmission(absl::StrCat(
        "Submission shape (", submission.num_rows(), ", ", submission.num_columns(),
        ") does not match answers shape (", answers.num_rows(), ", ", answers.num_columns(), ")."));
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
    .id = "spooky-author-identification",
    .metric = "multi-class-log-loss",
    .grade = &Grade,
});

}  // namespace mlebench
