#include "grading/metrics/sorted_id_pairing.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_str.h"

namespace mlebench {

absl::StatusOr<SortedIdOrders> SortBothById(const Column& submission_ids,
                                            const Column& answer_ids) {
  absl::StatusOr<std::vector<size_t>> submission = SortValuesOrder(submission_ids);
  if (!submission.ok()) {
    return InvalidSubmission(absl::StrCat("Cannot sort the submission by ", submission_ids.name,
                                          ": ", std::string(submission.status().message())));
  }
  absl::StatusOr<std::vector<size_t>> answers = SortValuesOrder(answer_ids);
  if (!answers.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("answers are malformed: ", std::string(answers.status().message())));
  }
  return SortedIdOrders{.submission = *std::move(submission), .answers = *std::move(answers)};
}

absl::Status CheckSortedIdsEqual(const Column& submission_ids, const Column& answer_ids,
                                 const SortedIdOrders& orders, std::string_view message) {
  if (orders.submission.size() != orders.answers.size()) {
    return absl::InternalError("CheckSortedIdsEqual: the id columns differ in length");
  }
  for (size_t i = 0; i < orders.submission.size(); ++i) {
    const Cell& submitted = submission_ids.cells[orders.submission[i]];
    const Cell& expected = answer_ids.cells[orders.answers[i]];
    if (!CellsEqual(submitted, expected)) {
      return InvalidSubmission(absl::StrCat(std::string(message), " (they differ at sorted row ", i,
                                            ": submission '", PythonStr(submitted),
                                            "', answers '", PythonStr(expected), "')"));
    }
  }
  return absl::OkStatus();
}

}  // namespace mlebench
