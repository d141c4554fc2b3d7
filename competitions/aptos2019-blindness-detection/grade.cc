// Upstream's aptos2019-blindness-detection/grade.py: scikit-learn's
// quadratic weighted kappa between the submission's and the answers'
// `diagnosis` (0-4), after both are sorted by `id_code`.
//
// Upstream's steps, and what they imply:
//  1. the submission must hold `diagnosis` and at least one row;
//  2. `set(submission.id_code) == set(answers.id_code)`: a missing column is
//     a KeyError, a NaN id never matches, and a repeated id passes this
//     check but leaves more rows than answers, which cohen_kappa_score then
//     rejects (inconsistent lengths); extra columns are ignored;
//  3. both are sorted by id_code (ids are unique, so the order is exact) and
//     cohen_kappa_score(y_pred, y_true, weights="quadratic") scores them,
//     rejecting NaN, non-integral or text predictions.
// ids are read as pandas would (no forced text): upstream compares whatever
// pandas parsed, so "0012" and "12" meet when a whole column is numeric.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "pycompat/pandas_ops.h"
#include "grading/metrics/correlation/quadratic_weighted_kappa.h"
#include "base/table.h"
#include "base/typed_table.h"

namespace mlebench {
namespace {

constexpr char kId[] = "id_code";
constexpr char kTarget[] = "diagnosis";

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  if (submission.Find(kTarget) == nullptr) {
    return InvalidSubmission("Submission must contain the target column 'diagnosis'");
  }
  if (answers.Find(kTarget) == nullptr) return MalformedAnswers("no diagnosis column");
  if (submission.num_rows() == 0) {
    return InvalidSubmission("Submission DataFrame should not be empty");
  }
  if (answers.num_rows() == 0) return MalformedAnswers("no rows");
  const TypedColumn* answer_ids = answers.Find(kId);
  if (answer_ids == nullptr) return MalformedAnswers("no id_code column");
  const TypedColumn* ids = submission.Find(kId);
  if (ids == nullptr) return InvalidSubmission("Submission must contain the id column 'id_code'");
  if (SymmetricDifferenceSize(*ids, *answer_ids) != 0) {
    return InvalidSubmission("Submission must have the same id_codes as answers");
  }

  const TypedColumn& predictions = *submission.Find(kTarget);
  const TypedColumn& truths = *answers.Find(kTarget);
  const bool ints = predictions.storage() == TypedColumn::Storage::kInt64 &&
                    truths.storage() == TypedColumn::Storage::kInt64;
  absl::StatusOr<double> kappa;
  if (ints && SameValuesNoneMissing(*ids, *answer_ids)) {
    // Both sorted by the same ids pair each row with itself, and the kappa
    // counts pairs whatever their order: no sort.
    kappa = QuadraticWeightedKappa(predictions.ints(), truths.ints());
  } else {
    absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(*ids);
    if (!order.ok()) {
      return InvalidSubmission(
          absl::StrCat("sorting the submission by id_code: ", order.status().message()));
    }
    absl::StatusOr<std::vector<size_t>> answer_order = SortValuesOrder(*answer_ids);
    if (!answer_order.ok()) return MalformedAnswers(std::string(answer_order.status().message()));
    if (ints) {
      std::vector<int64_t> y_pred(order->size()), y_true(answer_order->size());
      for (size_t i = 0; i < y_pred.size(); ++i) y_pred[i] = predictions.ints()[(*order)[i]];
      for (size_t i = 0; i < y_true.size(); ++i) y_true[i] = truths.ints()[(*answer_order)[i]];
      kappa = QuadraticWeightedKappa(y_pred, y_true);
    } else {
      const Column y_pred = TakeCells(predictions.ToColumn(), *order);
      const Column y_true = TakeCells(truths.ToColumn(), *answer_order);
      if (y_true.dtype != Dtype::kInt64) {
        return MalformedAnswers("diagnosis is not an integer column");
      }
      kappa = QuadraticWeightedKappa(y_pred, y_true);
    }
  }
  if (!kappa.ok()) {
    return InvalidSubmission(
        absl::StrCat("cohen_kappa_score rejects `diagnosis`: ", kappa.status().message()));
  }
  return kappa;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
});

}  // namespace mlebench
