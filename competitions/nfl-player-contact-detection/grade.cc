// Upstream's nfl-player-contact-detection/grade.py: the submission must hold
// exactly the answers' contact ids (same set, same length); both are sorted by
// contact_id and scored with sklearn's matthews_corrcoef(answers.contact,
// submission.contact). Higher is better.

#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/grader.h"
#include "grading/metrics/classification/matthews_correlation.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  const Column* answer_ids = answers.Find("contact_id");
  const Column* answer_contact = answers.Find("contact");
  if (answer_ids == nullptr || answer_contact == nullptr) {
    return absl::InvalidArgumentError("answers need columns contact_id and contact");
  }
  const Column* ids = submission.Find("contact_id");
  const Column* contact = submission.Find("contact");
  if (ids == nullptr || contact == nullptr) {
    return InvalidSubmission("Submission must have columns: contact_id, contact");
  }
  if (SymmetricDifferenceSize(*ids, *answer_ids) != 0) {
    return InvalidSubmission("Submission contact_id's inconsistent with answers contact_id's");
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission and answers have different lengths: submission has ",
                                          submission.num_rows(), " samples, answers has ",
                                          answers.num_rows(), " samples"));
  }
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(*ids);
  if (!order.ok()) return InvalidSubmission(absl::StrCat("cannot sort contact_id: ", order.status().message()));
  ASSIGN_OR_RETURN(std::vector<size_t> answer_order, SortValuesOrder(*answer_ids));
  // sklearn pairs the sorted columns by position.
  const Column y_pred = TakeCells(*contact, *order);
  const Column y_true = TakeCells(*answer_contact, answer_order);
  absl::StatusOr<double> mcc = MatthewsCorrCoef(y_true, y_pred);
  if (!mcc.ok()) {
    return InvalidSubmission(absl::StrCat("matthews_corrcoef rejects `contact`: ", mcc.status().message()));
  }
  return mcc;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
    .submission_csv = {.string_columns = {"contact_id"}},
    // Only what Grade reads: the answers also hold the plays, players and times.
    .answers_csv = {.string_columns = {"contact_id"},
                    .only_columns = {"contact_id", "contact"}},
});

}  // namespace mlebench
