// Upstream's hubmap-kidney-segmentation/grade.py: the mean over test images
// of the Dice coefficient between the predicted and true glomerulus masks,
// both run-length encoded (an image where both are empty scores 1). Masks are
// never materialised: the real images have up to ~1.6e9 pixels.

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/grader.h"
#include "grading/metrics/vision/dice.h"
#include "grading/metrics/vision/run_length_encoding.h"
#include "pycompat/numpy_sum.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

// The rows of `table` in `sort_values("id")` order.
absl::StatusOr<std::vector<size_t>> IdOrder(const Table& table) {
  return SortValuesOrder(*table.Find("id"));
}

// rle_decode's `isinstance(rle_string, str)` and decoding.
absl::StatusOr<PixelRuns> DecodeCell(const Cell& cell, int64_t pixel_count) {
  const std::string* rle = std::get_if<std::string>(&cell);
  if (rle == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("expected an RLE string, got the ",
                                                   std::string(PythonTypeName(cell)), " ",
                                                   PythonStr(cell)));
  }
  return DecodeRle(*rle, pixel_count);
}

// An answers column of Python ints (rle_decode asserts int sizes).
absl::StatusOr<std::vector<int64_t>> Sizes(const Table& answers, std::string_view name) {
  const Column* column = answers.Find(name);
  std::vector<int64_t> sizes;
  for (const Cell& cell : column->cells) {
    const int64_t* size = std::get_if<int64_t>(&cell);
    if (size == nullptr || *size < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("answers' ", std::string(name), " must hold non-negative integers"));
    }
    sizes.push_back(*size);
  }
  return sizes;
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  if (submission.Find("id") == nullptr) {
    return InvalidSubmission("Submission is missing the 'id' column");
  }
  if (submission.Find("predicted") == nullptr) {
    return InvalidSubmission("Submission is missing the 'predicted' column");
  }
  for (const char* name : {"id", "encoding", "width_pixels", "height_pixels"}) {
    if (answers.Find(name) == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("answers are missing the '", name, "' column"));
    }
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission has ", submission.num_rows(),
                                          " rows while answers has ", answers.num_rows(), " rows"));
  }
  if (SymmetricDifferenceSize(*submission.Find("id"), *answers.Find("id")) != 0) {
    return InvalidSubmission("Submission and answers have different id values");
  }
  absl::StatusOr<std::vector<size_t>> submission_order = IdOrder(submission);
  if (!submission_order.ok())
    return InvalidSubmission(std::string(submission_order.status().message()));
  ASSIGN_OR_RETURN(std::vector<size_t> answers_order, IdOrder(answers));
  ASSIGN_OR_RETURN(std::vector<int64_t> heights, Sizes(answers, "height_pixels"));
  ASSIGN_OR_RETURN(std::vector<int64_t> widths, Sizes(answers, "width_pixels"));

  const Column& predicted = *submission.Find("predicted");
  const Column& encoding = *answers.Find("encoding");
  const size_t n = answers.num_rows();
  std::vector<int64_t> pixel_counts(n);
  std::vector<PixelRuns> predicted_masks;
  predicted_masks.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const size_t row = (answers_order)[i];
    if ((heights)[row] != 0 && (widths)[row] > INT64_MAX / (heights)[row]) {
      return absl::InvalidArgumentError("answers' image sizes overflow");
    }
    pixel_counts[i] = (heights)[row] * (widths)[row];
    Cell cell = predicted.cells[(*submission_order)[i]];
    if (IsMissing(cell)) cell = std::string();  // fillna("")
    absl::StatusOr<PixelRuns> mask = DecodeCell(cell, pixel_counts[i]);
    if (!mask.ok()) {
      return InvalidSubmission(absl::StrCat(
          "'predicted' of id ", PythonStr(submission.Find("id")->cells[(*submission_order)[i]]),
          " does not decode: ", mask.status().message()));
    }
    predicted_masks.push_back(*std::move(mask));
  }
  std::vector<double> scores;
  scores.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    absl::StatusOr<PixelRuns> truth =
        DecodeCell(encoding.cells[(answers_order)[i]], pixel_counts[i]);
    if (!truth.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("answers' encoding does not decode: ", truth.status().message()));
    }
    ASSIGN_OR_RETURN(double dice,
                     DiceCoefficient(predicted_masks[i], *truth, /*both_empty_value=*/1.0));
    scores.push_back(dice);
  }
  return NumpyMean(scores);
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
