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
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/grader.h"
#include "grading/metrics/sorted_id_pairing.h"
#include "grading/metrics/text/levenshtein.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_str.h"

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
  ASSIGN_OR_RETURN(IdPairedRows paired,
                   PairRowsById(submission, answers, kIdColumn, kInchiColumn,
                                "Submission and answers must have the same ids"));

  const std::vector<std::string> truths =
      SortedTexts(*answers.Find(kInchiColumn), paired.orders.answers);
  const std::vector<std::string> predictions =
      SortedTexts(*submission.Find(kInchiColumn), paired.orders.submission);
  for (const std::string &truth : truths) {
    if (!DecodeUtf8(truth).has_value()) {
      return MalformedAnswers("InChI is not UTF-8");
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
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
