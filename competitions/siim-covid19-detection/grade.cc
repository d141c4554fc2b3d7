// Upstream's siim-covid19-detection/grade.py: both tables sorted by `id`
// (pandas' default, unstable sort) and paired by position, each
// `PredictionString` parsed into "label confidence xmin ymin xmax ymax"
// boxes, then calculate_map (GreedyBoxMeanAveragePrecision at IoU > 0.5)
// over the labels of the answers. Study rows carry one box "label 1 0 0 1 1",
// so for them only the label matters.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/typed_table.h"
#include "base/utf8.h"
#include "grading/grader.h"
#include "grading/metrics/sorted_id_pairing.h"
#include "grading/metrics/vision/box_average_precision.h"
#include "pycompat/object_float_cast.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

constexpr char kIdColumn[] = "id";
constexpr char kPredictionColumn[] = "PredictionString";
constexpr int kTokensPerBox = 6;

// parse_prediction_string: `text.strip().split()` in groups of six. Upstream
// raises (so the grade fails) where a cell is not text (AttributeError on a
// missing or numeric cell), a number does not parse with float()
// (ValueError), or the token count is not a multiple of six (IndexError).
// `tokens` and `token_views` are scratch reused from row to row; the boxes
// are read from `token_views`, which view the cell or `tokens`.
absl::StatusOr<std::vector<LabeledBox>> ParsePredictionString(
    const TypedColumn& column, size_t row, std::vector<std::string>& tokens,
    std::vector<std::string_view>& token_views) {
  if (column.storage() != TypedColumn::Storage::kText ||
      TypedColumn::IsMissingText(column.text()[row])) {
    return absl::InvalidArgumentError(
        absl::StrCat("is a ", std::string(PythonTypeName(column.CellAt(row))), ", not text"));
  }
  const std::string_view text = column.text()[row];
  // ASCII text (every real one) splits byte-wise, viewing the cell; other
  // text is decoded for Python's Unicode whitespace. Decoding and copying
  // each token was a third of a million-row grade.
  if (IsAscii(text)) {
    PythonSplitAscii(text, token_views);
  } else {
    const std::optional<std::u32string> decoded = DecodeUtf8(text);
    if (!decoded.has_value()) return absl::InvalidArgumentError("is not UTF-8 text");
    tokens.clear();
    for (const std::u32string& token : PythonSplit(*decoded)) tokens.push_back(EncodeUtf8(token));
    token_views.assign(tokens.begin(), tokens.end());
  }
  if (token_views.size() % kTokensPerBox != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("has ", token_views.size(), " tokens, not a multiple of ", kTokensPerBox,
                     " (label confidence xmin ymin xmax ymax per box)"));
  }
  std::vector<LabeledBox> boxes;
  boxes.reserve(token_views.size() / kTokensPerBox);
  for (size_t i = 0; i < token_views.size(); i += kTokensPerBox) {
    double values[kTokensPerBox - 1];
    for (int k = 0; k < kTokensPerBox - 1; ++k) {
      const std::optional<double> value = PythonFloatFromString(token_views[i + 1 + k]);
      if (!value.has_value()) {
        return absl::InvalidArgumentError(
            absl::StrCat("could not convert string to float: '", std::string(token_views[i + 1 + k]),
                         "'"));
      }
      values[k] = *value;
    }
    boxes.push_back(LabeledBox{.label = std::string(token_views[i]),
                               .confidence = values[0],
                               .box = CornerBox{values[1], values[2], values[3], values[4]}});
  }
  return boxes;
}

// The first of `rows` (upstream's parsing order) whose PredictionString in
// `column` does not parse, with its error.
std::pair<size_t, absl::Status> FirstUnparsable(const TypedColumn& column,
                                                const std::vector<size_t>& rows) {
  std::vector<std::string> tokens;
  std::vector<std::string_view> token_views;
  for (const size_t row : rows) {
    absl::Status status = ParsePredictionString(column, row, tokens, token_views).status();
    if (!status.ok()) return {row, std::move(status)};
  }
  return {rows.size(), absl::OkStatus()};
}

// The boxes of `column`'s rows row_at(0), ..., row_at(count - 1), or false
// if one does not parse.
template <typename RowAt>
bool ParseRows(const TypedColumn& column, size_t count, RowAt row_at,
               std::vector<std::vector<LabeledBox>>& boxes) {
  std::vector<std::string> tokens;
  std::vector<std::string_view> token_views;
  boxes.clear();
  boxes.reserve(count);
  for (size_t k = 0; k < count; ++k) {
    absl::StatusOr<std::vector<LabeledBox>> parsed =
        ParsePredictionString(column, row_at(k), tokens, token_views);
    if (!parsed.ok()) return false;
    boxes.push_back(*std::move(parsed));
  }
  return true;
}

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission and answers must have the same length (",
                                          submission.num_rows(), " rows, expected ",
                                          answers.num_rows(), ")"));
  }
  if (submission.Find(kIdColumn) == nullptr) {
    return InvalidSubmission("Submission must have an 'id' column");
  }
  if (submission.Find(kPredictionColumn) == nullptr) {
    return InvalidSubmission("Submission must have a 'PredictionString' column");
  }
  // PairRowsById's checks, but the rows are read where they lie (in the
  // file, as typed text): copying four million-row text columns into sorted
  // order was an eighth of the grade, and a heap string per cell a fifth.
  RETURN_IF_ERROR(RequireAnswerColumns(answers, {kIdColumn, kPredictionColumn}));
  const TypedColumn& submission_ids = *submission.Find(kIdColumn);
  const TypedColumn& answer_ids = *answers.Find(kIdColumn);
  ASSIGN_OR_RETURN(SortedIdOrders orders, SortBothById(submission_ids, answer_ids));
  RETURN_IF_ERROR(CheckSortedIdsEqual(submission_ids, answer_ids, orders,
                                      "Submission and answers must have the same ids"));
  const TypedColumn& predictions = *submission.Find(kPredictionColumn);
  const TypedColumn& truths = *answers.Find(kPredictionColumn);

  // Upstream pairs the sorted rows, sorted row k being submission row
  // orders.submission[k] and answers row orders.answers[k]. The mAP does not
  // depend on the order of the pairs, so they are taken in the submission's
  // file order (the answers' too when the ids are listed alike): read in
  // sorted-id order, each row was a cache and TLB miss in ~170 MB of text,
  // a third of a million-row grade.
  const size_t count = orders.submission.size();
  std::vector<size_t> answer_rows(orders.answers.size());
  for (size_t k = 0; k < count; ++k) {
    answer_rows[orders.submission[k]] = orders.answers[k];
  }
  std::vector<std::vector<LabeledBox>> predicted_boxes, true_boxes;
  // Of several unparsable rows, upstream names the first in sorted order.
  if (!ParseRows(predictions, count, [](size_t k) { return k; }, predicted_boxes)) {
    const auto [row, error] = FirstUnparsable(predictions, orders.submission);
    return InvalidSubmission(absl::StrCat("Could not parse the PredictionString of id '",
                                          PythonStr(submission_ids.CellAt(row)), "': it ",
                                          std::string(error.message())));
  }
  if (!ParseRows(truths, count, [&](size_t k) { return answer_rows[k]; }, true_boxes)) {
    const auto [row, error] = FirstUnparsable(truths, orders.answers);
    return MalformedAnswers(absl::StrCat("the PredictionString of id '",
                                         PythonStr(answer_ids.CellAt(row)), "' ",
                                         std::string(error.message())));
  }
  if (predicted_boxes.empty()) return 0.0;

  // What calculate_map raises (a non-finite confidence for sklearn, the
  // all-positive assert) fails upstream's grade: the submission's doing.
  absl::StatusOr<double> score =
      GreedyBoxMeanAveragePrecision(predicted_boxes, true_boxes, /*iou_threshold=*/0.5);
  if (!score.ok()) {
    return InvalidSubmission(absl::StrCat("mean average precision cannot be computed: ",
                                          std::string(score.status().message())));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
});

}  // namespace mlebench
