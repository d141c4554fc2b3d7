#include "grading/metrics/classification/binary_log_loss_by_id.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "grading/metrics/classification/log_loss.h"
#include "grading/metrics/sorted_id_pairing.h"
#include "grading/outcome.h"
#include "base/typed_table.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

// `values` in `order`.
std::vector<double> InOrder(const std::vector<double>& values, const std::vector<size_t>& order) {
  std::vector<double> sorted(order.size());
  for (size_t i = 0; i < order.size(); ++i) sorted[i] = values[order[i]];
  return sorted;
}

// Whether both id columns hold the same ints, or the same texts (none
// missing), in the same order: then both sort into one order.
bool SameIdsInOrder(const TypedColumn& a, const TypedColumn& b) {
  if (a.storage() == TypedColumn::Storage::kInt64 && b.storage() == TypedColumn::Storage::kInt64) {
    return std::ranges::equal(a.ints(), b.ints());
  }
  return SameTextIdsInOrder(a, b);
}

}  // namespace

absl::StatusOr<double> GradeBinaryLogLossById(const TypedTable& submission,
                                              const TypedTable& answers,
                                              const BinaryLogLossByIdOptions& options) {
  const std::string& id = options.id_column;
  const std::string& target = options.target_column;
  // Upstream's asserts on the answers, plus what log_loss needs of them
  // (0/1 labels, both present): otherwise no submission could be scored.
  const TypedColumn* answer_ids = answers.Find(id);
  const TypedColumn* answer_labels = answers.Find(target);
  if (answer_ids == nullptr || answer_labels == nullptr) {
    return MalformedAnswers(absl::StrCat("they must have `", id, "` and `", target, "` columns"));
  }
  bool has_zero = false, has_one = false;
  std::vector<double> labels(answer_labels->size());
  if (CopyNumericValues(*answer_labels, labels) != labels.size()) {
    return MalformedAnswers(absl::StrCat("`", target, "` must be 0 or 1"));
  }
  for (const double label : labels) {
    if (!(label == 0.0 || label == 1.0)) {
      return MalformedAnswers(absl::StrCat("`", target, "` must be 0 or 1"));
    }
    (label == 1.0 ? has_one : has_zero) = true;
  }
  if (!has_zero || !has_one) {
    return MalformedAnswers("log_loss needs both labels among the answers");
  }

  const TypedColumn* ids = submission.Find(id);
  if (ids == nullptr) return InvalidSubmission(absl::StrCat("Submission is missing `", id, "` column"));
  const TypedColumn* predictions = submission.Find(target);
  if (predictions == nullptr) {
    return InvalidSubmission(absl::StrCat("Submission is missing `", target, "` column"));
  }
  if (SymmetricDifferenceSize(*ids, *answer_ids) != 0) {
    return InvalidSubmission("Submission and answers have different id's");
  }
  if (options.check_row_count && submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission and answers have different lengths (",
                                          submission.num_rows(), " vs ", answers.num_rows(), ")"));
  }
  // Text makes pandas' comparison with 0 raise TypeError; NaN fails it.
  // The first row with either is named.
  std::vector<double> probabilities(predictions->size());
  const size_t numeric_rows = CopyNumericValues(*predictions, probabilities);
  size_t bad_row = numeric_rows;
  for (size_t row = 0; row < numeric_rows; ++row) {
    const double p = probabilities[row];
    if (!(p >= 0.0 && p <= 1.0)) {
      bad_row = row;
      break;
    }
  }
  if (bad_row < probabilities.size()) {
    return InvalidSubmission(absl::StrCat("All values in submission `", target,
                                          "` must be between 0 and 1 (row ", bad_row, ")."));
  }

  absl::StatusOr<std::vector<size_t>> submission_order = SortValuesOrder(*ids);
  if (!submission_order.ok()) {
    return InvalidSubmission(absl::StrCat("cannot sort the submission by ", id, ": ",
                                          submission_order.status().message()));
  }
  // Both id columns alike sort into one order.
  const std::vector<size_t>* answers_order = &*submission_order;
  absl::StatusOr<std::vector<size_t>> own_answers_order;
  if (!SameIdsInOrder(*ids, *answer_ids)) {
    own_answers_order = SortValuesOrder(*answer_ids);
    if (!own_answers_order.ok()) {
      return absl::FailedPreconditionError(absl::StrCat("cannot sort the answers by ", id, ": ",
                                                        own_answers_order.status().message()));
    }
    answers_order = &*own_answers_order;
  }
  absl::StatusOr<double> score =
      LogLoss(InOrder(labels, *answers_order), InOrder(probabilities, *submission_order));
  if (!score.ok()) {
    return InvalidSubmission(
        absl::StrCat("log_loss rejects the submission: ", score.status().message()));
  }
  return score;
}

}  // namespace mlebench
