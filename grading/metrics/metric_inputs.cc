#include "grading/metrics/metric_inputs.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <variant>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/parallel.h"
#include "base/python_float.h"
#include "base/status_macros.h"
#include "grading/metrics/classification/accuracy.h"
#include "grading/metrics/classification/auc_roc.h"
#include "grading/metrics/classification/log_loss.h"
#include "grading/metrics/sorted_id_pairing.h"
#include "grading/outcome.h"
#include "pycompat/numpy_sum.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

absl::Status BadAnswers(std::string_view reason) { return MalformedAnswers(std::string(reason)); }

// Sorts a column as sort_values does; a TypeError blames the table it came from.
absl::StatusOr<std::vector<size_t>> SortOrBlame(const TypedColumn& id, bool is_submission) {
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(id);
  if (order.ok()) return order;
  if (is_submission) {
    return InvalidSubmission(absl::StrCat("Submission ", order.status().message()));
  }
  return BadAnswers(std::string(order.status().message()));
}

// The id orders both tables are sorted into, or the error of either sort.
struct IdOrders {
  std::vector<size_t> submission;
  std::vector<size_t> answers;
};
// `same_ids`: SameValuesNoneMissing(id, answers_id), which callers know already.
absl::StatusOr<IdOrders> SortBoth(const TypedColumn& id, const TypedColumn& answers_id,
                                  bool same_ids) {
  if (same_ids) {  // one sort serves both
    ASSIGN_OR_RETURN(std::vector<size_t> order, SortValuesOrder(id));
    IdOrders orders{order, std::move(order)};
    return orders;
  }
  ASSIGN_OR_RETURN(std::vector<size_t> submission_order, SortOrBlame(id, true));
  ASSIGN_OR_RETURN(std::vector<size_t> answers_order, SortOrBlame(answers_id, false));
  return IdOrders{std::move(submission_order), std::move(answers_order)};
}

// Whether the ids are equal row by row once sorted (`(a.values !=
// b.values).any()` is false; missing ids never equal).
bool SortedIdsEqual(const TypedColumn& id, const TypedColumn& answers_id, const IdOrders& orders) {
  if (orders.submission.size() != orders.answers.size()) return false;
  for (size_t r = 0; r < orders.submission.size(); ++r) {
    if (!ValuesEqualAt(id, orders.submission[r], answers_id, orders.answers[r])) return false;
  }
  return true;
}

std::string RowRepr(const TypedColumn& c, size_t row) {
  const Cell cell = c.CellAt(row);
  if (IsMissing(cell)) return "nan";
  if (const auto* s = std::get_if<std::string>(&cell)) return absl::StrCat("'", *s, "'");
  if (const auto* b = std::get_if<bool>(&cell)) return *b ? "True" : "False";
  if (const auto* i = std::get_if<int64_t>(&cell)) return absl::StrCat(*i);
  return FormatPythonFloat(std::get<double>(cell));
}

// The float64 value sklearn's check_array gives an object cell, or nullopt
// for a string it cannot convert. numpy converts strings with Python's
// float(), which also takes "nan", "1_000" and the like; pandas' stricter
// parser stands in for it here (spooky-author-identification never gets this
// far with a string: its row-sum check rejects text first).
std::optional<double> ToFloat64(const TypedColumn& column, size_t row) {
  if (std::optional<double> v = NumericValueAt(column, row)) return v;
  return ParseNumericString(std::get<std::string>(column.CellAt(row)));
}

}  // namespace

std::optional<double> ParseNumericString(std::string_view text) {
  // pandas' floatify: infinities are recognised only as the whole string.
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view inf : {"inf", "+inf", "infinity", "+infinity"}) {
    if (lower == inf) return std::numeric_limits<double>::infinity();
  }
  if (lower == "-inf" || lower == "-infinity") return -std::numeric_limits<double>::infinity();
  // Otherwise its xstrtod: surrounding spaces, sign, digits, '.', exponent.
  auto is_space = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
  };
  std::string_view s = text;
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  std::string_view body = s;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) body.remove_prefix(1);
  // sign? digits* (. digits*)? ([eE] sign? digits+)? with at least one mantissa digit.
  size_t i = 0;
  size_t digits = 0;
  while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) ++i, ++digits;
  if (i < body.size() && body[i] == '.') {
    ++i;
    while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) ++i, ++digits;
  }
  if (digits == 0) return std::nullopt;
  if (i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
    ++i;
    if (i < body.size() && (body[i] == '+' || body[i] == '-')) ++i;
    size_t exponent_digits = 0;
    while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) {
      ++i, ++exponent_digits;
    }
    if (exponent_digits == 0) return std::nullopt;
  }
  if (i != body.size()) return std::nullopt;
  return DecimalTextToDouble(s);
}

absl::StatusOr<AccuracyInputs> PrepareForAccuracyMetric(const TypedTable& submission,
                                                        const TypedTable& answers,
                                                        std::string_view id_column,
                                                        std::string_view target_column) {
  const TypedColumn* answers_target = answers.Find(target_column);
  const TypedColumn* answers_id = answers.Find(id_column);
  if (answers_target == nullptr) {
    return BadAnswers(
        absl::StrCat("Answers must have a `", std::string(target_column), "` column"));
  }
  if (answers_id == nullptr) {
    return BadAnswers(absl::StrCat("Answers must have a `", std::string(id_column), "` column"));
  }
  // int64 labels are always binary or multiclass; other targets become
  // cells (the labels' kinds matter to accuracy_score). The ids stay typed.
  const bool int64_answers = answers_target->storage() == TypedColumn::Storage::kInt64;
  Column answers_labels;
  if (!int64_answers) {
    answers_labels = answers_target->ToColumn();
    if (absl::StatusOr<TargetType> type = TypeOfTarget(answers_labels, "y_true");
        !type.ok() || (*type != TargetType::kBinary && *type != TargetType::kMulticlass)) {
      return BadAnswers(absl::StrCat(
          "answers' `", std::string(target_column), "` is not a label column: ",
          type.ok() ? std::string(TargetTypeName(*type)) : std::string(type.status().message())));
    }
  }

  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission must have the same length as the answers (",
                                          submission.num_rows(), " rows instead of ",
                                          answers.num_rows(), ")."));
  }
  const TypedColumn* target = submission.Find(target_column);
  if (target == nullptr) {
    return InvalidSubmission(
        absl::StrCat("Submission must have a `", std::string(target_column), "` column"));
  }
  const TypedColumn* id = submission.Find(id_column);
  if (id == nullptr) {
    return InvalidSubmission(
        absl::StrCat("Submission must have a `", std::string(id_column), "` column"));
  }

  const bool same_ids = SameValuesNoneMissing(*id, *answers_id);
  const bool int64_labels = int64_answers && target->storage() == TypedColumn::Storage::kInt64;
  AccuracyInputs inputs;
  if (int64_labels) {
    inputs.int64 = AccuracyInputs::Int64Labels{answers_target->ints(), target->ints(), {}, {}};
    // Every row pairs with itself: no sort.
    if (same_ids) return inputs;
  } else if (int64_answers) {
    answers_labels = answers_target->ToColumn();
  }
  ASSIGN_OR_RETURN(IdOrders orders, SortBoth(*id, *answers_id, same_ids));
  if (!same_ids && !SortedIdsEqual(*id, *answers_id, orders)) {
    return InvalidSubmission(
        absl::StrCat("Submission and Answers `", std::string(id_column), "`'s do not match"));
  }
  if (int64_labels) {
    inputs.int64->true_order = std::move(orders.answers);
    inputs.int64->pred_order = std::move(orders.submission);
    return inputs;
  }
  inputs.y_true = TakeCells(answers_labels, orders.answers);
  inputs.y_pred = TakeCells(target->ToColumn(), orders.submission);
  return inputs;
}

absl::StatusOr<double> AccuracyScore(const AccuracyInputs& inputs) {
  if (!inputs.int64.has_value()) return AccuracyScore(inputs.y_true, inputs.y_pred);
  const AccuracyInputs::Int64Labels& labels = *inputs.int64;
  const size_t n = labels.y_true.size();
  // np.mean of an empty boolean array.
  if (n == 0) return std::numeric_limits<double>::quiet_NaN();
  size_t matches = 0;
  if (labels.true_order.empty()) {
    for (size_t r = 0; r < n; ++r) matches += labels.y_true[r] == labels.y_pred[r];
  } else {
    for (size_t r = 0; r < n; ++r) {
      matches += labels.y_true[labels.true_order[r]] == labels.y_pred[labels.pred_order[r]];
    }
  }
  // np.mean of the boolean array: an exact count divided once by n.
  return static_cast<double>(matches) / static_cast<double>(n);
}

absl::StatusOr<AccuracyInputs> PrepareForAccuracyMetric(const Table& submission,
                                                        const Table& answers,
                                                        std::string_view id_column,
                                                        std::string_view target_column) {
  return PrepareForAccuracyMetric(TypedTable::View(submission), TypedTable::View(answers),
                                  id_column, target_column);
}

absl::StatusOr<AurocInputs> PrepareForAurocMetric(const Table& submission, const Table& answers,
                                                  std::string_view id_column,
                                                  std::string_view target_column) {
  return PrepareForAurocMetric(TypedTable::View(submission), TypedTable::View(answers), id_column,
                               target_column);
}

absl::StatusOr<AurocInputs> PrepareForAurocMetric(const TypedTable& submission,
                                                  const TypedTable& answers,
                                                  std::string_view id_column,
                                                  std::string_view target_column) {
  const TypedColumn* answers_id = answers.Find(id_column);
  const TypedColumn* answers_target = answers.Find(target_column);
  if (answers_id == nullptr) {
    return BadAnswers(
        absl::StrCat("answers dataframe should have an ", std::string(id_column), " column"));
  }
  if (answers_target == nullptr) {
    return BadAnswers(
        absl::StrCat("answers dataframe should have a ", std::string(target_column), " column"));
  }
  std::vector<double> y_true(answers_target->size());
  if (CopyNumericValues(*answers_target, y_true) != y_true.size()) {
    return BadAnswers(absl::StrCat("`", std::string(target_column), "` is not numeric"));
  }
  if (absl::Status s = CheckRocAucTrue(y_true); !s.ok()) {
    return BadAnswers(absl::StrCat("`", std::string(target_column), "`: ", s.message()));
  }

  const TypedColumn* id = submission.Find(id_column);
  if (id == nullptr) {
    return InvalidSubmission(
        absl::StrCat("Submission should have an ", std::string(id_column), " column"));
  }
  const TypedColumn* target = submission.Find(target_column);
  if (target == nullptr) {
    return InvalidSubmission(
        absl::StrCat("Submission should have a ", std::string(target_column), " column"));
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(
        absl::StrCat("Submission and answers should have the same number of rows (",
                     submission.num_rows(), " instead of ", answers.num_rows(), ")"));
  }

  // pd.to_numeric(submission[target]) only has to succeed; its result is
  // dropped, and the checks below see the column as read. Only object
  // columns can hold strings.
  std::vector<double> scores(target->size());
  bool has_string = false;
  for (size_t row = CopyNumericValues(*target, scores); row < scores.size(); ++row) {
    std::optional<double> v = NumericValueAt(*target, row);
    if (v.has_value()) {
      scores[row] = *v;
      continue;
    }
    has_string = true;
    const std::string s = std::get<std::string>(target->CellAt(row));
    if (!ParseNumericString(s).has_value()) {
      return InvalidSubmission(
          absl::StrCat("Expected ", std::string(target_column), " column to be numeric, got ",
                       std::string(DtypeName(target->dtype())),
                       " instead (unable to parse string \"", s, "\" at position ", row, ")"));
    }
  }
  // min()/max() of an object column holding strings yields a string, which
  // Python cannot compare with 0.
  if (has_string) {
    return InvalidSubmission(
        absl::StrCat("Submission ", std::string(target_column),
                     " column holds numbers written as text, which cannot be compared with 0 and 1 "
                     "('<' not supported between instances of 'str' and 'int')"));
  }
  double low = std::numeric_limits<double>::infinity();
  double high = -std::numeric_limits<double>::infinity();
  for (const double v : scores) {
    if (std::isnan(v)) continue;  // pandas' min/max skip NaN
    low = std::min(low, v);
    high = std::max(high, v);
  }
  if (low < 0 || high > 1) {
    return InvalidSubmission(absl::StrCat(
        "Submission ", std::string(target_column),
        " column should contain probabilities, and therefore contain values between 0 and 1 "
        "inclusive"));
  }

  // RocAucScore does not depend on the order of the pairs, only on the
  // pairing, so rows that pair with themselves need no sort.
  if (SameValuesNoneMissing(*id, *answers_id)) {
    return AurocInputs{std::move(y_true), std::move(scores)};
  }
  ASSIGN_OR_RETURN(IdOrders orders, SortBoth(*id, *answers_id, /*same_ids=*/false));
  if (!SortedIdsEqual(*id, *answers_id, orders)) {
    return InvalidSubmission(absl::StrCat("Submission and answers should have the same ",
                                          std::string(id_column), " values"));
  }

  AurocInputs inputs;
  inputs.y_true.reserve(y_true.size());
  inputs.y_score.reserve(scores.size());
  for (size_t i : orders.answers) inputs.y_true.push_back(y_true[i]);
  for (size_t i : orders.submission) inputs.y_score.push_back(scores[i]);
  return inputs;
}

absl::StatusOr<LogLossInputs> OneHotTablesToLogLossInputs(const Table& submission,
                                                          const Table& answers,
                                                          std::string_view id_column) {
  return OneHotTablesToLogLossInputs(TypedTable::View(submission), TypedTable::View(answers),
                                     id_column);
}

namespace {

// What OneHotTablesToLogLossInputs checks and pairs before any value is
// read: the rows paired by id (orders), the answers' class columns and the
// submission's columns of the same names.
struct PairedOneHotTables {
  const TypedColumn* id = nullptr;          // the submission's
  const TypedColumn* answers_id = nullptr;
  IdOrders orders;
  bool same_ids = false;  // the orders are one order: row i pairs with row i
  std::vector<const TypedColumn*> answer_columns, pred_columns;
};

// The first step: both id columns and every answers column present in the
// submission; the class columns listed (their emptiness is checked after
// the ids, in upstream's order); whether the ids pair row by row.
absl::StatusOr<PairedOneHotTables> FindOneHotColumns(const TypedTable& submission,
                                                     const TypedTable& answers,
                                                     std::string_view id_column) {
  std::vector<std::string> missing;
  for (const TypedColumn& c : answers.columns()) {
    if (submission.Find(c.name()) == nullptr) missing.push_back(absl::StrCat("'", c.name(), "'"));
  }
  if (!missing.empty()) {
    return InvalidSubmission(absl::StrCat(
        "The submission DataFrame is missing some columns required by the `answers` DataFrame. "
        "Missing columns: {",
        absl::StrJoin(missing, ", "), "}."));
  }
  PairedOneHotTables paired;
  paired.id = submission.Find(id_column);
  if (paired.id == nullptr) {
    return InvalidSubmission(
        absl::StrCat("Submission is missing id column '", std::string(id_column), "'."));
  }
  paired.answers_id = answers.Find(id_column);
  if (paired.answers_id == nullptr) {
    return BadAnswers(absl::StrCat("Answers is missing id column '", std::string(id_column), "'."));
  }
  paired.same_ids = SameValuesNoneMissing(*paired.id, *paired.answers_id);
  for (const TypedColumn& c : answers.columns()) {
    if (c.name() == id_column) continue;
    paired.answer_columns.push_back(&c);
    paired.pred_columns.push_back(submission.Find(c.name()));
  }
  return paired;
}

// The second step: both tables' id orders, and the ids equal once sorted.
absl::Status PairOnIds(std::string_view id_column, PairedOneHotTables& paired) {
  const TypedColumn& id = *paired.id;
  const TypedColumn& answers_id = *paired.answers_id;
  ASSIGN_OR_RETURN(IdOrders orders, SortBoth(id, answers_id, paired.same_ids));
  // Python's list ==: the lengths must match too.
  if (!paired.same_ids && !SortedIdsEqual(id, answers_id, orders)) {
    std::string capitalized(id_column);
    if (!capitalized.empty()) capitalized[0] = absl::ascii_toupper(capitalized[0]);
    return InvalidSubmission(absl::StrCat(
        "Mismatch in ", capitalized, "s between `submission` and `answers` after sorting. ",
        "Number of mismatched ", capitalized, "s: ", SymmetricDifferenceSize(id, answers_id),
        ". Ensure both DataFrames have the same ", capitalized, "s."));
  }
  paired.orders = std::move(orders);
  if (paired.answer_columns.empty()) return BadAnswers("no class columns besides the id column");
  return absl::OkStatus();
}

// Rows below which a second thread costs more than it saves.
constexpr size_t kRowsForAThread = size_t{1} << 16;

// A numeric column's values, read in place (int64 and float64 storage) or
// converted (anything else numeric); nullopt when it holds anything else.
class NumericColumn {
 public:
  static std::optional<NumericColumn> Of(const TypedColumn& column) {
    NumericColumn out;
    switch (column.storage()) {
      case TypedColumn::Storage::kFloat64:
        out.doubles_ = column.doubles();
        return out;
      case TypedColumn::Storage::kInt64:
        out.ints_ = column.ints();
        return out;
      default:
        out.converted_.resize(column.size());
        if (CopyNumericValues(column, out.converted_) != out.converted_.size()) {
          return std::nullopt;
        }
        out.doubles_ = out.converted_;
        return out;
    }
  }
  NumericColumn(NumericColumn&&) = default;

  double operator[](size_t row) const {
    return ints_.empty() ? doubles_[row] : static_cast<double>(ints_[row]);
  }
  // Whether every value is 0 or 1 / finite.
  bool AllZeroOrOne() const {
    bool ok = true;
    for (int64_t v : ints_) ok &= (v == 0) | (v == 1);
    for (double v : doubles_) ok &= (v == 0.0) | (v == 1.0);
    return ok;
  }
  bool AllFinite() const {
    bool ok = true;
    for (double v : doubles_) ok &= std::isfinite(v);
    return ok;  // ints are
  }

 private:
  NumericColumn() = default;
  std::span<const int64_t> ints_;
  std::span<const double> doubles_;
  std::vector<double> converted_;
};

// Each row's log loss, computed as LogLoss computes it, for the usual case:
// every value a number, every answer 0 or 1 (LogLoss then takes y_true as an
// indicator matrix), every probability finite, at least one row and two
// classes; nullopt for anything else. Row r pairs answers row
// `answer_row(r)` with submission row `submission_row(r)`; long inputs are
// split over `threads` threads.
template <typename AnswerRow, typename SubmissionRow>
std::optional<std::vector<double>> OneHotRowLosses(const PairedOneHotTables& paired, size_t rows,
                                                   AnswerRow answer_row,
                                                   SubmissionRow submission_row, size_t threads) {
  const size_t cols = paired.answer_columns.size();
  if (rows == 0 || cols < 2) return std::nullopt;
  std::vector<NumericColumn> truths, preds;
  truths.reserve(cols);
  preds.reserve(cols);
  for (size_t c = 0; c < cols; ++c) {
    std::optional<NumericColumn> t = NumericColumn::Of(*paired.answer_columns[c]);
    std::optional<NumericColumn> p = NumericColumn::Of(*paired.pred_columns[c]);
    if (!t.has_value() || !p.has_value() || !t->AllZeroOrOne() || !p->AllFinite()) {
      return std::nullopt;
    }
    truths.push_back(*std::move(t));
    preds.push_back(*std::move(p));
  }
  std::vector<double> losses(rows);
  const size_t parts = rows >= kRowsForAThread ? threads : 1;
  RunInParallel(parts, [&](size_t part) {
    std::vector<double> terms(cols);
    const size_t begin = rows * part / parts, end = rows * (part + 1) / parts;
    for (size_t r = begin; r < end; ++r) {
      const size_t a = answer_row(r), s = submission_row(r);
      if (cols < 8) {
        // NumpySum of fewer than 8 values, inline: 0.0 plus their sum from
        // 0.0, left to right (numpy's pairwise_sum below 8 elements).
        double sum = 0.0;
        for (size_t c = 0; c < cols; ++c) sum += LogLossTerm(truths[c][a], preds[c][s]);
        losses[r] = -(0.0 + sum);
        continue;
      }
      for (size_t c = 0; c < cols; ++c) terms[c] = LogLossTerm(truths[c][a], preds[c][s]);
      losses[r] = -NumpySum(terms);
    }
  });
  return losses;
}

// np.mean of the losses taken in `order` (block by block, NumpySum's
// blocks), as LogLoss sums rows in id order.
double MeanInOrder(const std::vector<double>& losses, const std::vector<size_t>& order) {
  return NumpySumInOrder(losses, order) / static_cast<double>(order.size());
}

// The row-major matrices of paired tables, with the answers' 0/1 and the
// probabilities' conversion checked row by row in id order.
absl::StatusOr<LogLossInputs> GatherLogLossInputs(const PairedOneHotTables& paired) {
  const IdOrders* orders = &paired.orders;
  const std::vector<const TypedColumn*>& answer_columns = paired.answer_columns;
  const std::vector<const TypedColumn*>& pred_columns = paired.pred_columns;
  LogLossInputs inputs;
  inputs.rows = orders->answers.size();
  inputs.cols = answer_columns.size();
  inputs.y_true.resize(inputs.rows * inputs.cols);
  inputs.y_pred.resize(inputs.rows * inputs.cols);
  // The usual case, every value a number: the columns' values in bulk, then
  // the same row-major checks as below without a Cell in sight.
  {
    std::vector<NumericColumn> truths, preds;
    truths.reserve(inputs.cols);
    preds.reserve(inputs.cols);
    bool numeric = true;
    for (size_t c = 0; c < inputs.cols && numeric; ++c) {
      std::optional<NumericColumn> t = NumericColumn::Of(*answer_columns[c]);
      std::optional<NumericColumn> p =
          t.has_value() ? NumericColumn::Of(*pred_columns[c]) : std::nullopt;
      numeric = p.has_value();
      if (numeric) {
        truths.push_back(*std::move(t));
        preds.push_back(*std::move(p));
      }
    }
    if (numeric) {
      for (size_t r = 0; r < inputs.rows; ++r) {
        const size_t answer_row = orders->answers[r], submission_row = orders->submission[r];
        for (size_t c = 0; c < inputs.cols; ++c) {
          const double t = truths[c][answer_row];
          if (!(t == 0.0 || t == 1.0)) {
            return BadAnswers(absl::StrCat("column '", answer_columns[c]->name(), "' holds ",
                                           RowRepr(*answer_columns[c], answer_row),
                                           " where a one-hot 0 or 1 is expected"));
          }
          inputs.y_true[r * inputs.cols + c] = t;
          inputs.y_pred[r * inputs.cols + c] = preds[c][submission_row];
        }
      }
      return inputs;
    }
  }
  for (size_t r = 0; r < inputs.rows; ++r) {
    const size_t answer_row = orders->answers[r], submission_row = orders->submission[r];
    for (size_t c = 0; c < inputs.cols; ++c) {
      const TypedColumn& answer_column = *answer_columns[c];
      std::optional<double> t = NumericValueAt(answer_column, answer_row);
      if (!t.has_value() || !(*t == 0.0 || *t == 1.0)) {
        return BadAnswers(absl::StrCat("column '", answer_column.name(), "' holds ",
                                       RowRepr(answer_column, answer_row),
                                       " where a one-hot 0 or 1 is expected"));
      }
      inputs.y_true[r * inputs.cols + c] = *t;
      const TypedColumn& pred_column = *pred_columns[c];
      std::optional<double> p = ToFloat64(pred_column, submission_row);
      if (!p.has_value()) {
        return InvalidSubmission(absl::StrCat("could not convert string to float: ",
                                              RowRepr(pred_column, submission_row), " (column '",
                                              pred_column.name(), "')"));
      }
      inputs.y_pred[r * inputs.cols + c] = *p;
    }
  }
  return inputs;
}

}  // namespace

absl::StatusOr<LogLossInputs> OneHotTablesToLogLossInputs(const TypedTable& submission,
                                                          const TypedTable& answers,
                                                          std::string_view id_column) {
  ASSIGN_OR_RETURN(PairedOneHotTables paired, FindOneHotColumns(submission, answers, id_column));
  RETURN_IF_ERROR(PairOnIds(id_column, paired));
  return GatherLogLossInputs(paired);
}

absl::StatusOr<double> OneHotLogLossAlignedOnIds(const TypedTable& submission,
                                                 const TypedTable& answers,
                                                 std::string_view id_column) {
  ASSIGN_OR_RETURN(PairedOneHotTables paired, FindOneHotColumns(submission, answers, id_column));
  // Rows that pair with themselves: their losses, in file order, are
  // computed on one thread while the ids are sorted on another (only the
  // summation needs the id order).
  std::optional<std::vector<double>> losses;
  absl::Status paired_on_ids;
  if (paired.same_ids) {
    const size_t rows = paired.id->size();
    const auto self = [](size_t r) { return r; };
    const bool overlap = rows >= kRowsForAThread;
    RunInParallel(overlap ? 2 : 1, [&](size_t k) {
      if (k == 0) {
        paired_on_ids = PairOnIds(id_column, paired);
      } else {
        losses = OneHotRowLosses(paired, rows, self, self, /*threads=*/1);
      }
    });
    if (!paired_on_ids.ok()) return paired_on_ids;
    if (!overlap) losses = OneHotRowLosses(paired, rows, self, self, /*threads=*/1);
    if (losses.has_value()) return MeanInOrder(*losses, paired.orders.answers);
  } else {
    RETURN_IF_ERROR(PairOnIds(id_column, paired));
    const IdOrders& orders = paired.orders;
    losses = OneHotRowLosses(
        paired, orders.answers.size(), [&](size_t r) { return orders.answers[r]; },
        [&](size_t r) { return orders.submission[r]; }, /*threads=*/2);
    if (losses.has_value()) return NumpyMean(*losses);
  }
  ASSIGN_OR_RETURN(LogLossInputs inputs, GatherLogLossInputs(paired));
  absl::StatusOr<double> score = LogLoss(inputs.true_view(), inputs.pred_view());
  if (!score.ok()) {
    return InvalidSubmission(
        absl::StrCat("log_loss rejects the submission: ", score.status().message()));
  }
  return score;
}

absl::StatusOr<double> OneHotLogLossAlignedOnIds(const Table& submission, const Table& answers,
                                                 std::string_view id_column) {
  return OneHotLogLossAlignedOnIds(TypedTable::View(submission), TypedTable::View(answers),
                                   id_column);
}

}  // namespace mlebench
