// Upstream's tweet-sentiment-extraction/grade.py: the mean word-level
// Jaccard similarity between each tweet's predicted and true sentiment span,
// aligned on `textID`.

#include <algorithm>
#include <deque>
#include <numeric>
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
#include "grading/metrics/text/jaccard.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

constexpr std::string_view kIdColumn = "textID";
constexpr std::string_view kTextColumn = "selected_text";

// `column.fillna("").astype(str).tolist()`.
// `column.fillna("").astype(str).tolist()` at `rows`, as views: text as it
// is, a missing value as "", anything else as Python's str() of it, kept in
// `owned`.
std::vector<std::string_view> Labels(const TypedColumn& column, const std::vector<size_t>& rows,
                                     std::deque<std::string>& owned) {
  std::vector<std::string_view> labels(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    if (column.storage() == TypedColumn::Storage::kText) {
      const std::string_view text = column.text()[rows[i]];
      labels[i] = TypedColumn::IsMissingText(text) ? std::string_view("") : text;
      continue;
    }
    const Cell cell = column.CellAt(rows[i]);
    labels[i] = IsMissing(cell) ? std::string_view("") : owned.emplace_back(PythonStr(cell));
  }
  return labels;
}

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
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
  RETURN_IF_ERROR(RequireAnswerColumns(answers, {kIdColumn, kTextColumn}));
  const TypedColumn& ids = *submission.Find(kIdColumn);
  const TypedColumn& answer_ids = *answers.Find(kIdColumn);
  ASSIGN_OR_RETURN(SortedIdOrders orders, SortBothById(ids, answer_ids));
  RETURN_IF_ERROR(CheckSortedIdsEqual(
      ids, answer_ids, orders, "Submission and answers DataFrames must have the same textID values"));
  std::deque<std::string> owned;
  if (orders.same_ids) {
    // Every row pairs with itself: the texts as they lie (read in id order
    // they were a cache miss a row), scored pair by pair and averaged in id
    // order.
    std::vector<size_t> rows(orders.answers.size());
    std::iota(rows.begin(), rows.end(), size_t{0});
    const std::vector<std::string_view> predictions =
        Labels(*submission.Find(kTextColumn), rows, owned);
    const std::vector<std::string_view> truths = Labels(*answers.Find(kTextColumn), rows, owned);
    if (!std::all_of(truths.begin(), truths.end(), IsValidUtf8)) {
      return MalformedAnswers("selected_text is not UTF-8");
    }
    absl::StatusOr<double> score = MeanWordJaccard(predictions, truths, orders.answers);
    if (!score.ok()) {
      return InvalidSubmission(
          absl::StrCat("jaccard fails on the submission: ", std::string(score.status().message())));
    }
    return score;
  }
  const std::vector<std::string_view> predictions =
      Labels(*submission.Find(kTextColumn), orders.submission, owned);
  const std::vector<std::string_view> truths =
      Labels(*answers.Find(kTextColumn), orders.answers, owned);
  if (!std::all_of(truths.begin(), truths.end(), IsValidUtf8)) {
    return MalformedAnswers("selected_text is not UTF-8");
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
    .grade_typed = &Grade,
    // Only what Grade reads: the answers also hold the tweets' text and sentiment.
    .answers_csv = {.only_columns = {std::string(kIdColumn), std::string(kTextColumn)}},
});

}  // namespace mlebench
