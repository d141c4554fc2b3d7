// Upstream's vesuvius-challenge-ink-detection/grade.py: per row (paired with
// the answers by position), sklearn's fbeta_score(beta=0.5) between the
// submitted and true ink masks, run-length encoded along the rows; the score
// is the mean over rows. F0.5 only needs pixel counts, so masks stay as runs.

#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/grader.h"
#include "grading/metrics/classification/f1_score.h"
#include "grading/metrics/vision/run_length_encoding.h"
#include "pycompat/numpy_sum.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

// Python's int() of an answers' width or height cell.
absl::StatusOr<int64_t> Size(const Cell& cell, std::string_view name) {
  if (const int64_t* value = std::get_if<int64_t>(&cell); value != nullptr && *value >= 0) {
    return *value;
  }
  if (const double* value = std::get_if<double>(&cell);
      value != nullptr && std::isfinite(*value) && *value >= 0 && *value < 9e18) {
    return static_cast<int64_t>(*value);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("answers' ", std::string(name), " must be a non-negative integer"));
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Expected ", answers.num_rows(),
                                          " rows in the submission, got ", submission.num_rows()));
  }
  const std::vector<std::string> answer_names = answers.ColumnNames();
  if (std::set<std::string>(answer_names.begin(), answer_names.end()) !=
      std::set<std::string>{"Id", "Predicted", "width", "height"}) {
    return absl::InvalidArgumentError(
        absl::StrCat("answers must have the columns Id, Predicted, width, height; got ",
                     absl::StrJoin(answer_names, ", ")));
  }
  // Upstream checks these per row, so only when there is a row.
  if (submission.num_rows() > 0) {
    if (submission.num_columns() != 2) {
      return InvalidSubmission(
          absl::StrCat("Expected 2 columns (Id, Predicted), got ", submission.num_columns()));
    }
    if (submission.Find("Id") == nullptr || submission.Find("Predicted") == nullptr) {
      return InvalidSubmission(absl::StrCat("Expected the columns Id and Predicted, got ",
                                            absl::StrJoin(submission.ColumnNames(), ", ")));
    }
  }
  FScoreOptions options;
  options.beta = 0.5;
  std::vector<double> scores;
  for (size_t row = 0; row < answers.num_rows(); ++row) {
    const Cell& id = submission.Find("Id")->cells[row];
    const Cell& expected_id = answers.Find("Id")->cells[row];
    if (!CellsEqual(id, expected_id)) {
      return InvalidSubmission(absl::StrCat("row ", row, ": expected Id ", PythonStr(expected_id),
                                            ", got ", PythonStr(id)));
    }
    const std::string* rle = std::get_if<std::string>(&submission.Find("Predicted")->cells[row]);
    if (rle == nullptr) {
      return InvalidSubmission(
          absl::StrCat("row ", row, ": expected 'Predicted' to be a string, got a ",
                       std::string(PythonTypeName(submission.Find("Predicted")->cells[row]))));
    }
    const std::string* answer_rle =
        std::get_if<std::string>(&answers.Find("Predicted")->cells[row]);
    if (answer_rle == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("answers row ", row, ": Predicted is not text"));
    }
    ASSIGN_OR_RETURN(int64_t width, Size(answers.Find("width")->cells[row], "width"));
    ASSIGN_OR_RETURN(int64_t height, Size(answers.Find("height")->cells[row], "height"));
    if (height != 0 && width > INT64_MAX / height) {
      return absl::InvalidArgumentError("answers' image size overflows");
    }
    const int64_t pixel_count = width * height;
    absl::StatusOr<PixelRuns> predicted = DecodeRle(*rle, pixel_count);
    if (!predicted.ok()) {
      return InvalidSubmission(
          absl::StrCat("Error decoding RLE masks: ", predicted.status().message()));
    }
    absl::StatusOr<PixelRuns> truth = DecodeRle(*answer_rle, pixel_count);
    if (!truth.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("answers' mask does not decode: ", truth.status().message()));
    }
    const LabelCounts ink{.true_positives = CountOverlap(*predicted, *truth),
                          .predicted = CountSetPixels(*predicted),
                          .actual = CountSetPixels(*truth)};
    ASSIGN_OR_RETURN(PrecisionRecallFScore score,
                     (PrecisionRecallFScoreFromCounts({ink}, options)));
    scores.push_back(score.f_score);
  }
  return NumpyMean(scores);
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
