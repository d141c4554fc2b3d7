// Upstream's alaska2-image-steganalysis/grade.py: the ALASKA2 weighted AUC
// (AlaskaWeightedAuc) of `Label` (the likelihood that a test image hides a
// message) against the 0/1 answers, rows paired after sorting both files by
// `Id`, which must then agree row by row.

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "pycompat/object_float_cast.h"
#include "pycompat/pandas_ops.h"
#include "grading/metrics/classification/weighted_auroc.h"
#include "base/typed_table.h"

namespace mlebench {
namespace {

constexpr char kId[] = "Id";
constexpr char kLabel[] = "Label";

// `column.astype(float)` in `order`; nullopt where a cell does not convert.
std::optional<std::vector<double>> AsFloats(const TypedColumn& column,
                                            const std::vector<size_t>& order) {
  std::vector<double> numbers(column.size());
  const size_t numeric_rows = CopyNumericValues(column, numbers);
  std::vector<double> values;
  values.reserve(order.size());
  for (size_t row : order) {
    std::optional<double> value =
        row < numeric_rows ? numbers[row] : ObjectToFloat64(column.CellAt(row));
    if (!value) return std::nullopt;
    values.push_back(*value);
  }
  return values;
}

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  if (answers.Find(kId) == nullptr || answers.Find(kLabel) == nullptr) {
    return MalformedAnswers("answers need 'Id' and 'Label' columns");
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission("Submission and answers must have the same length");
  }
  if (submission.Find(kId) == nullptr) return InvalidSubmission("Submission must have an 'Id' column");
  if (submission.Find(kLabel) == nullptr) {
    return InvalidSubmission("Submission must have a 'Label' column");
  }
  absl::StatusOr<std::vector<size_t>> submission_order = SortValuesOrder(*submission.Find(kId));
  if (!submission_order.ok()) {
    return InvalidSubmission(
        absl::StrCat("sorting the submission by Id: ", submission_order.status().message()));
  }
  absl::StatusOr<std::vector<size_t>> answer_order = SortValuesOrder(*answers.Find(kId));
  if (!answer_order.ok()) return MalformedAnswers(std::string(answer_order.status().message()));
  for (size_t i = 0; i < answer_order->size(); ++i) {
    if (!ValuesEqualAt(*submission.Find(kId), (*submission_order)[i], *answers.Find(kId),
                       (*answer_order)[i])) {
      return InvalidSubmission("Submission and answers must have the same ids");
    }
  }
  std::optional<std::vector<double>> y_pred = AsFloats(*submission.Find(kLabel), *submission_order);
  if (!y_pred) return InvalidSubmission("Labels in submission must be numbers");
  std::optional<std::vector<double>> y_true = AsFloats(*answers.Find(kLabel), *answer_order);
  if (!y_true) return MalformedAnswers("non-numeric Label");
  bool has_positive = false, has_negative = false;
  for (double label : *y_true) {
    if (std::isnan(label)) return MalformedAnswers("Answers cannot contain NaNs");
    (label == 1.0 ? has_positive : has_negative) = true;
  }
  // Upstream scores one-class answers 0 or NaN whatever is submitted.
  if (!has_positive || !has_negative) return MalformedAnswers("answers need both classes");
  for (double label : *y_pred) {
    if (std::isnan(label)) return InvalidSubmission("Submission cannot contain NaNs");
  }
  if (absl::StatusOr<double> self = AlaskaWeightedAuc(*y_true, *y_true); !self.ok()) {
    return MalformedAnswers(std::string(self.status().message()));
  }
  absl::StatusOr<double> score = AlaskaWeightedAuc(*y_true, *y_pred);
  if (!score.ok()) {
    return InvalidSubmission(absl::StrCat("the weighted AUC rejects 'Label': ", score.status().message()));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
    .submission_csv = {.string_columns = {"Id"}},
    .answers_csv = {.string_columns = {"Id"}},
});

}  // namespace mlebench
