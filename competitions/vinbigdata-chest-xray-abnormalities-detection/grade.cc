// Upstream's vinbigdata-chest-xray-abnormalities-detection/grade.py: the
// submission's image ids must be exactly the answers' (as sets; duplicate rows
// only add predictions), each PredictionString is "class score x_min y_min
// x_max y_max" repeated (split on single spaces, every token a Python float,
// a multiple of six tokens, the class truncated by int()), and the score is
// COCOeval's bbox AP at IoU 0.4 with the ground truth and the detections
// built as upstream's VinBigDataEval builds them (see
// grading/metrics/vision/box_average_precision.h for the quirks that follow).
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/grader.h"
#include "grading/metrics/vision/box_average_precision.h"
#include "pycompat/object_float_cast.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

constexpr double kIouThreshold = 0.4;

// An answers value as a float (answers are ours: anything else is internal).
absl::StatusOr<double> AnswerNumber(const Cell& cell, std::string_view column) {
  if (const auto* i = std::get_if<int64_t>(&cell)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&cell); d != nullptr && !std::isnan(*d)) return *d;
  return MalformedAnswers(
      absl::StrCat("`", std::string(column), "` holds '", PythonStr(cell), "'"));
}

// int() of a finite float; values past int64 cannot equal any answers class,
// so they map to a class that no answer has (INT64_MIN is never a class).
int64_t TruncateToClass(double value) {
  const double truncated = std::trunc(value);
  if (truncated >= 9.2e18 || truncated <= -9.2e18) return INT64_MIN;
  return static_cast<int64_t>(truncated);
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  for (const char* name : {"class_id", "x_min", "y_min", "x_max", "y_max", "image_id"}) {
    if (answers.Find(name) == nullptr) {
      return MalformedAnswers(absl::StrCat("answers must have a `", name, "` column"));
    }
  }
  const Column* prediction_strings = submission.Find("PredictionString");
  const Column* submission_ids = submission.Find("image_id");
  if (prediction_strings == nullptr) {
    return InvalidSubmission("Submission must have a `PredictionString` column");
  }
  if (submission_ids == nullptr)
    return InvalidSubmission("Submission must have a `image_id` column");

  // image_ids = answers["image_id"].unique(), in order of appearance.
  const Column& answer_ids = *answers.Find("image_id");
  std::map<std::string, int64_t> image_index;
  for (const Cell& cell : answer_ids.cells) {
    const auto* id = std::get_if<std::string>(&cell);
    if (id == nullptr) return MalformedAnswers("image_id must be text");
    image_index.try_emplace(*id, static_cast<int64_t>(image_index.size()));
  }
  std::set<std::string> submitted;
  for (const Cell& cell : submission_ids->cells) {
    const auto* id = std::get_if<std::string>(&cell);
    // A missing id is NaN, which is in no answers set.
    if (id == nullptr || !image_index.contains(*id)) {
      return InvalidSubmission(
          "The set of image_ids in the submission must match the set of image_ids in the answers");
    }
    submitted.insert(*id);
  }
  if (submitted.size() != image_index.size()) {
    return InvalidSubmission(
        "The set of image_ids in the submission must match the set of image_ids in the answers");
  }

  // Ground truth: per unique image (in order), its rows in order.
  std::vector<std::vector<size_t>> rows_of_image(image_index.size());
  for (size_t row = 0; row < answers.num_rows(); ++row) {
    rows_of_image[image_index.at(std::get<std::string>(answer_ids.cells[row]))].push_back(row);
  }
  std::vector<CocoBox> truths;
  truths.reserve(answers.num_rows());
  for (size_t image = 0; image < rows_of_image.size(); ++image) {
    for (size_t row : rows_of_image[image]) {
      CocoBox box;
      box.image = static_cast<int64_t>(image);
      ASSIGN_OR_RETURN(double class_id,
                       AnswerNumber(answers.Find("class_id")->cells[row], "class_id"));
      if (class_id != std::trunc(class_id)) return MalformedAnswers("class_id must be whole");
      box.category = static_cast<int64_t>(class_id);
      int k = 0;
      for (const char* name : {"x_min", "y_min", "x_max", "y_max"}) {
        ASSIGN_OR_RETURN(double value, AnswerNumber(answers.Find(name)->cells[row], name));
        box.bbox[k++] = value;
      }
      box.area = (box.bbox[2] - box.bbox[0]) * (box.bbox[3] - box.bbox[1]);
      truths.push_back(box);
    }
  }

  // Detections: every submission row in order, six numbers per box.
  std::vector<CocoBox> detections;
  for (size_t row = 0; row < submission.num_rows(); ++row) {
    const auto* text = std::get_if<std::string>(&prediction_strings->cells[row]);
    if (text == nullptr) {
      return InvalidSubmission(absl::StrCat("row ", row, ": PredictionString '",
                                            PythonStr(prediction_strings->cells[row]),
                                            "' is not text"));
    }
    std::vector<double> numbers;
    size_t start = 0;
    while (true) {
      const size_t space = text->find(' ', start);
      const std::string token =
          text->substr(start, space == std::string::npos ? std::string::npos : space - start);
      const std::optional<double> value = PythonFloatFromString(token);
      if (!value.has_value()) {
        return InvalidSubmission(
            absl::StrCat("row ", row, ": PredictionString token '", token, "' is not a number"));
      }
      numbers.push_back(*value);
      if (space == std::string::npos) break;
      start = space + 1;
    }
    if (numbers.size() % 6 != 0) {
      return InvalidSubmission(absl::StrCat("row ", row, ": PredictionString has ", numbers.size(),
                                            " numbers, not a multiple of 6"));
    }
    const int64_t image = image_index.at(std::get<std::string>(submission_ids->cells[row]));
    for (size_t i = 0; i < numbers.size(); i += 6) {
      if (!std::isfinite(numbers[i])) {
        return InvalidSubmission(
            absl::StrCat("row ", row, ": class id ", numbers[i], " is not a finite number"));
      }
      CocoBox box;
      box.image = image;
      box.category = TruncateToClass(numbers[i]);
      box.score = numbers[i + 1];
      for (int k = 0; k < 4; ++k) box.bbox[k] = numbers[i + 2 + k];
      box.area = (numbers[i + 4] - numbers[i + 2]) * (numbers[i + 5] - numbers[i + 3]);
      detections.push_back(box);
    }
  }
  return CocoBoxAveragePrecision(static_cast<int64_t>(image_index.size()), truths, detections,
                                 kIouThreshold);
}

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
    .submission_csv = {.string_columns = {"image_id", "PredictionString"}},
    .answers_csv = {.string_columns = {"image_id"}},
    // The image ids are compared as sets: a repeated row is graded.
    .sample_rows = SampleRows::kEachIdAnyTimes,
});

}  // namespace
}  // namespace mlebench
