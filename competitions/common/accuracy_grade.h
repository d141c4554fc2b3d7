#ifndef MLEBENCH_COMPETITIONS_COMMON_ACCURACY_GRADE_H_
#define MLEBENCH_COMPETITIONS_COMMON_ACCURACY_GRADE_H_

// The grade.py of the competitions scored by the accuracy of one column
// (cassava, tensorflow-speech, spaceship-titanic, ...), in one place.

#include <string_view>

#include "absl/status/statusor.h"
#include "base/typed_table.h"

namespace mlebench {

// Upstream's prepare_for_accuracy_metric (submission and answers aligned on
// `id_column`, with its checks of both; its errors as it reports them) then
// sklearn's accuracy_score of `target_column`. The answers' values are
// checked by the first step, so what accuracy_score still rejects (NaN or
// fractional classes, text against numbers) is the submission's:
// InvalidSubmission "accuracy_score rejects `<target_column>`: <reason>".
absl::StatusOr<double> GradeAccuracyById(const TypedTable& submission, const TypedTable& answers,
                                         std::string_view id_column,
                                         std::string_view target_column);

}  // namespace mlebench

#endif  // MLEBENCH_COMPETITIONS_COMMON_ACCURACY_GRADE_H_
