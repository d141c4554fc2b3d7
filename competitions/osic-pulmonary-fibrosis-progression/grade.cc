// Upstream's osic-pulmonary-fibrosis-progression/grade.py: the modified
// Laplace log likelihood of the FVC predictions and their Confidence, over
// each test patient's three latest measured weeks. Higher is better.
//
// Upstream's steps, and what they imply:
//  1. the answers must have Patient_Week, FVC and Patient (asserts:
//     malformed answers);
//  2. the submission must have Patient_Week, FVC and Confidence; every
//     submitted Patient_Week must be one of the answers' (numpy `in`: a
//     missing or numeric one never is); FVC and Confidence must have numeric
//     dtypes (int, float or bool; missing values allowed); missing
//     confidences become 0 (so 70 after clipping);
//  3. the answers rows with an FVC, sorted by the week number after the
//     last "_" of Patient_Week, keep each patient's last three;
//  4. the submission rows for those Patient_Weeks and those answers rows,
//     each sorted by Patient_Week, are paired position by position: there is
//     no completeness check, so a submission may cover only some of them,
//     and repeats make the arrays' lengths differ (numpy then raises, unless
//     one side has a single element, which broadcasts);
//  5. LaplaceLogLikelihood. A missing FVC prediction makes the score NaN,
//     and so does a submission holding none of the scored weeks (the mean of
//     nothing); upstream returns NaN as the score in both cases.

#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/grader.h"
#include "grading/metrics/regression/laplace_log_likelihood.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

constexpr std::string_view kKeyColumn = "Patient_Week";
// Stands for a patient that is not text (missing), which groupby drops.
constexpr std::string_view kMissingPatient = "\x01missing";

bool IsNumericDtype(const Column& column) { return column.dtype != Dtype::kObject; }

// The row positions of `column` restricted to `rows`, sorted as
// `df.loc[rows].sort_values(column)` orders them.
absl::StatusOr<std::vector<size_t>> SortedRows(const Column& column,
                                               const std::vector<size_t>& rows) {
  ASSIGN_OR_RETURN(std::vector<size_t> order, SortValuesOrder(TakeCells(column, rows)));
  std::vector<size_t> sorted;
  sorted.reserve(order.size());
  for (size_t i : order) sorted.push_back(rows[i]);
  return sorted;
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  const Column* answer_keys = answers.Find(kKeyColumn);
  const Column* answer_fvc = answers.Find("FVC");
  const Column* answer_patients = answers.Find("Patient");
  if (answer_keys == nullptr || answer_fvc == nullptr || answer_patients == nullptr) {
    return MalformedAnswers("expected columns Patient_Week, FVC and Patient");
  }
  const Column* keys = submission.Find(kKeyColumn);
  if (keys == nullptr) {
    return InvalidSubmission("Submission DataFrame must have a 'Patient_Week' column.");
  }
  const Column* fvc = submission.Find("FVC");
  if (fvc == nullptr) return InvalidSubmission("Submission DataFrame must have a 'FVC' column.");
  const Column* confidence = submission.Find("Confidence");
  if (confidence == nullptr) {
    return InvalidSubmission("Submission DataFrame must have a 'Confidence' column.");
  }
  std::set<std::string> answer_key_set;
  for (const Cell& cell : answer_keys->cells) {
    const std::string* key = std::get_if<std::string>(&cell);
    if (key == nullptr) return MalformedAnswers("Patient_Week must be text");
    answer_key_set.insert(*key);
  }
  for (const Cell& cell : keys->cells) {
    const std::string* key = std::get_if<std::string>(&cell);
    if (key == nullptr || !answer_key_set.contains(*key)) {
      return InvalidSubmission(absl::StrCat("Patient_Week ", key != nullptr ? *key : PythonStr(cell),
                                            " in submission does not exist in answers"));
    }
  }
  if (!IsNumericDtype(*fvc)) return InvalidSubmission("FVC column in submission must be numeric.");
  if (!IsNumericDtype(*confidence)) {
    return InvalidSubmission("Confidence column in submission must be numeric.");
  }

  // Each patient's three latest weeks with an FVC (sort by week number,
  // then groupby("Patient").tail(3)).
  std::vector<size_t> measured;
  Column week_numbers{.name = "Week_Number", .dtype = Dtype::kInt64, .cells = {}};
  for (size_t row = 0; row < answer_keys->cells.size(); ++row) {
    const std::optional<double> value = NumericValue(answer_fvc->cells[row]);
    if (!value.has_value()) return MalformedAnswers("FVC must be numeric");
    if (std::isnan(*value)) continue;
    const std::string& key = std::get<std::string>(answer_keys->cells[row]);
    int64_t week = 0;
    if (!absl::SimpleAtoi(key.substr(key.rfind('_') + 1), &week)) {
      return MalformedAnswers(absl::StrCat("no week number in Patient_Week ", key));
    }
    measured.push_back(row);
    week_numbers.cells.emplace_back(std::in_place_type<int64_t>, week);
  }
  absl::StatusOr<std::vector<size_t>> by_week = SortValuesOrder(week_numbers);
  if (!by_week.ok()) return MalformedAnswers(std::string(by_week.status().message()));
  std::map<std::string, std::vector<size_t>> rows_by_patient;  // in week order
  for (size_t i : *by_week) {
    const size_t row = measured[i];
    const std::string* patient = std::get_if<std::string>(&answer_patients->cells[row]);
    rows_by_patient[patient != nullptr ? *patient : std::string(kMissingPatient)].push_back(row);
  }
  // tail(3) keeps the rows in the week-sorted frame's order.
  std::set<size_t> latest_rows;
  std::set<std::string> latest_keys;
  for (const auto& [patient, rows] : rows_by_patient) {
    if (patient == kMissingPatient) continue;  // groupby drops missing keys
    for (size_t i = rows.size() > 3 ? rows.size() - 3 : 0; i < rows.size(); ++i) {
      latest_rows.insert(rows[i]);
      latest_keys.insert(std::get<std::string>(answer_keys->cells[rows[i]]));
    }
  }
  std::vector<size_t> latest;
  for (size_t i : *by_week) {
    if (latest_rows.contains(measured[i])) latest.push_back(measured[i]);
  }

  std::vector<size_t> submitted;
  std::set<std::string> submitted_keys;
  for (size_t row = 0; row < keys->cells.size(); ++row) {
    const std::string& key = std::get<std::string>(keys->cells[row]);
    if (!latest_keys.contains(key)) continue;
    submitted.push_back(row);
    submitted_keys.insert(key);
  }
  ASSIGN_OR_RETURN(std::vector<size_t> submission_order, SortedRows(*keys, submitted));
  absl::StatusOr<std::vector<size_t>> answer_order = SortedRows(*answer_keys, latest);
  if (!answer_order.ok()) return MalformedAnswers(std::string(answer_order.status().message()));

  std::vector<double> fvc_true, fvc_pred, confidences;
  for (size_t row : *answer_order) {
    if (submitted_keys.contains(std::get<std::string>(answer_keys->cells[row]))) {
      fvc_true.push_back(*NumericValue(answer_fvc->cells[row]));
    }
  }
  for (size_t row : submission_order) {
    fvc_pred.push_back(*NumericValue(fvc->cells[row]));
    const double c = *NumericValue(confidence->cells[row]);
    confidences.push_back(std::isnan(c) ? 0.0 : c);  // fillna(0)
  }
  absl::StatusOr<double> score = LaplaceLogLikelihood(fvc_true, fvc_pred, confidences);
  if (!score.ok()) return InvalidSubmission(std::string(score.status().message()));
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
    // Only what Grade reads: the answers also hold each patient's other measurements.
    .answers_csv = {.only_columns = {"Patient_Week", "FVC", "Patient"}},
    // Only the answers' scored rows are looked up in the submission, whose
    // other rows and missing values go unread.
    .sample_rows = SampleRows::kSomeIds,
    .missing_numbers_allowed = true,
});

}  // namespace mlebench
