#ifndef MLEBENCH_GRADING_METRICS_CLASSIFICATION_ACCURACY_H_
#define MLEBENCH_GRADING_METRICS_CLASSIFICATION_ACCURACY_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "base/table.h"

namespace mlebench {

// sklearn's `type_of_target` for a 1-D target, as it sees a pandas column's
// `.to_numpy()`:
//   kBinary      at most two distinct values (an empty column too);
//   kMulticlass  more than two distinct values;
//   kContinuous  a float64 column with a value that is not integral;
//   kUnknown     an object column whose first value is not a string (e.g. a
//                bool column with missing values, or a leading NaN).
enum class TargetType { kBinary, kMulticlass, kContinuous, kUnknown };

// sklearn's names: "binary", "multiclass", "continuous", "unknown".
std::string_view TargetTypeName(TargetType type);

// Returns the column's target type, or InvalidArgumentError where sklearn
// raises: a float64 column that is not all integral and holds NaN or +-inf
// ("Input {input_name} contains NaN." ...), or an object column that starts
// with a string and also holds another type (NaN, a bool), which numpy's
// sort inside np.unique cannot order (a TypeError in sklearn).
absl::StatusOr<TargetType> TypeOfTarget(const Column& y, std::string_view input_name);

// sklearn (>= 1.5) `accuracy_score(y_true, y_pred)` on two columns: the
// fraction of rows whose labels are equal (numbers by value, so True == 1 ==
// 1.0; strings by content; a string never equals a number). NaN for empty
// columns, as sklearn returns.
//
// InvalidArgumentError, with sklearn's reason, wherever sklearn raises:
//  - lengths differ;
//  - TypeOfTarget fails for either column (y_true first);
//  - the types mix beyond binary+multiclass ("Classification metrics can't
//    handle a mix of binary and continuous targets"), or are continuous or
//    unknown on both sides ("continuous is not supported");
//  - both are binary but one holds strings and the other numbers (np.union1d
//    cannot sort them: "Labels in y_true and y_pred should be of the same
//    type..."). When either side has more than two labels, string and number
//    labels are simply never equal and the score is computed.
// sklearn's accuracy_score does not call unique_labels, so its "Mix of label
// input types" error cannot arise here.
absl::StatusOr<double> AccuracyScore(const Column& y_true, const Column& y_pred);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_CLASSIFICATION_ACCURACY_H_
