// Upstream's tweet-sentiment-extraction/grade.py: the mean word-level
// Jaccard similarity between each tweet's predicted and true sentiment span,
// aligned on `textID`.

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/grader.h"
#include "grading/metrics/sorted_id_pairing.h"
#include "grading/metrics/text/jaccard.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_str.h"

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
  ASSIGN_OR_RETURN(
      IdPairedRows paired,
      PairRowsById(submission, answers, kIdColumn, kTextColumn,
                   "Submission and answers DataFrames must have the same textID values"));

  const std::vector<std::string> predictions = Labels(paired.submission_values);
  const std::vector<std::string> truths = Labels(paired.answer_values);
  for (const std::string& truth : truths) {
    if (!DecodeUtf8(truth).has_value()) {
      return MalformedAnswers("selected_text is not UTF-8");
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
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
