// Upstream's tgs-salt-identification-challenge/grade.py: the mean over
// images of iou_metric (the precision at IoU thresholds 0.5..0.95) between the
// true and predicted masks, run-length encoded over 101 x 101 images.

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/grader.h"
#include "grading/metrics/vision/iou_threshold_precision.h"
#include "grading/metrics/vision/run_length_encoding.h"
#include "pycompat/numpy_sum.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

// upstream's IMG_HEIGHT * IMG_WIDTH.
constexpr int64_t kPixelCount = 101 * 101;

bool HasColumnSet(const Table& table) {
  std::vector<std::string> names = table.ColumnNames();
  std::sort(names.begin(), names.end());
  return names == std::vector<std::string>{"id", "rle_mask"};
}

// After `fillna("")`, every cell of the table is a str: every cell is text
// or missing.
bool AllText(const Table& table) {
  for (const Column& column : table.columns()) {
    for (const Cell& cell : column.cells) {
      if (!std::holds_alternative<std::string>(cell) && !IsMissing(cell)) return false;
    }
  }
  return true;
}

std::string TextOrEmpty(const Cell& cell) {
  const std::string* text = std::get_if<std::string>(&cell);
  return text == nullptr ? std::string() : *text;
}

// `id` of the rows sorted as `sort_values(by="id")` does, with their
// `rle_mask` (missing filled with "").
absl::StatusOr<std::vector<std::pair<std::string, std::string>>> SortedRows(const Table& table) {
  const Column* ids = table.Find("id");
  const Column* masks = table.Find("rle_mask");
  // Missing ids became "" through fillna; sort them as such.
  Column filled_ids = *ids;
  for (Cell& cell : filled_ids.cells) cell = TextOrEmpty(cell);
  filled_ids.dtype = Dtype::kObject;
  ASSIGN_OR_RETURN(std::vector<size_t> order, SortValuesOrder(filled_ids));
  std::vector<std::pair<std::string, std::string>> rows;
  rows.reserve(order.size());
  for (size_t row : order) {
    rows.emplace_back(TextOrEmpty(filled_ids.cells[row]), TextOrEmpty(masks->cells[row]));
  }
  return rows;
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  if (!HasColumnSet(answers)) {
    return absl::InvalidArgumentError(
        absl::StrCat("answers must have the columns id and rle_mask, got ",
                     absl::StrJoin(answers.ColumnNames(), ", ")));
  }
  if (!HasColumnSet(submission)) {
    return InvalidSubmission(
        absl::StrCat("expected the columns id and rle_mask (and no others), got ",
                     absl::StrJoin(submission.ColumnNames(), ", ")));
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(
        absl::StrCat("expected ", answers.num_rows(), " rows, got ", submission.num_rows()));
  }
  if (!AllText(answers)) {
    return absl::InvalidArgumentError("answers hold a value that is not a string");
  }
  if (!AllText(submission)) {
    return InvalidSubmission(
        "every id and rle_mask must be text (a column of numbers reads as numbers)");
  }
  absl::StatusOr<std::vector<std::pair<std::string, std::string>>> predicted =
      SortedRows(submission);
  if (!predicted.ok()) return predicted.status();
  absl::StatusOr<std::vector<std::pair<std::string, std::string>>> expected = SortedRows(answers);
  if (!expected.ok()) return expected.status();
  for (size_t i = 0; i < expected->size(); ++i) {
    if ((*predicted)[i].first != (*expected)[i].first) {
      return InvalidSubmission(
          "the submission's ids differ from the test set's (missing, extra or duplicate ids)");
    }
  }

  std::vector<PixelRuns> predicted_masks;
  predicted_masks.reserve(predicted->size());
  for (const auto& [id, rle] : *predicted) {
    absl::StatusOr<PixelRuns> mask = DecodeRle(rle, kPixelCount);
    if (!mask.ok()) {
      return InvalidSubmission(
          absl::StrCat("rle_mask of id ", id, " does not decode: ", mask.status().message()));
    }
    predicted_masks.push_back(*std::move(mask));
  }
  std::vector<double> scores;
  scores.reserve(expected->size());
  for (size_t i = 0; i < expected->size(); ++i) {
    absl::StatusOr<PixelRuns> truth = DecodeRle((*expected)[i].second, kPixelCount);
    if (!truth.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("answers' rle_mask of id ", (*expected)[i].first,
                       " does not decode: ", truth.status().message()));
    }
    ASSIGN_OR_RETURN(double score, IouThresholdPrecision(*truth, predicted_masks[i]));
    scores.push_back(score);
  }
  return NumpyMean(scores);
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
