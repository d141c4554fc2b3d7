// Upstream's freesound-audio-tagging-2019/grade.py: label-weighted label
// ranking average precision (lwlrap), computed as the competition's own
// notebook does: scikit-learn's label_ranking_average_precision_score over
// the clips that have at least one label, each weighted by its number of
// labels. Rows are aligned by sorting both tables on `fname`.

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "competitions/freesound-audio-tagging-2019/class_names.h"
#include "grading/grader.h"
#include "grading/metrics/matrix_view.h"
#include "grading/metrics/metric_inputs.h"
#include "grading/metrics/ranking/label_ranking_average_precision.h"
#include "pycompat/object_float_cast.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

using freesound::ClassNames;

// Whether `table`'s columns are exactly fname then the 80 classes in order.
bool HasExpectedClasses(const Table& table) {
  const std::vector<std::string> names = table.ColumnNames();
  if (names.size() != ClassNames().size() + 1) return false;
  for (size_t i = 0; i < ClassNames().size(); ++i) {
    if (names[i + 1] != ClassNames()[i]) return false;
  }
  return true;
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission and answers must have the same length: ",
                                          submission.num_rows(), " vs ", answers.num_rows(),
                                          " rows"));
  }
  if (submission.num_columns() == 0 || submission.columns()[0].name != "fname") {
    return InvalidSubmission("Submission must have an 'fname' column (as its first column)");
  }
  if (!HasExpectedClasses(submission)) {
    return InvalidSubmission(
        "Submission classes do not match expected classes: the columns after 'fname' must be "
        "the 80 class names in the order of the sample submission");
  }
  if (answers.num_columns() == 0 || answers.columns()[0].name != "fname" ||
      !HasExpectedClasses(answers)) {
    return absl::FailedPreconditionError("answers' columns are not fname and the 80 classes");
  }

  absl::StatusOr<std::vector<size_t>> submission_order = SortValuesOrder(submission.columns()[0]);
  if (!submission_order.ok()) {
    return InvalidSubmission(
        absl::StrCat("cannot sort the submission by fname: ", submission_order.status().message()));
  }
  ASSIGN_OR_RETURN(std::vector<size_t> answers_order, SortValuesOrder(answers.columns()[0]));
  for (size_t row = 0; row < answers.num_rows(); ++row) {
    if (!CellsEqual(submission.columns()[0].cells[(*submission_order)[row]],
                    answers.columns()[0].cells[(answers_order)[row]])) {
      return InvalidSubmission("Submission and answers must have the same ids (fname values)");
    }
  }

  // pd.to_numeric on every class column, then the rows as float64 matrices.
  const size_t rows = answers.num_rows(), cols = ClassNames().size();
  std::vector<double> truth(rows * cols), scores(rows * cols);
  for (size_t c = 0; c < cols; ++c) {
    const Column& submitted = submission.columns()[c + 1];
    const Column& answer = answers.columns()[c + 1];
    for (size_t row = 0; row < rows; ++row) {
      const Cell& cell = submitted.cells[(*submission_order)[row]];
      // pd.to_numeric parses text its own way: not as float() does, so "1_0"
      // or a non-ASCII digit raises.
      const std::string* text = std::get_if<std::string>(&cell);
      const std::optional<double> score =
          text != nullptr ? ParseNumericString(*text) : ObjectToFloat64(cell);
      if (!score.has_value()) {
        return InvalidSubmission(absl::StrCat("Error converting submission values to float: ",
                                              "column '", submitted.name, "' holds '",
                                              std::get<std::string>(cell), "'"));
      }
      scores[row * cols + c] = *score;
      const std::optional<double> label = NumericValue(answer.cells[(answers_order)[row]]);
      if (!label.has_value() || *label != *label) {
        return absl::FailedPreconditionError(
            absl::StrCat("answers' column '", answer.name, "' is not numeric"));
      }
      truth[row * cols + c] = *label > 0 ? 1.0 : 0.0;
    }
  }

  // The clips with at least one label, weighted by their number of labels.
  std::vector<double> kept_truth, kept_scores, weights;
  for (size_t row = 0; row < rows; ++row) {
    double labels = 0;
    for (size_t c = 0; c < cols; ++c) labels += truth[row * cols + c];
    if (labels == 0) continue;
    weights.push_back(labels);
    kept_truth.insert(kept_truth.end(), truth.begin() + row * cols, truth.begin() + (row + 1) * cols);
    kept_scores.insert(kept_scores.end(), scores.begin() + row * cols,
                       scores.begin() + (row + 1) * cols);
  }
  if (weights.empty()) {
    return absl::FailedPreconditionError("no answer row has a label: lwlrap is undefined");
  }
  absl::StatusOr<double> score =
      LabelRankingAveragePrecision(MatrixView{kept_truth, weights.size(), cols},
                                   MatrixView{kept_scores, weights.size(), cols}, weights);
  if (!score.ok()) {
    return InvalidSubmission(
        absl::StrCat("label_ranking_average_precision_score rejects the submission: ",
                     score.status().message()));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
