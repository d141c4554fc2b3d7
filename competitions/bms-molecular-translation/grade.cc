// Upstream's bms-molecular-translation/grade.py: the mean Levenshtein
// distance (in characters) between each image's true InChI string and the
// submitted one, as Python str (astype(str): a missing prediction is "nan"),
// rows aligned by sorting both files on image_id. Lower is better.

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "grading/metrics/levenshtein.h"
#include "grading/metrics/pandas_ops.h"
#include "grading/metrics/python_str.h"
#include "grading/table.h"

namespace mlebench {
namespace {

constexpr std::string_view kIdColumn = "image_id";
constexpr std::string_view kInchiColumn = "InChI";

// `column.astype(str)` in `order`.
std::vector<std::string> SortedTexts(const Column &column, const std::vector<size_t> &order) {
  std::vector<std::string> texts;
  texts.reserve(order.size());
  for (size_t row : order) texts.push_back(PythonStr(column.cells[row]));
  return texts;
}

absl::StatusOr<double> Grade(const Table &submission, const Table &answers) {
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission and answers must have the same length (",
                                          submission.num_rows(), " vs ", answers.num_rows(), ")"));
  }
  if (submission.Find(kIdColumn) == nullptr) {
    return InvalidSubmission("Submission must have an 'image_id' column");
  }
  if (submission.Find(kInchiColumn) == nullptr) {
    return InvalidSubmission("Submission must have a 'InChI' column");
  }
  for (std::string_view name : {kIdColumn, kInchiColumn}) {
    if (answers.Find(name) == nullptr) {
      return absl::FailedPreconditionError(
          absl::StrCat("answers are malformed: no '", std::string(name), "' column"));
    }
  }

  absl::StatusOr<std::vector<size_t>> submission_order =
      SortValuesOrder(*submission.Find(kIdColumn));
  if (!submission_order.ok()) {
    return InvalidSubmission(absl::StrCat("Cannot sort the submission by image_id: ",
                                          std::string(submission_order.status().message())));
  }
  absl::StatusOr<std::vector<size_t>> answers_order = SortValuesOrder(*answers.Find(kIdColumn));
  if (!answers_order.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("answers are malformed: ", std::string(answers_order.status().message())));
  }
  const Column &submission_ids = *submission.Find(kIdColumn);
  const Column &answer_ids = *answers.Find(kIdColumn);
  for (size_t i = 0; i < submission_order->size(); ++i) {
    if (!CellsEqual(submission_ids.cells[(*submission_order)[i]],
                    answer_ids.cells[(*answers_order)[i]])) {
      return InvalidSubmission(
          absl::StrCat("Submission and answers must have the same ids (they "
                       "differ at sorted row ",
                       i, ")"));
    }
  }

  const std::vector<std::string> truths = SortedTexts(*answers.Find(kInchiColumn), *answers_order);
  const std::vector<std::string> predictions =
      SortedTexts(*submission.Find(kInchiColumn), *submission_order);
  for (const std::string &truth : truths) {
    if (!DecodeUtf8(truth).has_value()) {
      return absl::FailedPreconditionError("answers are malformed: InChI is not UTF-8");
    }
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
    .id = "bms-molecular-translation",
    .metric = "levenshtein-distance",
    .grade = &Grade,
});

}  // namespace mlebench
