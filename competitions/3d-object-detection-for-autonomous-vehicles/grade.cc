// Upstream's 3d-object-detection-for-autonomous-vehicles/grade.py: both
// tables sorted by `Id` (pandas' default, unstable sort) and paired by
// position, the submission's missing PredictionStrings read as "", every row
// parsed by parse_row, then Lyft's 3-D box mAP (lyft_box3d_map.h) per sample
// over the IoU thresholds 0.5 .. 0.95, averaged over samples and thresholds.
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/grader.h"
#include "grading/metrics/sorted_id_pairing.h"
#include "grading/metrics/vision/lyft_box3d_map.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

constexpr char kIdColumn[] = "Id";
constexpr char kPredictionColumn[] = "PredictionString";

// parse_row on one cell. Upstream calls `.strip()` on it, which raises
// AttributeError for anything but text (a missing answer cell; numbers or
// bools where pandas inferred a numeric column); the submission's missing
// cells were filled with "" before (`missing_is_empty`).
absl::StatusOr<std::vector<LyftBox>> ParseCell(const Cell& cell, bool missing_is_empty) {
  if (missing_is_empty && IsMissing(cell)) return std::vector<LyftBox>{};
  const std::string* text = std::get_if<std::string>(&cell);
  if (text == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("is a ", std::string(PythonTypeName(cell)), " (",
                                                   PythonStr(cell), "), not text"));
  }
  return ParseLyftPredictionString(*text);
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission and answers must have the same length (",
                                          submission.num_rows(), " rows, expected ",
                                          answers.num_rows(), ")"));
  }
  if (submission.Find(kIdColumn) == nullptr) {
    return InvalidSubmission("Submission must have an 'Id' column");
  }
  if (submission.Find(kPredictionColumn) == nullptr) {
    return InvalidSubmission("Submission must have a 'PredictionString' column");
  }
  ASSIGN_OR_RETURN(IdPairedRows paired,
                   PairRowsById(submission, answers, kIdColumn, kPredictionColumn,
                                "Submission and answers must have the same ids"));
  const Column& submission_ids = paired.submission_ids;
  const Column& answer_ids = paired.answer_ids;

  const Column& predictions = paired.submission_values;
  const Column& truths = paired.answer_values;
  std::vector<LyftSample> samples(predictions.cells.size());
  for (size_t i = 0; i < predictions.cells.size(); ++i) {
    absl::StatusOr<std::vector<LyftBox>> boxes =
        ParseCell(predictions.cells[i], /*missing_is_empty=*/true);
    if (!boxes.ok()) {
      return InvalidSubmission(absl::StrCat("Could not parse the PredictionString of Id '",
                                            PythonStr(submission_ids.cells[i]), "': it ",
                                            std::string(boxes.status().message())));
    }
    samples[i].predictions = *std::move(boxes);
    // Box3D insists on a str sample token (the row's Id, equal on both sides).
    samples[i].token_is_text = std::holds_alternative<std::string>(submission_ids.cells[i]);
  }
  for (size_t i = 0; i < truths.cells.size(); ++i) {
    absl::StatusOr<std::vector<LyftBox>> boxes =
        ParseCell(truths.cells[i], /*missing_is_empty=*/false);
    if (!boxes.ok()) {
      return MalformedAnswers(absl::StrCat("the PredictionString of Id '",
                                           PythonStr(answer_ids.cells[i]), "' ",
                                           std::string(boxes.status().message())));
    }
    samples[i].truths = *std::move(boxes);
  }

  // Errors name the sample by its index in sorted-Id order.
  absl::StatusOr<double> score = LyftMeanAveragePrecision(samples);
  if (score.status().code() == absl::StatusCode::kFailedPrecondition) {
    return MalformedAnswers(std::string(score.status().message()));
  }
  if (!score.ok()) {
    return InvalidSubmission(absl::StrCat("mean average precision cannot be computed: ",
                                          std::string(score.status().message())));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
