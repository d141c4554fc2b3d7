// Upstream's google-research-identify-contrails-reduce-global-warming/grade.py:
// the global Dice coefficient between all predicted and all true contrail
// pixels of the test images, both run-length encoded ("-" is an empty mask).
// Masks stay as runs (GlobalDiceCoefficient); upstream stacks dense masks.
//
// Upstream quirks kept: a submission cell that pandas reads as missing (an
// empty field) is not a string, so rle_decode rejects it: empty masks must be
// written "-" (or whitespace). When no image has a contrail pixel in either
// the submission or the answers, the score is NaN (dice_coefficient's
// default). Upstream's try/except around decoding wraps the answers' masks
// (its variable names are swapped), which can only fail for malformed
// answers: an internal error here.

#include <cstdint>
#include <limits>
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
#include "pycompat/pandas_ops.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

constexpr const char* kAnswerColumns[] = {"record_id", "encoded_pixels", "height", "width"};

// `.replace("-", "")` then rle_decode (its isinstance(str) assertion first).
absl::StatusOr<PixelRuns> DecodeCell(const Cell& cell, int64_t pixel_count) {
  const std::string* rle = std::get_if<std::string>(&cell);
  if (rle == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("expected an RLE string, got the ",
                                                   std::string(PythonTypeName(cell)), " ",
                                                   PythonStr(cell)));
  }
  return DecodeRle(*rle == "-" ? std::string_view() : std::string_view(*rle), pixel_count);
}

absl::StatusOr<int64_t> Size(const Cell& cell, std::string_view name) {
  const int64_t* size = std::get_if<int64_t>(&cell);
  if (size == nullptr || *size < 0 || *size > (int64_t{1} << 31)) {
    return absl::InvalidArgumentError(
        absl::StrCat("answers' ", std::string(name), " must hold non-negative integers"));
  }
  return *size;
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  if (answers.num_columns() != 4) {
    return absl::InvalidArgumentError("answers must have exactly the columns record_id, "
                                      "encoded_pixels, height, width");
  }
  for (const char* name : kAnswerColumns) {
    if (answers.Find(name) == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("answers are missing the '", name, "' column"));
    }
  }
  for (const char* name : {"record_id", "encoded_pixels"}) {
    if (submission.Find(name) == nullptr) {
      return InvalidSubmission(absl::StrCat("Submission is missing the '", name, "' column"));
    }
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Expected submission to have ", answers.num_rows(),
                                          " rows, but got ", submission.num_rows()));
  }
  absl::StatusOr<std::vector<size_t>> submission_order =
      SortValuesOrder(*submission.Find("record_id"));
  if (!submission_order.ok()) {
    return InvalidSubmission(absl::StrCat("cannot sort the submission's record_id: ",
                                          submission_order.status().message()));
  }
  ASSIGN_OR_RETURN(std::vector<size_t> answers_order, SortValuesOrder(*answers.Find("record_id")));
  const Column& submission_ids = *submission.Find("record_id");
  const Column& answer_ids = *answers.Find("record_id");
  const size_t n = answers.num_rows();
  for (size_t i = 0; i < n; ++i) {
    if (!CellsEqual(submission_ids.cells[(*submission_order)[i]],
                    answer_ids.cells[(answers_order)[i]])) {
      return InvalidSubmission(
          "Expected submission to have the same record_id's as answers, but got a different set "
          "of record_id's");
    }
  }

  std::vector<PixelRuns> truth;
  truth.reserve(n);
  int64_t first_height = -1, first_width = -1;
  for (size_t i = 0; i < n; ++i) {
    const size_t row = (answers_order)[i];
    ASSIGN_OR_RETURN(int64_t height, Size(answers.Find("height")->cells[row], "height"));
    ASSIGN_OR_RETURN(int64_t width, Size(answers.Find("width")->cells[row], "width"));
    // np.array of the masks must be a regular 3-D array.
    if (i == 0) {
      first_height = height;
      first_width = width;
    } else if (height != first_height || width != first_width) {
      return absl::InvalidArgumentError("answers' images have different sizes");
    }
    absl::StatusOr<PixelRuns> mask =
        DecodeCell(answers.Find("encoded_pixels")->cells[row], height * width);
    if (!mask.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("answers' encoded_pixels does not decode: ", mask.status().message()));
    }
    truth.push_back(*std::move(mask));
  }
  std::vector<PixelRuns> predicted;
  predicted.reserve(n);
  const Column& encoded = *submission.Find("encoded_pixels");
  for (size_t i = 0; i < n; ++i) {
    absl::StatusOr<PixelRuns> mask =
        DecodeCell(encoded.cells[(*submission_order)[i]], truth[i].pixel_count);
    if (!mask.ok()) {
      return InvalidSubmission(absl::StrCat(
          "encoded_pixels of record_id ", PythonStr(submission_ids.cells[(*submission_order)[i]]),
          " does not decode: ", mask.status().message()));
    }
    predicted.push_back(*std::move(mask));
  }
  return GlobalDiceCoefficient(predicted, truth, std::numeric_limits<double>::quiet_NaN());
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
