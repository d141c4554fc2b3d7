#include "grading/metrics/sorted_id_pairing.h"

#include <span>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "grading/outcome.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_str.h"

namespace mlebench {

absl::StatusOr<SortedIdOrders> SortBothById(const TypedColumn& submission_ids,
                                            const TypedColumn& answer_ids) {
  absl::StatusOr<std::vector<size_t>> submission = SortValuesOrder(submission_ids);
  if (!submission.ok()) {
    return InvalidSubmission(absl::StrCat("Cannot sort the submission by ", submission_ids.name(),
                                          ": ", std::string(submission.status().message())));
  }
  if (SameValuesNoneMissing(submission_ids, answer_ids)) {
    std::vector<size_t> answers = *submission;
    return SortedIdOrders{
        .submission = *std::move(submission), .answers = std::move(answers), .same_ids = true};
  }
  absl::StatusOr<std::vector<size_t>> answers = SortValuesOrder(answer_ids);
  if (!answers.ok()) {
    return MalformedAnswers(std::string(answers.status().message()));
  }
  return SortedIdOrders{.submission = *std::move(submission), .answers = *std::move(answers)};
}

absl::StatusOr<SortedIdOrders> SortBothById(const Column& submission_ids,
                                            const Column& answer_ids) {
  return SortBothById(TypedColumn::CellsView(submission_ids), TypedColumn::CellsView(answer_ids));
}

absl::Status CheckSortedIdsEqual(const TypedColumn& submission_ids,
                                 const TypedColumn& answer_ids, const SortedIdOrders& orders,
                                 std::string_view message) {
  if (orders.submission.size() != orders.answers.size()) {
    return absl::InternalError("CheckSortedIdsEqual: the id columns differ in length");
  }
  if (orders.same_ids) return absl::OkStatus();
  for (size_t i = 0; i < orders.submission.size(); ++i) {
    if (!ValuesEqualAt(submission_ids, orders.submission[i], answer_ids, orders.answers[i])) {
      return InvalidSubmission(absl::StrCat(
          std::string(message), " (they differ at sorted row ", i, ": submission '",
          PythonStr(submission_ids.CellAt(orders.submission[i])), "', answers '",
          PythonStr(answer_ids.CellAt(orders.answers[i])), "')"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckSortedIdsEqual(const Column& submission_ids, const Column& answer_ids,
                                 const SortedIdOrders& orders, std::string_view message) {
  return CheckSortedIdsEqual(TypedColumn::CellsView(submission_ids),
                             TypedColumn::CellsView(answer_ids), orders, message);
}

bool SameTextIdsInOrder(const TypedColumn& submission_ids, const TypedColumn& answer_ids) {
  if (submission_ids.storage() != TypedColumn::Storage::kText ||
      answer_ids.storage() != TypedColumn::Storage::kText ||
      submission_ids.size() != answer_ids.size()) {
    return false;
  }
  const std::span<const std::string_view> a = submission_ids.text(), b = answer_ids.text();
  for (size_t i = 0; i < a.size(); ++i) {
    if (TypedColumn::IsMissingText(a[i]) || a[i] != b[i]) return false;
  }
  return true;
}

namespace {
template <typename AnyTable>
absl::Status RequireColumns(const AnyTable& answers,
                            std::initializer_list<std::string_view> columns) {
  for (std::string_view name : columns) {
    if (answers.Find(name) == nullptr) {
      return MalformedAnswers(absl::StrCat("no '", std::string(name), "' column"));
    }
  }
  return absl::OkStatus();
}
}  // namespace

absl::Status RequireAnswerColumns(const Table& answers,
                                  std::initializer_list<std::string_view> columns) {
  return RequireColumns(answers, columns);
}

absl::Status RequireAnswerColumns(const TypedTable& answers,
                                  std::initializer_list<std::string_view> columns) {
  return RequireColumns(answers, columns);
}

absl::StatusOr<IdPairedRows> PairRowsById(const Table& submission, const Table& answers,
                                          std::string_view id_column, std::string_view value_column,
                                          std::string_view ids_message) {
  RETURN_IF_ERROR(RequireAnswerColumns(answers, {id_column, value_column}));
  const Column* submission_ids = submission.Find(id_column);
  const Column* submission_values = submission.Find(value_column);
  if (submission_ids == nullptr || submission_values == nullptr) {
    return absl::InternalError(absl::StrCat("PairRowsById: the submission's columns '",
                                            std::string(id_column), "' and '",
                                            std::string(value_column), "' must be checked first"));
  }
  const Column& answer_ids = *answers.Find(id_column);
  ASSIGN_OR_RETURN(SortedIdOrders orders, SortBothById(*submission_ids, answer_ids));
  RETURN_IF_ERROR(CheckSortedIdsEqual(*submission_ids, answer_ids, orders, ids_message));
  IdPairedRows paired;
  paired.submission_ids = TakeCells(*submission_ids, orders.submission);
  paired.answer_ids = TakeCells(answer_ids, orders.answers);
  paired.submission_values = TakeCells(*submission_values, orders.submission);
  paired.answer_values = TakeCells(*answers.Find(value_column), orders.answers);
  paired.orders = std::move(orders);
  return paired;
}

}  // namespace mlebench
