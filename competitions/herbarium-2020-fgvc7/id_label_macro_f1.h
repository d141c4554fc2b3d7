#ifndef MLEBENCH_COMPETITIONS_HERBARIUM_2020_FGVC7_ID_LABEL_MACRO_F1_H_
#define MLEBENCH_COMPETITIONS_HERBARIUM_2020_FGVC7_ID_LABEL_MACRO_F1_H_

// The grade.py shared (word for word, up to column names) by upstream's
// herbarium-2020-fgvc7, herbarium-2021-fgvc8 and iwildcam-2019-fgvc6:
//
//   same length, both columns present (else InvalidSubmissionError);
//   both sorted by the id column (pandas sort_values), ids equal row by row
//   (numpy `!=` on .values; else InvalidSubmissionError);
//   y = [int(v) for v in label column] on both sides;
//   f1_score(y_true, y_pred, average="macro").

#include <optional>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/table.h"

namespace mlebench {

// Python's `int(value)` of one cell of a label column, where it yields an
// integer scikit-learn can take as a class label: bools 0/1, ints as they
// are, floats truncated toward zero, strings parsed as Python's int(str)
// does for ASCII text (surrounding whitespace, a sign, digits with single
// underscores between them). nullopt where Python raises (NaN, +-inf, text
// that is not an integer) and, beyond Python, for values outside int64
// (sklearn turns such lists into object arrays of "unknown" type and
// raises, except for the unsigned 64-bit range, which is not supported
// here). Non-ASCII digits and whitespace, which Python accepts, are
// rejected.
std::optional<int64_t> PythonIntOfCell(const Cell& cell);

// The grade: macro F1 of `label_column` aligned on `id_column`. Every way
// upstream's grade() raises for a submission is InvalidSubmission; answers
// without the columns or with labels int() rejects are FailedPrecondition.
absl::StatusOr<double> GradeIdLabelMacroF1(const Table& submission, const Table& answers,
                                           std::string_view id_column,
                                           std::string_view label_column);

}  // namespace mlebench

#endif  // MLEBENCH_COMPETITIONS_HERBARIUM_2020_FGVC7_ID_LABEL_MACRO_F1_H_
