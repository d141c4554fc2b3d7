#ifndef MLEBENCH_COMPETITIONS_FAMILIES_FGVC_ID_LABEL_MACRO_F1_H_
#define MLEBENCH_COMPETITIONS_FAMILIES_FGVC_ID_LABEL_MACRO_F1_H_

// The grade.py shared (word for word, up to column names) by upstream's
// herbarium-2020-fgvc7, herbarium-2021-fgvc8 and iwildcam-2019-fgvc6:
//
//   same length, both columns present (else InvalidSubmissionError);
//   both sorted by the id column (pandas sort_values), ids equal row by row
//   (numpy `!=` on .values; else InvalidSubmissionError);
//   y = [int(v) for v in label column] on both sides (PythonIntOfCell,
//   pycompat/python_int.h); predictions all in [2**63, 2**64) make a uint64
//   array that sklearn scores 0 (no answer reaches that range), some of them
//   among smaller ones a float array it rejects;
//   f1_score(y_true, y_pred, average="macro").

#include <string_view>

#include "absl/status/statusor.h"
#include "base/table.h"

namespace mlebench {

// The grade: macro F1 of `label_column` aligned on `id_column`. Every way
// upstream's grade() raises for a submission is InvalidSubmission; answers
// without the columns or with labels int() rejects are FailedPrecondition.
absl::StatusOr<double> GradeIdLabelMacroF1(const Table& submission, const Table& answers,
                                           std::string_view id_column,
                                           std::string_view label_column);

}  // namespace mlebench

#endif  // MLEBENCH_COMPETITIONS_FAMILIES_FGVC_ID_LABEL_MACRO_F1_H_
