#ifndef MLEBENCH_GRADING_METRICS_SORTED_ID_PAIRING_H_
#define MLEBENCH_GRADING_METRICS_SORTED_ID_PAIRING_H_

// Upstream's most common way of pairing submission rows with answer rows:
//
//   submission = submission.sort_values(id)
//   answers = answers.sort_values(id)
//   if (submission[id].values != answers[id].values).any():
//       raise InvalidSubmissionError(message)
//
// after which row i of one sorted frame is compared with row i of the other.

#include <cstddef>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/table.h"
#include "base/typed_table.h"

namespace mlebench {

// Where each sorted row comes from: sorted row i is `submission[i]` of the
// submission and `answers[i]` of the answers.
struct SortedIdOrders {
  std::vector<size_t> submission;
  std::vector<size_t> answers;
  // Both id columns held the same values in the same rows, none missing
  // (SameValuesNoneMissing): the two orders are one, sorted once, and the
  // sorted ids are equal.
  bool same_ids = false;
};

// Both `sort_values` calls, as pandas sorts (SortValuesOrder, pandas_ops.h);
// one sort where SameValuesNoneMissing(submission_ids, answer_ids).
// A submission id column pandas cannot sort (mixed text and numbers) is
// InvalidSubmission "Cannot sort the submission by <column>: ..."; answers
// that cannot be sorted are FailedPrecondition "answers are malformed: ...".
absl::StatusOr<SortedIdOrders> SortBothById(const Column& submission_ids,
                                            const Column& answer_ids);
absl::StatusOr<SortedIdOrders> SortBothById(const TypedColumn& submission_ids,
                                            const TypedColumn& answer_ids);

// numpy's elementwise `!=` of the two sorted id columns (CellsEqual), which
// must have the same length (upstream checks lengths first), `orders` being
// SortBothById's of the same columns (OK at once when `orders.same_ids`): OK when every
// sorted row agrees, else InvalidSubmission "<message> (they differ at
// sorted row i: submission '<id>', answers '<id>')".
absl::Status CheckSortedIdsEqual(const Column& submission_ids, const Column& answer_ids,
                                 const SortedIdOrders& orders, std::string_view message);
absl::Status CheckSortedIdsEqual(const TypedColumn& submission_ids,
                                 const TypedColumn& answer_ids, const SortedIdOrders& orders,
                                 std::string_view message);

// Whether the submission lists the answers' ids, all present, in their order,
// as text: then both frames sorted by id pair every row with itself (equal
// columns sort into the same order; text never fails to sort) and their
// sorted ids are equal, so a grader whose result does not depend on the order
// of the pairs may skip both sorts.
bool SameTextIdsInOrder(const TypedColumn& submission_ids, const TypedColumn& answer_ids);

// Graders' opening on top of both: the answers must have `columns` (else
// FailedPrecondition "answers are malformed: no '<column>' column", as
// MalformedAnswers words it), checked in the order given.
absl::Status RequireAnswerColumns(const Table& answers,
                                  std::initializer_list<std::string_view> columns);
absl::Status RequireAnswerColumns(const TypedTable& answers,
                                  std::initializer_list<std::string_view> columns);

// Rows of both tables paired by `id_column` for a grader that compares one
// value column: RequireAnswerColumns(answers, {id_column, value_column}), then
// SortBothById and CheckSortedIdsEqual(ids_message), and both tables' id and
// value columns in sorted order. The submission's columns and the row counts
// must be checked first, each with grade.py's own message (a missing
// submission column is an InternalError here).
struct IdPairedRows {
  SortedIdOrders orders;
  Column submission_ids;
  Column answer_ids;
  Column submission_values;
  Column answer_values;
};
absl::StatusOr<IdPairedRows> PairRowsById(const Table& submission, const Table& answers,
                                          std::string_view id_column, std::string_view value_column,
                                          std::string_view ids_message);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_SORTED_ID_PAIRING_H_
