#ifndef MLEBENCH_GRADING_METRICS_CLASSIFICATION_F1_SCORE_LABEL_SETS_H_
#define MLEBENCH_GRADING_METRICS_CLASSIFICATION_F1_SCORE_LABEL_SETS_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "base/table.h"

namespace mlebench {

// The label sets upstream's multilabel F1 graders feed MultiLabelBinarizer:
// `column.fillna("").str.split()`, one list of labels per row, each string
// cell split on Python whitespace (python_str.h), missing cells empty.
// InvalidArgumentError wherever pandas or MultiLabelBinarizer raises: a
// column of numbers or bools without missing values (".str" accessor
// AttributeError), or any present cell that is not a string (`.str.split()`
// yields NaN for it, which MultiLabelBinarizer cannot iterate: TypeError); an
// all-missing column is all empty sets. Also for text that is not UTF-8.
absl::StatusOr<std::vector<std::vector<std::string>>> SplitLabelColumn(const Column& column);

// How upstream collects the classes from the answers' label column.
enum class AnswerClasses {
  // `set(answers[labels].str.split().explode().unique())` (imet-2020,
  // plant-pathology-2021): an answer row without labels adds NaN, which
  // `sorted` cannot order among strings, so every grade raises: malformed
  // answers.
  kExplodeAll,
  // Only the answers' string cells contribute, missing ones are skipped
  // (facebook-recruiting-iii's loop with a warning).
  kSkipMissing,
};

struct MultilabelF1Columns {
  std::string_view id;      // the id column of both tables
  std::string_view labels;  // the space-separated labels column of both tables
  AnswerClasses classes = AnswerClasses::kExplodeAll;
  // The grader's reason when the sorted ids differ.
  std::string_view id_mismatch_reason;
};

// The rest of upstream's multilabel `prepare_for_metric` + `f1_score(...,
// average="micro")`, after the grader's own column and row-count checks (so
// both tables have both columns and equally many rows):
//  - both tables sorted by the id column (pandas sort_values) and their ids
//    compared row by row (numpy `!=`, pandas_ops.h CellsEqual);
//  - label sets by SplitLabelColumn; classes = the sorted set of the answers'
//    labels (see AnswerClasses); MultiLabelBinarizer + micro F1
//    (f1_score.h), where predicted labels outside the classes are ignored.
// Errors: the submission's faults (ids that cannot be sorted or do not
// match, labels that are not text) are InvalidSubmission; the answers'
// (unsortable ids, labels that are not text, an empty row with kExplodeAll,
// fewer than two classes, for which sklearn raises on every submission)
// FailedPreconditionError.
absl::StatusOr<double> MultilabelMicroF1ById(const Table& submission, const Table& answers,
                                             const MultilabelF1Columns& columns);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_CLASSIFICATION_F1_SCORE_LABEL_SETS_H_
