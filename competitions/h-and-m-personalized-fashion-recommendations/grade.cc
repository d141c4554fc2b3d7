// Upstream's h-and-m-personalized-fashion-recommendations/grade.py: MAP@12 of
// up to twelve space-separated article ids per customer. The submission must
// list every customer of the answers (it may list more, which are ignored:
// the sample submission names every customer, the answers only those who
// bought something in the last week).

#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/grader.h"
#include "grading/metrics/ranking/map_at_k.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

constexpr char kIdColumn[] = "customer_id";
constexpr char kPredictionColumn[] = "prediction";
constexpr int kK = 12;

bool HasExactlyColumns(const Table& table) {
  const std::vector<std::string> column_names = table.ColumnNames();
  const std::set<std::string> names(column_names.begin(), column_names.end());
  return names == std::set<std::string>{kIdColumn, kPredictionColumn};
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  if (!HasExactlyColumns(answers)) {
    return absl::FailedPreconditionError(
        "answers must have exactly the columns 'customer_id' and 'prediction'");
  }
  if (!HasExactlyColumns(submission)) {
    return InvalidSubmission(
        "Submission DataFrame must have 'customer_id' and 'prediction' columns.");
  }
  const Column& answer_ids = *answers.Find(kIdColumn);
  const Column& submission_ids = *submission.Find(kIdColumn);
  // Ids are read as text; answers name each customer once.
  std::set<std::string> answer_id_set;
  for (const Cell& id : answer_ids.cells) {
    const std::string* text = std::get_if<std::string>(&id);
    if (text == nullptr || !answer_id_set.insert(*text).second) {
      return absl::FailedPreconditionError("answers must name each customer_id once, as text");
    }
  }
  // `set(submission ids) >= set(answer ids)`, then keep only the answers'
  // customers (`isin`), repeats included.
  std::set<std::string> covered;
  std::vector<size_t> kept;
  for (size_t row = 0; row < submission_ids.cells.size(); ++row) {
    const std::string* text = std::get_if<std::string>(&submission_ids.cells[row]);
    if (text != nullptr && answer_id_set.count(*text) > 0) {
      covered.insert(*text);
      kept.push_back(row);
    }
  }
  if (covered.size() != answer_id_set.size()) {
    return InvalidSubmission("Submission customer_id must be a superset of answers customer_id");
  }

  // Both sorted by customer_id as pandas sorts them; a customer listed twice
  // in the submission shifts the pairing after it, as upstream's zip does.
  const Column kept_ids = TakeCells(submission_ids, kept);
  const Column kept_predictions = TakeCells(*submission.Find(kPredictionColumn), kept);
  ASSIGN_OR_RETURN(std::vector<size_t> submission_order, SortValuesOrder(kept_ids));
  ASSIGN_OR_RETURN(std::vector<size_t> answer_order, SortValuesOrder(answer_ids));
  const std::vector<std::set<std::string>> actual =
      LabelSets(TakeCells(*answers.Find(kPredictionColumn), answer_order));
  const std::vector<std::vector<std::string>> predicted =
      LabelLists(TakeCells(kept_predictions, submission_order));
  return MeanAveragePrecisionAtK(actual, predicted, kK);
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
    .submission_csv = {.string_columns = {"customer_id"}},
    .answers_csv = {.string_columns = {"customer_id"}},
});

}  // namespace mlebench
