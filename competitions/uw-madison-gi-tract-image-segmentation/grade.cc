// Upstream's uw-madison-gi-tract-image-segmentation/grade.py:
// 0.4 * mean 2-D Dice over rows + 0.6 * (1 - mean normalised 3-D Hausdorff
// distance over case-days), both skipping pairs of empty masks. The metric
// itself is grading/metrics/vision/dice_hausdorff.h; this file adds upstream's
// column checks and the Python type errors its decoding raises.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/grader.h"
#include "grading/metrics/vision/dice_hausdorff.h"

namespace mlebench {
namespace {

// `column.fillna("")` read back as Python values: text stays text, a missing
// cell becomes ""; anything else (a number, a bool) is not a str, which
// rle_decode's and group_masks_by_day's str operations reject. Only the first
// `count` rows are looked at (upstream zips them with shorter lists).
absl::StatusOr<std::vector<std::string>> TextCells(const Column& column, size_t count,
                                                   bool missing_is_empty) {
  std::vector<std::string> out;
  out.reserve(count);
  for (size_t row = 0; row < count; ++row) {
    const Cell& cell = column.cells[row];
    if (const std::string* text = std::get_if<std::string>(&cell)) {
      out.push_back(*text);
    } else if (missing_is_empty && IsMissing(cell)) {
      out.emplace_back();
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("row ", row + 1, " of column '", column.name, "' is not text"));
    }
  }
  return out;
}

// `answers[name].astype(int)`: whole numbers, truncated from floats.
absl::StatusOr<std::vector<int64_t>> IntegerCells(const Column& column) {
  std::vector<int64_t> out;
  out.reserve(column.cells.size());
  for (const Cell& cell : column.cells) {
    if (const int64_t* value = std::get_if<int64_t>(&cell)) {
      out.push_back(*value);
    } else if (const double* value = std::get_if<double>(&cell);
               value != nullptr && std::isfinite(*value) && std::fabs(*value) < 9.2e18) {
      out.push_back(static_cast<int64_t>(*value));
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("answers' ", column.name, " holds a value that is not a finite number"));
    }
  }
  return out;
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  const Column* heights = answers.Find("image_height");
  const Column* widths = answers.Find("image_width");
  const Column* answer_id_column = answers.Find("id");
  const Column* answer_rle_column = answers.Find("predicted");
  if (heights == nullptr || widths == nullptr || answer_id_column == nullptr ||
      answer_rle_column == nullptr) {
    return absl::InvalidArgumentError(
        "answers must have the columns id, predicted, image_height and image_width");
  }
  const Column* ids = submission.Find("id");
  const Column* rles = submission.Find("predicted");
  if (ids == nullptr || rles == nullptr || submission.Find("class") == nullptr) {
    return InvalidSubmission("the submission must have the columns id, class and predicted");
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> answer_heights, IntegerCells(*heights));
  ASSIGN_OR_RETURN(std::vector<int64_t> answer_widths, IntegerCells(*widths));

  // Only the submission rows that zip() pairs with answer rows are decoded
  // and grouped; the rest are never looked at.
  const size_t paired = std::min(submission.num_rows(), answers.num_rows());
  absl::StatusOr<std::vector<std::string>> submission_rles =
      TextCells(*rles, paired, /*missing_is_empty=*/true);
  if (!submission_rles.ok()) {
    return InvalidSubmission(absl::StrCat("predicted must be run-length encoded text: ",
                                          submission_rles.status().message()));
  }
  ASSIGN_OR_RETURN(std::vector<std::string> answer_rles,
                   TextCells(*answer_rle_column, answers.num_rows(), /*missing_is_empty=*/true));
  ASSIGN_OR_RETURN(std::vector<std::string> answer_ids,
                   TextCells(*answer_id_column, answers.num_rows(), /*missing_is_empty=*/false));
  absl::StatusOr<std::vector<std::string>> submission_ids =
      TextCells(*ids, paired, /*missing_is_empty=*/false);
  if (!submission_ids.ok()) {
    return InvalidSubmission(
        absl::StrCat("every id must be text: ", submission_ids.status().message()));
  }

  absl::StatusOr<double> score = DiceHausdorffScore(*submission_ids, *submission_rles, answer_ids,
                                                    answer_rles, answer_heights, answer_widths);
  if (!score.ok() && absl::StartsWith(score.status().message(), "submission")) {
    return InvalidSubmission(std::string(score.status().message()));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
    // Rows are paired by position, as many as the shorter side has: no row
    // count or id is required.
    .sample_rows = SampleRows::kAnyRows,
});

}  // namespace mlebench
