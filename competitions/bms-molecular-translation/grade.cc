// Upstream's bms-molecular-translation/grade.py: the mean Levenshtein
// distance (in characters) between each image's true InChI string and the
// submitted one, as Python str (astype(str): a missing prediction is "nan"),
// rows aligned by sorting both files on image_id. Lower is better.

#include <algorithm>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/typed_table.h"
#include "base/utf8.h"
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
// `column.astype(str)` at `rows` (all rows when empty), as views: a text
// value as it is, anything else as Python's str() of it, kept in `owned`.
std::vector<std::string_view> TextsAt(const TypedColumn& column, const std::vector<size_t>& rows,
                                      std::deque<std::string>& owned) {
  const size_t n = rows.empty() ? column.size() : rows.size();
  std::vector<std::string_view> texts(n);
  for (size_t i = 0; i < n; ++i) {
    const size_t row = rows.empty() ? i : rows[i];
    if (column.storage() == TypedColumn::Storage::kText &&
        !TypedColumn::IsMissingText(column.text()[row])) {
      texts[i] = column.text()[row];
    } else {
      texts[i] = owned.emplace_back(PythonStr(column.CellAt(row)));
    }
  }
  return texts;
}

bool AllValidUtf8(const std::vector<std::string_view>& texts) {
  return std::all_of(texts.begin(), texts.end(), IsValidUtf8);
}

absl::StatusOr<double> Grade(const TypedTable &submission, const TypedTable &answers) {
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
  RETURN_IF_ERROR(RequireAnswerColumns(answers, {kIdColumn, kInchiColumn}));
  const TypedColumn& ids = *submission.Find(kIdColumn);
  const TypedColumn& answer_ids = *answers.Find(kIdColumn);
  std::deque<std::string> owned;
  // The mean of integer distances does not depend on the order of the
  // pairs: rows that pair with themselves need no sort. Any error is looked
  // for again in sorted order below, which names its row as upstream sorts.
  if (SameTextIdsInOrder(ids, answer_ids)) {
    const std::vector<size_t> all_rows;
    const std::vector<std::string_view> truths =
        TextsAt(*answers.Find(kInchiColumn), all_rows, owned);
    const std::vector<std::string_view> predictions =
        TextsAt(*submission.Find(kInchiColumn), all_rows, owned);
    // Success means every text was valid UTF-8 (else the mean fails).
    absl::StatusOr<double> score = MeanLevenshteinDistance(truths, predictions);
    if (score.ok()) return score;
  }
  ASSIGN_OR_RETURN(SortedIdOrders orders, SortBothById(ids, answer_ids));
  RETURN_IF_ERROR(
      CheckSortedIdsEqual(ids, answer_ids, orders, "Submission and answers must have the same ids"));
  const std::vector<std::string_view> truths =
      TextsAt(*answers.Find(kInchiColumn), orders.answers, owned);
  const std::vector<std::string_view> predictions =
      TextsAt(*submission.Find(kInchiColumn), orders.submission, owned);
  if (!AllValidUtf8(truths)) return MalformedAnswers("InChI is not UTF-8");
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
    .grade_typed = &Grade,
});

}  // namespace mlebench
