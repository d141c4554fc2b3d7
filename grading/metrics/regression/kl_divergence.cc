#include "grading/metrics/regression/kl_divergence.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "pycompat/numpy_sum.h"

namespace mlebench {
namespace {

// A numeric column's value at `row` (bools as 0/1); callers have checked
// that the frame is numeric.
double Value(const Column& column, size_t row) {
  const Cell& cell = column.cells[row];
  if (const auto* b = std::get_if<bool>(&cell)) return *b ? 1.0 : 0.0;
  if (const auto* i = std::get_if<int64_t>(&cell)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&cell)) return *d;
  return std::nan("");
}

bool IsNumericFrame(const Table& frame) {
  bool all_bool = true;
  bool all_number = true;
  for (const Column& column : frame.columns()) {
    all_bool = all_bool && column.dtype == Dtype::kBool;
    all_number =
        all_number && (column.dtype == Dtype::kInt64 || column.dtype == Dtype::kFloat64);
  }
  return all_bool || all_number;
}

// pandas' sum(axis=1) of one row: NaN skipped, columns added left to right.
double RowSum(const std::vector<double>& values) {
  double sum = 0.0;
  for (double v : values) {
    if (!std::isnan(v)) sum += v;
  }
  return sum;
}

}  // namespace

absl::Status VerifyValidProbabilities(const Table& frame, std::string_view frame_name) {
  const std::string name(frame_name);
  if (!IsNumericFrame(frame)) {
    return absl::InvalidArgumentError(
        absl::StrCat("All target values in ", name, " must be numeric"));
  }
  bool below_zero = false;
  bool above_one = false;
  for (const Column& column : frame.columns()) {
    for (size_t r = 0; r < frame.num_rows(); ++r) {
      const double v = Value(column, r);
      below_zero = below_zero || v < 0;  // NaN compares false: skipped
      above_one = above_one || v > 1;
    }
  }
  if (below_zero) {
    return absl::InvalidArgumentError(
        absl::StrCat("All target values in ", name, " must be at least zero"));
  }
  if (above_one) {
    return absl::InvalidArgumentError(
        absl::StrCat("All target values in ", name, " must be no greater than one"));
  }
  std::vector<double> row(frame.num_columns());
  for (size_t r = 0; r < frame.num_rows(); ++r) {
    for (size_t c = 0; c < frame.num_columns(); ++c) row[c] = Value(frame.columns()[c], r);
    const double sum = RowSum(row);
    // np.allclose(sum, 1) with rtol=1e-5, atol=1e-8 (infinities never pass).
    if (!(std::abs(sum - 1.0) <= 1e-8 + 1e-5)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Target values in ", name, " do not add to one within all rows (row ", r, " sums to ",
          sum, ")"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<double> KlDivergenceScore(const Table& solution, const Table& submission,
                                         double epsilon) {
  std::vector<const Column*> predictions;
  for (const Column& column : solution.columns()) {
    const Column* prediction = submission.Find(column.name);
    if (prediction == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("Missing submission column ", column.name));
    }
    predictions.push_back(prediction);
  }
  if (solution.num_rows() != submission.num_rows()) {
    return absl::InvalidArgumentError(absl::StrCat("solution has ", solution.num_rows(),
                                                   " rows but submission has ",
                                                   submission.num_rows()));
  }
  RETURN_IF_ERROR(VerifyValidProbabilities(solution, "solution"));
  RETURN_IF_ERROR(VerifyValidProbabilities(submission, "submission"));

  const size_t num_rows = solution.num_rows();
  std::vector<double> row_losses(num_rows);
  std::vector<double> losses(solution.num_columns());
  for (size_t r = 0; r < num_rows; ++r) {
    for (size_t c = 0; c < solution.num_columns(); ++c) {
      const double y = Value(solution.columns()[c], r);
      double p = Value(*predictions[c], r);
      // np.clip on an int64 column is pandas' Series.clip, whose `where`
      // casts the clipped floats back to int64 when they are all within 1e-8
      // of integers (pandas 1.5 and 2.2 alike; 2.2 warns). The verified 0/1
      // values always are, so int columns stay unclipped: a 0 against a
      // nonzero target gives an infinite loss.
      if (!std::isnan(p) && predictions[c]->dtype != Dtype::kInt64) {
        p = std::clamp(p, epsilon, 1 - epsilon);
      }
      losses[c] = y != 0 ? y * std::log(y / p) : 0.0;  // NaN y counts as nonzero
    }
    row_losses[r] = RowSum(losses);
  }
  return NumpyMean(row_losses);
}

}  // namespace mlebench
