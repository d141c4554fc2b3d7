#include "grading/metrics/classification/accuracy.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "grading/metrics/sklearn_checks.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

// Collects distinct values until a third one shows up: type_of_target only
// asks whether there are more than two.
template <typename T>
class FewDistinct {
 public:
  void Add(const T& v) {
    if (values_.size() > 2) return;
    for (const T& seen : values_) {
      if (seen == v) return;
    }
    values_.push_back(v);
  }
  bool more_than_two() const { return values_.size() > 2; }

 private:
  std::vector<T> values_;
};

absl::Status MalformedCell(const Column& y, size_t row) {
  return absl::InvalidArgumentError(
      absl::StrCat("column '", y.name, "' has dtype ", std::string(DtypeName(y.dtype)), " but row ",
                   row, " holds a ", std::string(PythonTypeName(y.cells[row]))));
}

absl::StatusOr<TargetType> TypeOfObjectColumn(const Column& y, std::string_view input_name) {
  const std::vector<Cell>& cells = y.cells;
  // sklearn: an object array whose first element is not a str is "unknown".
  if (!std::holds_alternative<std::string>(cells[0])) return TargetType::kUnknown;
  FewDistinct<std::string_view> distinct;
  for (const Cell& c : cells) {
    const auto* s = std::get_if<std::string>(&c);
    if (s == nullptr) {
      // np.unique sorts the object array and Python cannot order str and c.
      return absl::InvalidArgumentError(
          absl::StrCat("'<' not supported between instances of '", std::string(PythonTypeName(c)),
                       "' and 'str' (", std::string(input_name), " mixes strings with ",
                       std::string(PythonTypeName(c)), " values)"));
    }
    distinct.Add(*s);
  }
  return distinct.more_than_two() ? TargetType::kMulticlass : TargetType::kBinary;
}

absl::StatusOr<TargetType> TypeOfFloatColumn(const Column& y, std::string_view input_name) {
  std::vector<double> values;
  values.reserve(y.cells.size());
  for (size_t i = 0; i < y.cells.size(); ++i) {
    std::optional<double> v = NumericValue(y.cells[i]);
    if (!v.has_value()) return MalformedCell(y, i);
    values.push_back(*v);
  }
  bool all_integral = true;
  for (double v : values) all_integral = all_integral && IsNumpyIntegral(v);
  if (!all_integral) {
    RETURN_IF_ERROR(AssertAllFinite(values, input_name));
    return TargetType::kContinuous;
  }
  FewDistinct<double> distinct;
  for (double v : values) distinct.Add(v);
  return distinct.more_than_two() ? TargetType::kMulticlass : TargetType::kBinary;
}

absl::StatusOr<TargetType> TypeOfIntegerColumn(const Column& y) {
  FewDistinct<int64_t> distinct;
  for (size_t i = 0; i < y.cells.size(); ++i) {
    const Cell& c = y.cells[i];
    if (const auto* v = std::get_if<int64_t>(&c)) {
      distinct.Add(*v);
    } else if (const auto* b = std::get_if<bool>(&c)) {
      distinct.Add(*b ? 1 : 0);
    } else {
      return MalformedCell(y, i);
    }
  }
  return distinct.more_than_two() ? TargetType::kMulticlass : TargetType::kBinary;
}

}  // namespace

std::string_view TargetTypeName(TargetType type) {
  switch (type) {
    case TargetType::kBinary:
      return "binary";
    case TargetType::kMulticlass:
      return "multiclass";
    case TargetType::kContinuous:
      return "continuous";
    case TargetType::kUnknown:
      return "unknown";
  }
  return "unknown";
}

absl::StatusOr<TargetType> TypeOfTarget(const Column& y, std::string_view input_name) {
  // An empty 1-D array is "binary".
  if (y.cells.empty()) return TargetType::kBinary;
  switch (y.dtype) {
    case Dtype::kObject:
      return TypeOfObjectColumn(y, input_name);
    case Dtype::kFloat64:
      return TypeOfFloatColumn(y, input_name);
    case Dtype::kInt64:
    case Dtype::kBool:
      return TypeOfIntegerColumn(y);
  }
  return TargetType::kUnknown;
}

absl::StatusOr<double> AccuracyScore(const Column& y_true, const Column& y_pred) {
  // sklearn's _check_targets, in its order.
  RETURN_IF_ERROR(CheckConsistentLength(y_true.cells.size(), y_pred.cells.size()));
  ASSIGN_OR_RETURN(TargetType type_true, TypeOfTarget(y_true, "y_true"));
  ASSIGN_OR_RETURN(TargetType type_pred, TypeOfTarget(y_pred, "y_pred"));

  auto is_label_type = [](TargetType t) {
    return t == TargetType::kBinary || t == TargetType::kMulticlass;
  };
  if (type_true != type_pred && !(is_label_type(type_true) && is_label_type(type_pred))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Classification metrics can't handle a mix of ", std::string(TargetTypeName(type_true)),
        " and ", std::string(TargetTypeName(type_pred)), " targets"));
  }
  if (!is_label_type(type_true)) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(TargetTypeName(type_true)), " is not supported"));
  }
  // Both binary: np.union1d(y_true, y_pred) sorts the concatenation, which
  // fails when one side is strings (object) and the other numbers.
  const bool true_is_text = y_true.dtype == Dtype::kObject;
  const bool pred_is_text = y_pred.dtype == Dtype::kObject;
  if (type_true == TargetType::kBinary && type_pred == TargetType::kBinary &&
      true_is_text != pred_is_text && !y_true.cells.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Labels in y_true and y_pred should be of the same type. Got ",
        true_is_text ? "string" : "numeric", " labels in y_true and ",
        pred_is_text ? "string" : "numeric",
        " labels in y_pred. Make sure that the predictions provided by the classifier coincides "
        "with the true labels."));
  }

  const size_t n = y_true.cells.size();
  if (n == 0) return std::numeric_limits<double>::quiet_NaN();
  size_t matches = 0;
  for (size_t i = 0; i < n; ++i) matches += CellsEqual(y_true.cells[i], y_pred.cells[i]) ? 1 : 0;
  // np.mean of the boolean array: an exact count divided once by n.
  return static_cast<double>(matches) / static_cast<double>(n);
}

}  // namespace mlebench
