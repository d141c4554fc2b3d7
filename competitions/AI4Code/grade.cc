// Upstream's AI4Code/grade.py: Kendall tau between the submitted and the
// true order of each notebook's cells, pooled over notebooks, rows aligned on
// `id`.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/grader.h"
#include "grading/metrics/correlation/kendall_tau.h"
#include "grading/metrics/sorted_id_pairing.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

constexpr std::string_view kIdColumn = "id";
constexpr std::string_view kOrderColumn = "cell_order";

// `str(cell).split()` (after upstream's `astype(str)`: a missing order is
// the one item "nan"), items as UTF-8.
std::optional<std::vector<std::string>> CellIds(const Cell& cell) {
  std::optional<std::u32string> text = DecodeUtf8(PythonStr(cell));
  if (!text.has_value()) return std::nullopt;
  std::vector<std::string> items;
  for (const std::u32string& word : PythonSplit(*text)) items.push_back(EncodeUtf8(word));
  return items;
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission and answers must have the same length (",
                                          submission.num_rows(), " vs ", answers.num_rows(),
                                          " rows)"));
  }
  const Column* submission_ids = submission.Find(kIdColumn);
  const Column* submission_orders = submission.Find(kOrderColumn);
  if (submission_ids == nullptr || submission_orders == nullptr) {
    return InvalidSubmission("Submission must have 'id' and 'cell_order' columns");
  }
  const Column* answer_ids = answers.Find(kIdColumn);
  const Column* answer_orders = answers.Find(kOrderColumn);
  if (answer_ids == nullptr || answer_orders == nullptr) {
    return MalformedAnswers("no 'id' or no 'cell_order' column");
  }
  if (SymmetricDifferenceSize(*submission_ids, *answer_ids) != 0) {
    return InvalidSubmission("Submission and answers must have the same ids");
  }

  ASSIGN_OR_RETURN(SortedIdOrders orders, SortBothById(*submission_ids, *answer_ids));

  // Upstream pairs the sorted rows by position and, swapping the names,
  // passes the submission's orders as `ground_truth` and the answers' as
  // `predictions`: each true cell is looked up in the submitted order.
  std::vector<std::vector<std::string>> submitted, truth;
  submitted.reserve(submission.num_rows());
  truth.reserve(answers.num_rows());
  for (size_t i = 0; i < orders.submission.size(); ++i) {
    std::optional<std::vector<std::string>> predicted =
        CellIds(submission_orders->cells[orders.submission[i]]);
    if (!predicted.has_value()) return InvalidSubmission("cell_order is not valid UTF-8");
    std::optional<std::vector<std::string>> actual =
        CellIds(answer_orders->cells[orders.answers[i]]);
    if (!actual.has_value()) {
      return MalformedAnswers("cell_order is not UTF-8");
    }
    if (predicted->size() != actual->size()) {
      return InvalidSubmission(
          absl::StrCat("Ground truth and predictions must have the same length (notebook ",
                       PythonStr(submission_ids->cells[orders.submission[i]]), ": ",
                       predicted->size(), " cells submitted, ", actual->size(), " expected)"));
    }
    submitted.push_back(*std::move(predicted));
    truth.push_back(*std::move(actual));
  }
  // With every notebook under two cells kendall_tau divides by zero, for
  // any submission: the answers cannot be graded.
  bool gradable = false;
  for (const std::vector<std::string>& cells : truth) gradable = gradable || cells.size() >= 2;
  if (!gradable) {
    return MalformedAnswers("no notebook has two cells (kendall_tau divides by zero)");
  }
  absl::StatusOr<double> score = KendallTau(submitted, truth);
  if (!score.ok()) {
    return InvalidSubmission(
        absl::StrCat("kendall_tau fails: ", std::string(score.status().message())));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
