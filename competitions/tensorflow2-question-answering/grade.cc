// Upstream's tensorflow2-question-answering/grade.py: each example has a long
// and a short answer row; a row scores y_pred = 1 when it predicts something
// and y_true = 1 when that prediction is one of the annotated answers (or,
// for an empty prediction, when an answer exists); the score is sklearn's
// micro F1 of those binary vectors (which equals their accuracy).
//
// The answers are upstream's private/test.jsonl, read as JSON lines
// (base/json_lines.h): `example_id` a string cell, `annotations` the JSON
// text of the annotation list, parsed here.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/grader.h"
#include "grading/metrics/classification/f1_score.h"
#include "pycompat/python_int.h"
#include "pycompat/python_json.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

constexpr std::string_view kIdColumn = "example_id";
constexpr std::string_view kPredictionColumn = "PredictionString";

// A token span (start, end) or a yes/no answer ("YES", "NO").
using Answer = std::variant<std::pair<int64_t, int64_t>, std::string>;

// Python's str.isspace() code points (what str.strip() removes).
bool IsPythonSpace(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 ||
         c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
         c == 0x205F || c == 0x3000;
}

// Python's `text.strip()`. Text that is not valid UTF-8 (pandas would not
// have read it) is returned unchanged.
std::string PythonStrip(const std::string& text) {
  std::optional<std::u32string> code_points = DecodeUtf8(text);
  if (!code_points.has_value()) return text;
  size_t begin = 0;
  size_t end = code_points->size();
  while (begin < end && IsPythonSpace((*code_points)[begin])) ++begin;
  while (end > begin && IsPythonSpace((*code_points)[end - 1])) --end;
  return EncodeUtf8(std::u32string_view(*code_points).substr(begin, end - begin));
}

absl::StatusOr<int64_t> TokenIndex(const JsonValue* object, std::string_view key) {
  const JsonValue* value = object == nullptr ? nullptr : object->Find(key);
  std::optional<int64_t> index;
  if (value != nullptr) index = value->AsInt64();
  if (!index.has_value()) {
    return MalformedAnswers(absl::StrCat("annotation lacks an integer '", std::string(key), "'"));
  }
  return *index;
}

struct ValidAnswers {
  std::vector<Answer> long_answers;
  std::vector<Answer> short_answers;
};

// Upstream's valid long and short answers of `annotations[0]`.
absl::StatusOr<ValidAnswers> ParseAnnotation(const std::string& annotations_json) {
  absl::StatusOr<JsonValue> annotations = ParseJson(annotations_json);
  if (!annotations.ok() || !annotations->is_array() || annotations->items.empty() ||
      !annotations->items[0].is_object()) {
    return MalformedAnswers("'annotations' is not a non-empty list of objects");
  }
  const JsonValue& annotation = annotations->items[0];
  ValidAnswers valid;
  const JsonValue* long_answer = annotation.Find("long_answer");
  ASSIGN_OR_RETURN(int64_t long_start, TokenIndex(long_answer, "start_token"));
  if (long_start != -1) {
    ASSIGN_OR_RETURN(int64_t long_end, TokenIndex(long_answer, "end_token"));
    valid.long_answers.push_back(std::pair(long_start, long_end));
  }
  const JsonValue* short_answers = annotation.Find("short_answers");
  if (short_answers == nullptr || !short_answers->is_array()) {
    return MalformedAnswers("annotation lacks a 'short_answers' list");
  }
  for (const JsonValue& short_answer : short_answers->items) {
    ASSIGN_OR_RETURN(int64_t start, TokenIndex(&short_answer, "start_token"));
    ASSIGN_OR_RETURN(int64_t end, TokenIndex(&short_answer, "end_token"));
    valid.short_answers.push_back(std::pair(start, end));
  }
  const JsonValue* yes_no = annotation.Find("yes_no_answer");
  if (yes_no == nullptr || yes_no->type != JsonValue::Type::kString) {
    return MalformedAnswers("annotation lacks a string 'yes_no_answer'");
  }
  if (yes_no->text != "NONE") valid.short_answers.push_back(yes_no->text);
  return valid;
}

// `column.fillna("").astype(str)`.
std::vector<std::string> Strings(const Column& column) {
  std::vector<std::string> out;
  out.reserve(column.cells.size());
  for (const Cell& cell : column.cells) out.push_back(IsMissing(cell) ? "" : PythonStr(cell));
  return out;
}

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  // The answers: example ids in order, and each id's annotation text (a
  // repeated id keeps its last annotation, as upstream's dict does).
  absl::StatusOr<const Column*> answer_ids = answers.Get(kIdColumn);
  if (!answer_ids.ok()) return MalformedAnswers("no 'example_id' column");
  absl::StatusOr<const Column*> answer_annotations = answers.Get("annotations");
  if (!answer_annotations.ok()) return MalformedAnswers("no 'annotations' column");
  std::vector<std::string> expected_ids;
  std::map<std::string, std::string, std::less<>> annotation_by_id;
  for (size_t i = 0; i < answers.num_rows(); ++i) {
    const Cell& id = (*answer_ids)->cells[i];
    const Cell& annotation = (*answer_annotations)->cells[i];
    if (!std::holds_alternative<std::string>(id) ||
        !std::holds_alternative<std::string>(annotation)) {
      return MalformedAnswers(
          absl::StrCat("row ", i, ": example_id must be a string and annotations a list"));
    }
    expected_ids.push_back(std::get<std::string>(id) + "_long");
    expected_ids.push_back(std::get<std::string>(id) + "_short");
    annotation_by_id[std::get<std::string>(id)] = std::get<std::string>(annotation);
  }

  if (submission.num_rows() != 2 * answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission length ", submission.num_rows(),
                                          " != 2 * answers length ", answers.num_rows()));
  }
  const Column* id_column = submission.Find(kIdColumn);
  const Column* prediction_column = submission.Find(kPredictionColumn);
  if (id_column == nullptr || prediction_column == nullptr) {
    return InvalidSubmission("Submission requires 'example_id' and 'PredictionString' columns.");
  }
  const std::vector<std::string> ids = Strings(*id_column);
  const std::vector<std::string> predictions = Strings(*prediction_column);
  const std::set<std::string> submitted_set(ids.begin(), ids.end());
  if (submitted_set != std::set<std::string>(expected_ids.begin(), expected_ids.end())) {
    return InvalidSubmission(
        "Submission example_ids do not match expected_ids. Please ensure you have a long and "
        "short answer for each example_id in the answers.");
  }
  if (submitted_set.size() != ids.size()) {
    return InvalidSubmission(
        "Submission example_ids are not unique. Please ensure you have a long and short answer "
        "for each example_id in the answers.");
  }

  std::vector<int64_t> y_true;
  std::vector<int64_t> y_pred;
  std::map<std::string, ValidAnswers, std::less<>> parsed;  // annotations parsed so far
  for (size_t row = 0; row < ids.size(); ++row) {
    const std::string prediction = PythonStrip(predictions[row]);
    y_pred.push_back(prediction.empty() ? 0 : 1);
    // The prediction: "start:end" (two Python ints), "YES", "NO" or "".
    std::optional<Answer> predicted;  // empty: no prediction
    const size_t colon = prediction.find(':');
    if (colon != std::string::npos && prediction.find(':', colon + 1) == std::string::npos) {
      const absl::StatusOr<int64_t> start = PythonIntFromString(prediction.substr(0, colon));
      const absl::StatusOr<int64_t> end = PythonIntFromString(prediction.substr(colon + 1));
      if (absl::IsInvalidArgument(start.status()) || absl::IsInvalidArgument(end.status())) {
        return InvalidSubmission(
            absl::StrCat("Invalid submission format: ", prediction, " (not two integers)"));
      }
      // An index beyond int64 (OutOfRange) equals no annotated span; a text
      // that is neither "YES" nor "NO" stands for it.
      predicted = start.ok() && end.ok() ? Answer(std::pair(*start, *end))
                                         : Answer(std::string("\x01out-of-range"));
    } else if (prediction == "YES" || prediction == "NO") {
      predicted = Answer(prediction);
    } else if (!prediction.empty()) {
      return InvalidSubmission(absl::StrCat("Invalid submission format: ", prediction));
    }

    // The example's valid answers. Upstream takes the id's text before the
    // first "_long" / "_short" and looks it up (a KeyError when absent).
    const std::string& id = ids[row];
    const bool is_long = EndsWith(id, "_long");
    const std::string example_id = id.substr(0, id.find(is_long ? "_long" : "_short"));
    auto found = parsed.find(example_id);
    if (found == parsed.end()) {
      auto annotation = annotation_by_id.find(example_id);
      if (annotation == annotation_by_id.end()) {
        return InvalidSubmission(
            absl::StrCat("KeyError: '", example_id, "' (from example_id '", id, "')"));
      }
      ASSIGN_OR_RETURN(ValidAnswers valid, ParseAnnotation(annotation->second));
      found = parsed.emplace(example_id, std::move(valid)).first;
    }
    const std::vector<Answer>& valid =
        is_long ? found->second.long_answers : found->second.short_answers;
    if (predicted.has_value()) {
      bool match = false;
      for (const Answer& answer : valid) match = match || answer == *predicted;
      y_true.push_back(match ? 1 : 0);
    } else {
      y_true.push_back(valid.empty() ? 0 : 1);
    }
  }
  return MulticlassFScore(y_true, y_pred, FScoreOptions{});
}

}  // namespace

MLEBENCH_REGISTER_GRADER({
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
    .answers_format = AnswersFormat::kJsonLines,
});

}  // namespace mlebench
