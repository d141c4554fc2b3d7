#include "competitions/herbarium-2020-fgvc7/id_label_macro_f1.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "grading/metrics/f1_score.h"
#include "grading/metrics/pandas_ops.h"
#include "grading/table.h"

namespace mlebench {
namespace {

bool IsPythonSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

std::optional<int64_t> PythonIntOfString(std::string_view text) {
  while (!text.empty() && IsPythonSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsPythonSpace(text.back())) text.remove_suffix(1);
  bool negative = false;
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  // Magnitude up to 2**63 (for INT64_MIN).
  constexpr uint64_t kLimit = uint64_t{1} << 63;
  uint64_t magnitude = 0;
  bool previous_digit = false;
  for (char c : text) {
    if (c == '_') {
      if (!previous_digit) return std::nullopt;
      previous_digit = false;
      continue;
    }
    if (c < '0' || c > '9') return std::nullopt;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (magnitude > (kLimit - digit) / 10) return std::nullopt;
    magnitude = magnitude * 10 + digit;
    previous_digit = true;
  }
  if (!previous_digit) return std::nullopt;  // trailing underscore
  if (negative) return static_cast<int64_t>(uint64_t{0} - magnitude);
  if (magnitude == kLimit) return std::nullopt;
  return static_cast<int64_t>(magnitude);
}

absl::Status BadAnswers(std::string_view reason) {
  return absl::FailedPreconditionError(absl::StrCat("answers are malformed: ", std::string(reason)));
}

}  // namespace

std::optional<int64_t> PythonIntOfCell(const Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return std::nullopt;  // int(nan)
  if (const auto* b = std::get_if<bool>(&cell)) return *b ? 1 : 0;
  if (const auto* i = std::get_if<int64_t>(&cell)) return *i;
  if (const auto* d = std::get_if<double>(&cell)) {
    if (!std::isfinite(*d)) return std::nullopt;
    const double truncated = std::trunc(*d);
    // [-2**63, 2**63) is exactly representable at its ends.
    if (truncated < -9223372036854775808.0 || truncated >= 9223372036854775808.0) {
      return std::nullopt;
    }
    return static_cast<int64_t>(truncated);
  }
  return PythonIntOfString(std::get<std::string>(cell));
}

absl::StatusOr<double> GradeIdLabelMacroF1(const Table& submission, const Table& answers,
                                           std::string_view id_column,
                                           std::string_view label_column) {
  const std::string id(id_column);
  const std::string label(label_column);
  const Column* answer_ids = answers.Find(id);
  const Column* answer_labels = answers.Find(label);
  if (answer_ids == nullptr || answer_labels == nullptr) {
    return BadAnswers(absl::StrCat("expected columns '", id, "' and '", label, "'"));
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission length ", submission.num_rows(),
                                          " != answers length ", answers.num_rows()));
  }
  const Column* ids = submission.Find(id);
  const Column* labels = submission.Find(label);
  if (ids == nullptr || labels == nullptr) {
    return InvalidSubmission(
        absl::StrCat("Submission must have '", id, "' and '", label, "' columns"));
  }

  absl::StatusOr<std::vector<size_t>> answer_order = SortValuesOrder(*answer_ids);
  if (!answer_order.ok()) return BadAnswers(std::string(answer_order.status().message()));
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(*ids);
  if (!order.ok()) {
    // pandas raises TypeError sorting text against numbers.
    return InvalidSubmission(
        absl::StrCat("'", id, "' cannot be sorted: ", std::string(order.status().message())));
  }
  const Column sorted_ids = TakeCells(*ids, *order);
  const Column sorted_answer_ids = TakeCells(*answer_ids, *answer_order);
  for (size_t row = 0; row < sorted_ids.cells.size(); ++row) {
    if (!CellsEqual(sorted_ids.cells[row], sorted_answer_ids.cells[row])) {
      return InvalidSubmission(
          absl::StrCat("Submission and answers have mismatched '", id, "' columns"));
    }
  }

  std::vector<int64_t> y_true;
  y_true.reserve(answer_order->size());
  for (size_t row : *answer_order) {
    std::optional<int64_t> value = PythonIntOfCell(answer_labels->cells[row]);
    if (!value) return BadAnswers(absl::StrCat("'", label, "' holds a value int() rejects"));
    y_true.push_back(*value);
  }
  std::vector<int64_t> y_pred;
  y_pred.reserve(order->size());
  for (size_t row : *order) {
    std::optional<int64_t> value = PythonIntOfCell(labels->cells[row]);
    if (!value) {
      return InvalidSubmission(absl::StrCat(
          "'", label, "' must hold integer class ids; int() rejects a value in row ", row));
    }
    y_pred.push_back(*value);
  }
  FScoreOptions options;
  options.average = FScoreAverage::kMacro;
  absl::StatusOr<double> score = MulticlassFScore(y_true, y_pred, options);
  if (!score.ok()) {
    return absl::InternalError(
        absl::StrCat("f1_score failed: ", std::string(score.status().message())));
  }
  return score;
}

}  // namespace mlebench
