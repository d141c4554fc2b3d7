// Upstream's billion-word-imputation/grade.py: the mean Levenshtein distance
// (in characters) between each true sentence and the submitted one, rows
// aligned by sorting both files on `id`. Lower is better.

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
#include "grading/metrics/text/levenshtein.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

constexpr std::string_view kIdColumn = "id";
constexpr std::string_view kSentenceColumn = "sentence";

absl::StatusOr<double> Grade(const Table &submission, const Table &answers) {
  RETURN_IF_ERROR(RequireAnswerColumns(answers, {kIdColumn, kSentenceColumn}));
  for (std::string_view name : {kIdColumn, kSentenceColumn}) {
    if (submission.Find(name) == nullptr) {
      return InvalidSubmission(
          absl::StrCat("Missing ", std::string(name), " column in submission"));
    }
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission and answers have different lengths: ",
                                          submission.num_rows(), " vs ", answers.num_rows()));
  }

  ASSIGN_OR_RETURN(IdPairedRows paired,
                   PairRowsById(submission, answers, kIdColumn, kSentenceColumn,
                                "Submission and answers should contain the same IDs"));
  const Column& submission_ids = paired.submission_ids;

  // Levenshtein.distance takes only text: a missing sentence (NaN) or a
  // number raises TypeError upstream.
  const Column& predicted = paired.submission_values;
  const Column& expected = paired.answer_values;
  std::vector<std::string_view> predictions, truths;  // views of the cells
  predictions.reserve(predicted.cells.size());
  truths.reserve(expected.cells.size());
  for (size_t i = 0; i < predicted.cells.size(); ++i) {
    const std::string *prediction = std::get_if<std::string>(&predicted.cells[i]);
    if (prediction == nullptr) {
      return InvalidSubmission(absl::StrCat(
          "sentence must be text for every row: the row with id ",
          std::holds_alternative<int64_t>(submission_ids.cells[i])
              ? absl::StrCat(std::get<int64_t>(submission_ids.cells[i]))
              : absl::StrCat("at sorted position ", i),
          " has a ", IsMissing(predicted.cells[i]) ? "missing value" : "number or boolean"));
    }
    const std::string *truth = std::get_if<std::string>(&expected.cells[i]);
    if (truth == nullptr) {
      return MalformedAnswers(absl::StrCat("sentence at sorted row ", i, " is not text"));
    }
    predictions.push_back(*prediction);
    truths.push_back(*truth);
  }
  absl::StatusOr<double> score = MeanLevenshteinDistance(truths, predictions);
  if (!score.ok()) {
    return InvalidSubmission(absl::StrCat("Cannot compute the Levenshtein distance: ",
                                          std::string(score.status().message())));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
