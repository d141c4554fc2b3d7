// Upstream's lmsys-chatbot-arena/grade.py: multi-class log loss of the
// probabilities that model A wins, model B wins, or the two tie, aligned on
// `id`.

#include <array>
#include <cmath>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/grader.h"
#include "grading/metrics/metric_inputs.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

constexpr std::string_view kIdColumn = "id";
constexpr std::array<std::string_view, 3> kClasses = {"winner_model_a", "winner_model_b",
                                                      "winner_tie"};

// `df[["id", *classes]]` of a table known to hold those columns.
Table RequiredColumns(const Table& table) {
  std::vector<Column> columns = {*table.Find(kIdColumn)};
  for (std::string_view name : kClasses) columns.push_back(*table.Find(name));
  return Table(std::move(columns));
}

// Upstream's two value checks, in its order:
//  1. `((df[classes] >= 0) & (df[classes] <= 1)).all().all()`: a string cell
//     makes pandas' comparison raise TypeError, NaN compares False;
//  2. `df[classes].sum(axis=1).round(6).eq(1).all()`: numpy adds a row's
//     three values left to right and rounds as `rint(x * 1e6) / 1e6`.
absl::Status CheckProbabilities(const Table& submission) {
  const size_t rows = submission.num_rows();
  std::vector<double> sums(rows, 0.0);
  for (size_t c = 0; c < kClasses.size(); ++c) {
    const Column& column = *submission.Find(kClasses[c]);
    for (size_t r = 0; r < rows; ++r) {
      if (std::holds_alternative<std::string>(column.cells[r])) {
        return InvalidSubmission(absl::StrCat("Column '", column.name,
                                              "' holds text, which cannot be compared with 0 "
                                              "and 1 (row ",
                                              r, ")."));
      }
    }
  }
  for (size_t c = 0; c < kClasses.size(); ++c) {
    const Column& column = *submission.Find(kClasses[c]);
    for (size_t r = 0; r < rows; ++r) {
      const double value = *NumericValue(column.cells[r]);
      if (!(value >= 0 && value <= 1)) {
        return InvalidSubmission(absl::StrCat(
            "All values in submission DataFrame must be between 0 and 1 (column '", column.name,
            "', row ", r, ")."));
      }
      sums[r] = c == 0 ? value : sums[r] + value;
    }
  }
  for (size_t r = 0; r < rows; ++r) {
    if (std::nearbyint(sums[r] * 1e6) / 1e6 != 1.0) {
      return InvalidSubmission(
          absl::StrCat("Each row in submission DataFrame must sum to 1 (row ", r, ")."));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  std::vector<std::string> missing;
  if (submission.Find(kIdColumn) == nullptr) missing.push_back("'id'");
  for (std::string_view name : kClasses) {
    if (submission.Find(name) == nullptr) missing.push_back(absl::StrCat("'", std::string(name), "'"));
  }
  if (!missing.empty()) {
    std::string list;
    for (const std::string& name : missing) absl::StrAppend(&list, list.empty() ? "" : ", ", name);
    return InvalidSubmission(
        absl::StrCat("Submission DataFrame is missing required columns: [", list, "]"));
  }
  if (answers.Find(kIdColumn) == nullptr) {
    return MalformedAnswers("no 'id' column");
  }
  for (std::string_view name : kClasses) {
    if (answers.Find(name) == nullptr) {
      return MalformedAnswers(absl::StrCat("no '", std::string(name), "' column"));
    }
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission DataFrame must have ", answers.num_rows(),
                                          " rows, but has ", submission.num_rows(), " rows."));
  }
  RETURN_IF_ERROR(CheckProbabilities(submission));

  // Upstream sorts both by id and compares the ids before its shared helper
  // sorts and compares them again; one pass gives the same outcome.
  return OneHotLogLossAlignedOnIds(RequiredColumns(submission), RequiredColumns(answers),
                                   kIdColumn);
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
    // Only what Grade reads: the answers also hold the prompts and responses.
    .answers_csv = {.only_columns = {"id", "winner_model_a", "winner_model_b", "winner_tie"}},
});

}  // namespace mlebench
