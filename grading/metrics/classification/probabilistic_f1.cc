#include "grading/metrics/classification/probabilistic_f1.h"

#include <cstdint>
#include <limits>
#include <string>
#include <variant>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace mlebench {
namespace {

// Python's truthiness of a label value.
bool Truthy(const Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return true;  // NaN
  if (const bool* b = std::get_if<bool>(&cell)) return *b;
  if (const int64_t* i = std::get_if<int64_t>(&cell)) return *i != 0;
  if (const double* d = std::get_if<double>(&cell)) return *d != 0;  // NaN != 0
  return !std::get<std::string>(cell).empty();
}

// A running sum as Python sees it: its value, and whether it is still a
// Python number (a numpy operand anywhere makes it numpy).
struct Accumulator {
  double value = 0;  // upstream starts from the Python int 0
  bool python = true;
};

}  // namespace

absl::StatusOr<double> ProbabilisticFBeta(const Column& labels, const Column& predictions,
                                          double beta) {
  if (labels.cells.size() != predictions.cells.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("labels and predictions differ in length: ", labels.cells.size(), " vs ",
                     predictions.cells.size()));
  }
  const bool numpy_values = predictions.dtype != Dtype::kObject;
  int64_t true_count = 0;
  Accumulator ctp, cfp;
  for (size_t row = 0; row < labels.cells.size(); ++row) {
    const Cell& cell = predictions.cells[row];
    double value;
    if (std::holds_alternative<std::string>(cell)) {
      return absl::InvalidArgumentError(
          absl::StrCat("prediction in row ", row,
                       " is text: '>' not supported between instances of 'int' and 'str'"));
    } else if (std::holds_alternative<std::monostate>(cell)) {
      value = std::numeric_limits<double>::quiet_NaN();
    } else if (const bool* b = std::get_if<bool>(&cell)) {
      value = *b ? 1 : 0;
    } else if (const int64_t* i = std::get_if<int64_t>(&cell)) {
      value = static_cast<double>(*i);
    } else {
      value = std::get<double>(cell);
    }
    // max(p, 0) is the Python int 0 only when 0 > p; min(x, 1) the Python
    // int 1 only when 1 < x. NaN passes both unchanged.
    bool python = !numpy_values;
    if (0 > value) {
      value = 0;
      python = true;
    } else if (1 < value) {
      value = 1;
      python = true;
    }
    Accumulator& sum = Truthy(labels.cells[row]) ? ctp : cfp;
    if (&sum == &ctp) ++true_count;
    sum.value += value;
    sum.python = sum.python && python;
  }
  const double denominator = ctp.value + cfp.value;
  if (ctp.python && cfp.python && denominator == 0) {
    return absl::InvalidArgumentError(
        "ZeroDivisionError computing precision: ctp + cfp is 0 (no positive prediction)");
  }
  if (true_count == 0) {
    return absl::InvalidArgumentError(
        "ZeroDivisionError computing recall: no label is positive");
  }
  const double precision = ctp.value / denominator;
  const double recall = ctp.value / static_cast<double>(true_count);
  if (precision > 0 && recall > 0) {
    const double beta_squared = beta * beta;
    return (1 + beta_squared) * (precision * recall) / (beta_squared * precision + recall);
  }
  return 0.0;
}

}  // namespace mlebench
