// Upstream's icecube-neutrinos-in-deep-ice/grade.py: the mean angular error
// between predicted and true (azimuth, zenith) directions, rows aligned by
// sorting both tables on `event_id`.

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/grader.h"
#include "grading/metrics/regression/mean_angular_error.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

bool HasExactlyTheColumns(const Table& table) {
  return table.num_columns() == 3 && table.Find("event_id") != nullptr &&
         table.Find("azimuth") != nullptr && table.Find("zenith") != nullptr;
}

// Upstream's angle checks, in its order: np.issubdtype(dtype, np.number)
// for azimuth then zenith (int64 and float64 pass; bool and object do not),
// then np.isfinite on every value of each (NaN fails it too, so upstream's
// separate NaN checks are never reached). Returns the reason, empty when
// both columns pass.
std::string AnglesProblem(const Table& table) {
  static constexpr std::pair<const char*, const char*> kAngles[] = {{"azimuth", "Azimuth"},
                                                                    {"zenith", "Zenith"}};
  for (const auto& [name, label] : kAngles) {
    const Dtype dtype = table.Find(name)->dtype;
    if (dtype != Dtype::kInt64 && dtype != Dtype::kFloat64) {
      return absl::StrCat(label, " must be a number");
    }
  }
  for (const auto& [name, label] : kAngles) {
    for (const Cell& c : table.Find(name)->cells) {
      if (const double* d = std::get_if<double>(&c); d != nullptr && !std::isfinite(*d)) {
        return absl::StrCat(label, " must not be infinite");
      }
    }
  }
  return "";
}

std::vector<double> AnglesInOrder(const Column& column, const std::vector<size_t>& order) {
  std::vector<double> out;
  out.reserve(order.size());
  for (size_t i : order) out.push_back(*NumericValue(column.cells[i]));
  return out;
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  if (!HasExactlyTheColumns(submission)) {
    return InvalidSubmission("Submission must contain columns 'azimuth','zenith' and 'event_id'");
  }
  if (std::string problem = AnglesProblem(submission); !problem.empty()) {
    return InvalidSubmission(problem);
  }
  if (!HasExactlyTheColumns(answers)) {
    return MalformedAnswers("Answers must contain columns 'azimuth','zenith' and 'event_id'");
  }
  if (std::string problem = AnglesProblem(answers); !problem.empty()) {
    return MalformedAnswers(problem);
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission("Submission and answers must have the same length");
  }
  const Column& submitted_ids = *submission.Find("event_id");
  const Column& true_ids = *answers.Find("event_id");
  if (SymmetricDifferenceSize(submitted_ids, true_ids) != 0) {
    return InvalidSubmission("Submission and answers must have the same event_ids");
  }
  absl::StatusOr<std::vector<size_t>> submission_order = SortValuesOrder(submitted_ids);
  if (!submission_order.ok()) {
    return InvalidSubmission(
        absl::StrCat("cannot sort event_id: ", submission_order.status().message()));
  }
  ASSIGN_OR_RETURN(std::vector<size_t> answers_order, SortValuesOrder(true_ids));
  return MeanAngularError(AnglesInOrder(*answers.Find("azimuth"), answers_order),
                          AnglesInOrder(*answers.Find("zenith"), answers_order),
                          AnglesInOrder(*submission.Find("azimuth"), *submission_order),
                          AnglesInOrder(*submission.Find("zenith"), *submission_order));
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
