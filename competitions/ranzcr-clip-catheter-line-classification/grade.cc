// Upstream's ranzcr-clip-catheter-line-classification/grade.py: the mean,
// over nine of the label columns (every tube/line class except
// "CVC - Normal" and "Swan Ganz Catheter Present"), of each column's ROC
// AUC, aligned on `StudyInstanceUID`.
//
// Upstream's steps, and what they imply:
//  1. every class column must be in the answers (an assert: malformed
//     answers) and in the submission; extra submission columns are ignored;
//  2. the submission must have as many rows as the answers;
//  3. per class, in order, prepare_for_auroc_metric (scores numeric and in
//     [0, 1], the same ids after sorting) then roc_auc_score, which rejects
//     NaN scores. Every exception raised for the submission rejects it.

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/typed_table.h"
#include "grading/grader.h"
#include "grading/metrics/classification/auc_roc.h"
#include "grading/metrics/metric_inputs.h"
#include "pycompat/numpy_sum.h"

namespace mlebench {
namespace {

constexpr std::string_view kIdColumn = "StudyInstanceUID";
constexpr std::array<std::string_view, 9> kClasses = {
    "ETT - Abnormal",   "ETT - Borderline",          "ETT - Normal",
    "NGT - Abnormal",   "NGT - Borderline",          "NGT - Incompletely Imaged",
    "NGT - Normal",     "CVC - Abnormal",            "CVC - Borderline",
};

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  for (std::string_view name : kClasses) {
    if (answers.Find(name) == nullptr) {
      return MalformedAnswers(absl::StrCat("missing class ", std::string(name)));
    }
    if (submission.Find(name) == nullptr) {
      return InvalidSubmission(
          absl::StrCat("Class ", std::string(name), " is not in the submission."));
    }
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Expected ", answers.num_rows(),
                                          " rows in submission, got ", submission.num_rows(), "."));
  }
  std::vector<double> aucs;
  for (std::string_view name : kClasses) {
    ASSIGN_OR_RETURN(AurocInputs inputs,
                     PrepareForAurocMetric(submission, answers, kIdColumn, name));
    // The answers' labels were checked above, so what roc_auc_score still
    // rejects (NaN scores) is the submission's.
    absl::StatusOr<double> auc = RocAucScore(inputs.y_true, inputs.y_score);
    if (!auc.ok()) {
      return InvalidSubmission(absl::StrCat("roc_auc_score rejects `", std::string(name),
                                            "`: ", auc.status().message()));
    }
    aucs.push_back(*auc);
  }
  // np.average without weights is numpy's mean (unrolled pairwise sum).
  return NumpyMean(aucs);
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
    .submission_csv = {.string_columns = {std::string(kIdColumn)}},
    .answers_csv = {.string_columns = {std::string(kIdColumn)}},
});

}  // namespace mlebench
