// Upstream's dogs-vs-cats-redux-kernels-edition/grade.py: binary log loss of
// the submitted probabilities that each test image shows a dog, aligned on
// `id`.

#include <cmath>
#include <optional>
#include <string>
#include <variant>
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
constexpr char kLabelColumn[] = "label";

// A column's values in `sort_values("id")` order of its table.
absl::StatusOr<std::vector<double>> LabelsInIdOrder(const Column& ids, const Column& labels) {
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(ids);
  if (!order.ok()) return order.status();
  std::vector<double> values;
  values.reserve(order->size());
  for (size_t row : *order) values.push_back(*NumericValue(labels.cells[row]));
  return values;
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  // Upstream's asserts on the answers, plus what log_loss needs of them
  // (0/1 labels, both present): otherwise no submission could be scored.
  const Column* answer_ids = answers.Find(kIdColumn);
  const Column* answer_labels = answers.Find(kLabelColumn);
  if (answer_ids == nullptr || answer_labels == nullptr) {
    return absl::FailedPreconditionError(
        "answers are malformed: they must have `id` and `label` columns");
  }
  bool has_cat = false, has_dog = false;
  for (const Cell& cell : answer_labels->cells) {
    const std::optional<double> label = NumericValue(cell);
    if (!label.has_value() || !(*label == 0.0 || *label == 1.0)) {
      return absl::FailedPreconditionError("answers are malformed: `label` must be 0 or 1");
    }
    (*label == 1.0 ? has_dog : has_cat) = true;
  }
  if (!has_cat || !has_dog) {
    return absl::FailedPreconditionError(
        "answers are malformed: log_loss needs both labels among the answers");
  }

  const Column* ids = submission.Find(kIdColumn);
  if (ids == nullptr) return InvalidSubmission("Submission is missing `id` column");
  const Column* labels = submission.Find(kLabelColumn);
  if (labels == nullptr) return InvalidSubmission("Submission is missing `label` column");
  if (SymmetricDifferenceSize(*ids, *answer_ids) != 0) {
    return InvalidSubmission("Submission and answers have different id's");
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission and answers have different lengths (",
                                          submission.num_rows(), " vs ", answers.num_rows(),
                                          ")"));
  }
  for (size_t row = 0; row < labels->cells.size(); ++row) {
    const std::optional<double> p = NumericValue(labels->cells[row]);
    // Text makes pandas' comparison with 0 raise TypeError; NaN fails it.
    if (!p.has_value() || !(*p >= 0.0 && *p <= 1.0)) {
      return InvalidSubmission(absl::StrCat(
          "All values in submission `label` column must be between 0 and 1 (row ", row, ")."));
    }
  }

  absl::StatusOr<std::vector<double>> y_pred = LabelsInIdOrder(*ids, *labels);
  if (!y_pred.ok()) {
    return InvalidSubmission(
        absl::StrCat("cannot sort the submission by id: ", y_pred.status().message()));
  }
  absl::StatusOr<std::vector<double>> y_true = LabelsInIdOrder(*answer_ids, *answer_labels);
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
    .id = "dogs-vs-cats-redux-kernels-edition",
    .metric = "log-loss",
    .grade = &Grade,
});

}  // namespace mlebench
