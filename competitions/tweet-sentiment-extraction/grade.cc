// Upstream's tweet-sentiment-extraction/grade.py: the mean word-level
// Jaccard similarity between each tweet's predicted and true sentiment span,
// aligned on `textID`.

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "grading/metrics/jaccard.h"
#include "grading/metrics/pandas_ops.h"
#include "grading/metrics/python_str.h"
#include "grading/table.h"

namespace mlebench {
namespace {

constexpr std::string_view kIdColumn = "textID";
constexpr std::string_view kTextColumn = "selected_text";

// `column.fillna("").astype(str).tolist()`.
std::vector<std::string> Labels(const Column& column) {
  std::vector<std::string> labels;
  labels.reserve(column.cells.size());
  for (const Cell& cell : column.cells) labels.push_back(IsMissing(cell) ? "" : PythonStr(cell));
  return labels;
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  for (std::string_view name : {kIdColumn, kTextColumn}) {
    if (submission.Find(name) == nullptr) {
      return InvalidSubmission(
          absl::StrCat("Submission DataFrame must have a '", std::string(name), "' column."));
    }
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat(
        "Submission and answers DataFrames must have the same number of rows (submission ",
        submission.num_rows(), ", answers ", answers.num_rows(), ")."));
  }
  for (std::string_view name : {kIdColumn, kTextColumn}) {
    if (answers.Find(name) == nullptr) {
      return absl::FailedPreconditionError(
          absl::StrCat("answers are malformed: no '", std::string(name), "' column"));
    }
  }

  absl::StatusOr<std::vector<size_t>> submission_order =
      SortValuesOrder(*submission.Find(kIdColumn));
  if (!submission_order.ok()) {
    return InvalidSubmission(absl::StrCat("Cannot sort the submission by textID: ",
                                          std::string(submission_order.status().message())));
  }
  absl::StatusOr<std::vector<size_t>> answers_order = SortValuesOrder(*answers.Find(kIdColumn));
  if (!answers_order.ok()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "answers are malformed: ", std::string(answers_order.status().message())));
  }
  const Column submission_ids = TakeCells(*submission.Find(kIdColumn), *submission_order);
  const Column answer_ids = TakeCells(*answers.Find(kIdColumn), *answers_order);
  for (size_t i = 0; i < submission_ids.cells.size(); ++i) {
    if (!CellsEqual(submission_ids.cells[i], answer_ids.cells[i])) {
      return InvalidSubmission(absl::StrCat(
          "Submission and answers DataFrames must have the same textID values (they differ at "
          "sorted row ",
          i, ")."));
    }
  }

  const std::vector<std::string> predictions =
      Labels(TakeCells(*submission.Find(kTextColumn), *submission_order));
  const std::vector<std::string> truths = Labels(TakeCells(*answers.Find(kTextColumn), *answers_order));
  for (const std::string& truth : truths) {
    if (!DecodeUtf8(truth).has_value()) {
      return absl::FailedPreconditionError("answers are malformed: selected_text is not UTF-8");
    }
  }
  // Upstream's jaccard raises ZeroDivisionError where neither text has a
  // word (an empty prediction for an empty answer), failing the whole grade.
  absl::StatusOr<double> score = MeanWordJaccard(predictions, truths);
  if (!score.ok()) {
    return InvalidSubmission(
        absl::StrCat("jaccard fails on the submission: ", std::string(score.status().message())));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = "tweet-sentiment-extraction",
    .metric = "jaccard-similarity",
    .grade = &Grade,
});

}  // namespace mlebench
