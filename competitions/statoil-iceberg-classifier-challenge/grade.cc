// Upstream's statoil-iceberg-classifier-challenge/grade.py: binary log loss
// of the submitted probabilities that each image shows an iceberg, aligned on
// `id`. Unlike most graders upstream does not compare row counts itself: a
// submission with the right ids but repeated rows reaches log_loss, which
// rejects the inconsistent lengths.

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "grading/metrics/log_loss.h"
#include "grading/metrics/pandas_ops.h"
#include "grading/table.h"

namespace mlebench {
namespace {

constexpr char kIdColumn[] = "id";
constexpr char kTargetColumn[] = "is_iceberg";

// A column's values in `sort_values("id")` order of its table.
absl::StatusOr<std::vector<double>> ValuesInIdOrder(const Column& ids, const Column& values) {
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(ids);
  if (!order.ok()) return order.status();
  std::vector<double> sorted;
  sorted.reserve(order->size());
  for (size_t row : *order) sorted.push_back(*NumericValue(values.cells[row]));
  return sorted;
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  // Upstream's asserts on the answers, plus what log_loss needs of them
  // (0/1 labels, both present): otherwise no submission could be scored.
  const Column* answer_ids = answers.Find(kIdColumn);
  const Column* answer_labels = answers.Find(kTargetColumn);
  if (answer_ids == nullptr || answer_labels == nullptr) {
    return absl::FailedPreconditionError(
        "answers are malformed: they must have `id` and `is_iceberg` columns");
  }
  bool has_ship = false, has_iceberg = false;
  for (const Cell& cell : answer_labels->cells) {
    const std::optional<double> label = NumericValue(cell);
    if (!label.has_value() || !(*label == 0.0 || *label == 1.0)) {
      return absl::FailedPreconditionError("answers are malformed: `is_iceberg` must be 0 or 1");
    }
    (*label == 1.0 ? has_iceberg : has_ship) = true;
  }
  if (!has_ship || !has_iceberg) {
    return absl::FailedPreconditionError(
        "answers are malformed: log_loss needs both labels among the answers");
  }

  const Column* ids = submission.Find(kIdColumn);
  if (ids == nullptr) return InvalidSubmission("Submission is missing `id` column");
  const Column* predictions = submission.Find(kTargetColumn);
  if (predictions == nullptr) return InvalidSubmission("Submission is missing `is_iceberg` column");
  if (SymmetricDifferenceSize(*ids, *answer_ids) != 0) {
    return InvalidSubmission("Submission and answers have different id's");
  }
  for (size_t row = 0; row < predictions->cells.size(); ++row) {
    const std::optional<double> p = NumericValue(predictions->cells[row]);
    // Text makes pandas' comparison with 0 raise TypeError; NaN fails it.
    if (!p.has_value() || !(*p >= 0.0 && *p <= 1.0)) {
      return InvalidSubmission(absl::StrCat(
          "All values in submission `is_iceberg` must be between 0 and 1 (row ", row, ")."));
    }
  }

  absl::StatusOr<std::vector<double>> y_pred = ValuesInIdOrder(*ids, *predictions);
  if (!y_pred.ok()) {
    return InvalidSubmission(
        absl::StrCat("cannot sort the submission by id: ", y_pred.status().message()));
  }
  absl::StatusOr<std::vector<double>> y_true = ValuesInIdOrder(*answer_ids, *answer_labels);
  if (!y_true.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot sort the answers by id: ", y_true.status().message()));
  }
  absl::StatusOr<double> score = LogLoss(*y_true, *y_pred);
  if (!score.ok()) {
    return InvalidSubmission(
        absl::StrCat("log_loss rejects the submission: ", score.status().message()));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = "statoil-iceberg-classifier-challenge",
    .metric = "log-loss",
    .grade = &Grade,
});

}  // namespace mlebench
