#include "grading/metrics/classification/binary_log_loss_by_id.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/parallel.h"
#include "base/status_macros.h"
#include "grading/metrics/classification/log_loss.h"
#include "grading/metrics/sorted_id_pairing.h"
#include "grading/outcome.h"
#include "base/typed_table.h"
#include "pycompat/numpy_sum.h"
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

// From this many rows on, two pieces of work run on two threads.
constexpr size_t kParallelRows = 65536;

// task(0) and task(1): at once when `parallel`, else one after the other.
template <typename Task>
void ForEachTask(bool parallel, const Task& task) {
  if (parallel) return RunInParallel(2, task);
  task(0);
  task(1);
}

// One row's term of log_loss over the classes {0, 1}, given the true label
// and the probability p of 1: its one-hot row [1 - p, p] makes every term
// but the true class's 0, so the row's loss is minus that term, the value
// LogLoss sums for the row.
double BinaryRowLoss(double label, double p) {
  return -LogLossTerm(1.0, label == 1.0 ? p : 1.0 - p);
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

  // log_loss of both sorted by id. Long columns sort on one thread while
  // the other does what needs no order: the other column's sort, or, when
  // both list the same ids in the same order, every row's loss.
  const size_t n = probabilities.size();
  const bool parallel = n >= kParallelRows;
  if (n == labels.size() && SameIdsInOrder(*ids, *answer_ids)) {
    absl::StatusOr<std::vector<size_t>> order;
    ForEachTask(parallel, [&](size_t task) {
      if (task == 0) {
        order = SortValuesOrder(*ids);
        return;
      }
      for (size_t row = 0; row < n; ++row) {
        probabilities[row] = BinaryRowLoss(labels[row], probabilities[row]);
      }
    });
    if (!order.ok()) {
      return InvalidSubmission(
          absl::StrCat("cannot sort the submission by ", id, ": ", order.status().message()));
    }
    return NumpySumInOrder(probabilities, *order) / static_cast<double>(n);
  }

  absl::StatusOr<std::vector<size_t>> submission_order, answers_order;
  ForEachTask(parallel, [&](size_t task) {
    if (task == 0) {
      submission_order = SortValuesOrder(*ids);
    } else {
      answers_order = SortValuesOrder(*answer_ids);
    }
  });
  if (!submission_order.ok()) {
    return InvalidSubmission(absl::StrCat("cannot sort the submission by ", id, ": ",
                                          submission_order.status().message()));
  }
  if (!answers_order.ok()) {
    return absl::FailedPreconditionError(absl::StrCat("cannot sort the answers by ", id, ": ",
                                                      answers_order.status().message()));
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
