#ifndef MLEBENCH_GRADING_METRICS_CLASSIFICATION_BINARY_LOG_LOSS_BY_ID_H_
#define MLEBENCH_GRADING_METRICS_CLASSIFICATION_BINARY_LOG_LOSS_BY_ID_H_

// The grade.py that dogs-vs-cats-redux-kernels-edition and
// statoil-iceberg-classifier-challenge share (up to column names):
//
//   answers: `id` and a 0/1 target column (asserted);
//   submission: the `id` and target columns (InvalidSubmissionError);
//   the same set of ids as the answers;
//   [dogs-vs-cats only: the same length as the answers;]
//   every probability between 0 and 1 (a text value makes pandas' comparison
//   raise, NaN fails it);
//   log_loss(answers sorted by id, submission sorted by id) (scikit-learn's,
//   which rejects inconsistent lengths, e.g. repeated submission rows).

#include <string>

#include "absl/status/statusor.h"
#include "base/typed_table.h"

namespace mlebench {

struct BinaryLogLossByIdOptions {
  std::string id_column = "id";
  std::string target_column;  // e.g. "label", "is_iceberg"
  // Whether upstream compares the row counts before the ids.
  bool check_row_count = false;
};

// The grade. Invalid submissions where upstream raises for the submission;
// FailedPrecondition for answers without the columns, with labels other
// than 0/1, or with one label only (log_loss could score nothing).
absl::StatusOr<double> GradeBinaryLogLossById(const TypedTable& submission,
                                              const TypedTable& answers,
                                              const BinaryLogLossByIdOptions& options);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_CLASSIFICATION_BINARY_LOG_LOSS_BY_ID_H_
