#ifndef MLEBENCH_COMPETITIONS_FAMILIES_FGVC_LABEL_SETS_MICRO_F1_H_
#define MLEBENCH_COMPETITIONS_FAMILIES_FGVC_LABEL_SETS_MICRO_F1_H_

// The grade.py shared by imet-2020-fgvc7 and plant-pathology-2021-fgvc8
// (identical but for the column names).

#include <string_view>

#include "absl/status/statusor.h"
#include "base/table.h"

namespace mlebench {

// Micro F1 of the space-separated label sets in `labels_column`, aligned on
// `id_column` (MultilabelMicroF1ById with the answers' classes exploded),
// after upstream's checks, with its messages:
//   answers without either column: MalformedAnswers "Answers DataFrame must
//     have '<id>' and '<labels>' columns";
//   a submission without a column: InvalidSubmission "Submission DataFrame
//     must have an '<id>' column." / "... a '<labels>' column.";
//   another row count: InvalidSubmission "Submission and answers DataFrames
//     must have the same number of rows (expected N, got M).";
//   other ids: InvalidSubmission "Submission and answers DataFrames must have
//     matching '<id>' columns.".
absl::StatusOr<double> GradeLabelSetsMicroF1(const Table& submission, const Table& answers,
                                             std::string_view id_column,
                                             std::string_view labels_column);

}  // namespace mlebench

#endif  // MLEBENCH_COMPETITIONS_FAMILIES_FGVC_LABEL_SETS_MICRO_F1_H_
