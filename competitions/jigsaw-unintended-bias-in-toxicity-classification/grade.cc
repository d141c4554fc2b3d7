// Upstream's jigsaw-unintended-bias-in-toxicity-classification/grade.py:
// predictions and answers are both cut at 0.5 into 0/1 toxicity labels, the
// nine identity columns of the answers likewise into memberships, and the
// score is the competition's bias-weighted AUC (JigsawBiasAuc) of those
// thresholded predictions, rows aligned on `id`.

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
#include "grading/metrics/classification/jigsaw_bias_auc.h"
#include "grading/metrics/sorted_id_pairing.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

constexpr std::string_view kIdColumn = "id";
constexpr std::string_view kPredictionColumn = "prediction";
constexpr std::string_view kToxicityColumn = "toxicity";

// Upstream's default identity columns, in its order.
constexpr std::string_view kIdentityColumns[] = {
    "male",  "female", "homosexual_gay_or_lesbian", "christian",
    "jewish", "muslim", "black",
    "white", "psychiatric_or_mental_illness"};

// `column.apply(lambda x: 1 if x >= 0.5 else 0)` in the given row order:
// NaN compares false (0); bools are 0/1; a string cannot be compared with a
// float (Python's TypeError).
absl::StatusOr<std::vector<double>> AtLeastHalf(const Column& column,
                                                const std::vector<size_t>& order) {
  std::vector<double> out;
  out.reserve(order.size());
  for (size_t row : order) {
    const std::optional<double> value = NumericValue(column.cells[row]);
    if (!value.has_value()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "'>=' not supported between instances of '",
          std::string(PythonTypeName(column.cells[row])), "' and 'float' (row ", row, ")"));
    }
    out.push_back(*value >= 0.5 ? 1.0 : 0.0);
  }
  return out;
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  if (submission.Find(kIdColumn) == nullptr) {
    return InvalidSubmission("Submission DataFrame must have an 'id' column.");
  }
  const Column* prediction = submission.Find(kPredictionColumn);
  const Column* submitted_toxicity = submission.Find(kToxicityColumn);
  // Upstream also accepts the answers' own `toxicity` column.
  if (prediction == nullptr && submitted_toxicity == nullptr) {
    return InvalidSubmission("Submission DataFrame must have a 'prediction' column.");
  }
  RETURN_IF_ERROR(RequireAnswerColumns(answers, {kIdColumn, kToxicityColumn}));

  ASSIGN_OR_RETURN(SortedIdOrders orders,
                   SortBothById(*submission.Find(kIdColumn), *answers.Find(kIdColumn)));
  // numpy cannot compare id arrays of different lengths (upstream has no
  // separate length check).
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat(
        "IDs in the submission and answers DataFrames do not match (submission has ",
        submission.num_rows(), " rows, answers ", answers.num_rows(), ")."));
  }
  RETURN_IF_ERROR(CheckSortedIdsEqual(*submission.Find(kIdColumn), *answers.Find(kIdColumn), orders,
                                      "IDs in the submission and answers DataFrames do not match"));
  // Upstream pairs each filtered answer row with the submission rows of its
  // id, so answer ids must be unique (they are in Kaggle's data).
  const Column answer_ids = TakeCells(*answers.Find(kIdColumn), orders.answers);
  for (size_t i = 1; i < answer_ids.cells.size(); ++i) {
    if (CellsEqual(answer_ids.cells[i - 1], answer_ids.cells[i])) {
      return MalformedAnswers("duplicate id");
    }
  }
  for (std::string_view name : kIdentityColumns) {
    if (answers.Find(name) == nullptr) {
      return MalformedAnswers(absl::StrCat("no '", std::string(name), "' column"));
    }
  }
  // Renaming `prediction` to `toxicity` when both exist leaves two
  // `toxicity` columns; thresholding that DataFrame asks for the truth value
  // of a Series, which pandas refuses.
  if (prediction != nullptr && submitted_toxicity != nullptr) {
    return InvalidSubmission(
        "Submission has both 'prediction' and 'toxicity' columns: upstream renames 'prediction' "
        "to 'toxicity' and cannot threshold the two (\"The truth value of a Series is "
        "ambiguous\").");
  }

  absl::StatusOr<std::vector<double>> predicted =
      AtLeastHalf(prediction != nullptr ? *prediction : *submitted_toxicity, orders.submission);
  if (!predicted.ok()) {
    return InvalidSubmission(absl::StrCat("Cannot threshold the predictions: ",
                                          std::string(predicted.status().message())));
  }
  absl::StatusOr<std::vector<double>> toxic =
      AtLeastHalf(*answers.Find(kToxicityColumn), orders.answers);
  if (!toxic.ok()) {
    return MalformedAnswers(absl::StrCat("toxicity: ", std::string(toxic.status().message())));
  }
  std::vector<std::vector<bool>> identities;
  for (std::string_view name : kIdentityColumns) {
    absl::StatusOr<std::vector<double>> member = AtLeastHalf(*answers.Find(name), orders.answers);
    if (!member.ok()) {
      return MalformedAnswers(
          absl::StrCat(std::string(name), ": ", std::string(member.status().message())));
    }
    identities.emplace_back(member->begin(), member->end());
  }

  // The thresholded predictions are 0/1 with no NaN, so an AUC can fail only
  // through the answers (a subset with one class or no rows), which would
  // fail every submission.
  absl::StatusOr<double> score = JigsawBiasAuc(*toxic, *predicted, identities);
  if (!score.ok()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "answers are malformed for this metric: ", std::string(score.status().message())));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
    // A prediction that is not >= 0.5 (NaN included) is a 0.
    .missing_numbers_allowed = true,
});

}  // namespace mlebench
