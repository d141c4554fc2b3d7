// Upstream's nomad2018-predict-transparent-conductors/grade.py: the mean of
// the RMSLE of `formation_energy_ev_natom` and of `bandgap_energy_ev`.
// Upstream neither sorts nor looks at `id`: the submission's rows are paired
// with the answers' rows by position.

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "grading/metrics/regression/mean_column_wise_rmsle.h"
#include "base/table.h"

namespace mlebench {
namespace {

constexpr char kFormation[] = "formation_energy_ev_natom";
constexpr char kBandgap[] = "bandgap_energy_ev";

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  for (const char* column : {kFormation, kBandgap}) {
    if (answers.Find(column) == nullptr) {
      return MalformedAnswers(absl::StrCat("Expected '", column, "' column in answers"));
    }
  }
  for (const char* column : {kFormation, kBandgap}) {
    if (submission.Find(column) == nullptr) {
      return InvalidSubmission(absl::StrCat("Expected '", column, "' column in submission"));
    }
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Expected ", answers.num_rows(),
                                          " rows in submission, got ", submission.num_rows()));
  }
  const std::vector<const Column*> y_true = {answers.Find(kFormation), answers.Find(kBandgap)};
  const std::vector<const Column*> y_pred = {submission.Find(kFormation),
                                             submission.Find(kBandgap)};
  // Answers that could not be scored even against themselves are ours to fix,
  // not the submission's fault.
  if (absl::StatusOr<double> self = MeanColumnWiseRmsle(y_true, y_true); !self.ok()) {
    return MalformedAnswers(std::string(self.status().message()));
  }
  absl::StatusOr<double> score = MeanColumnWiseRmsle(y_true, y_pred);
  if (!score.ok()) {
    return InvalidSubmission(absl::StrCat("root_mean_squared_log_error rejects the predictions: ",
                                          score.status().message()));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
    // Only what Grade reads: the answers also hold every material feature.
    .answers_csv = {.only_columns = {kFormation, kBandgap}},
});

}  // namespace mlebench
