// Upstream's multi-modal-gesture-recognition/grade.py: the sum over test
// videos of the Levenshtein distance between the true and the predicted
// gesture sequences (lists of ints), divided by the number of true gestures.
// Lower is better; it can exceed 1.
//
// As upstream: both tables are sorted by `Id` (pandas sort_values) and must
// then agree row by row; each `Sequence` is `str(cell).split()` with int()
// of every token (a submission token int() rejects, or a missing cell, which
// str() makes "nan", is invalid).

#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "grading/metrics/text/levenshtein.h"
#include "pycompat/python_unicode.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_int.h"
#include "pycompat/python_str.h"
#include "base/table.h"

namespace mlebench {
namespace {

// What Levenshtein.distance (rapidfuzz 3.10) compares a Python int by: its
// hash(), |n| mod 2**61 - 1 with n's sign (-1 becoming -2), except -1 itself,
// which keeps -1; nullopt where int(token) raises. So integers beyond 64 bits
// are gestures too, and 2**61 + 4 is gesture 5.
std::optional<int64_t> GestureKey(const std::string& token) {
  absl::StatusOr<int64_t> value = PythonIntFromString(token);
  if (!value.ok() && !absl::IsOutOfRange(value.status())) return std::nullopt;
  if (value.ok() && *value == -1) return -1;
  constexpr uint64_t kModulus = (uint64_t{1} << 61) - 1;
  uint64_t remainder = 0;  // below 2**61, so 8 times it fits
  for (char c : token) {
    if (c < '0' || c > '9') continue;  // a sign or an underscore
    remainder = ((remainder << 3) % kModulus + (remainder << 1) % kModulus) % kModulus;
    remainder = (remainder + static_cast<uint64_t>(c - '0')) % kModulus;
  }
  const int64_t hash = token.find('-') == std::string::npos ? static_cast<int64_t>(remainder)
                                                            : -static_cast<int64_t>(remainder);
  return hash == -1 ? -2 : hash;
}

// Gesture ids, each replaced by a code point standing for it, so that the
// sequences can be compared as strings (only equality matters).
class GestureCodes {
 public:
  // `list(map(int, str(cell).split()))`, coded; nullopt where Python raises.
  std::optional<std::u32string> Sequence(const Cell& cell) {
    std::optional<std::u32string> text = DecodeUtf8(PythonStr(cell));
    if (!text) return std::nullopt;
    std::u32string coded;
    for (const std::u32string& token : PythonSplit(*text)) {
      // int() of a str reads any Unicode decimal digits ("٣" is 3).
      std::optional<std::string> ascii = PythonDecimalAndSpaceToAscii(EncodeUtf8(token));
      if (!ascii) return std::nullopt;
      std::optional<int64_t> key = GestureKey(*ascii);
      if (!key) return std::nullopt;
      auto [it, inserted] = codes_.try_emplace(*key, static_cast<char32_t>(codes_.size()));
      coded.push_back(it->second);
    }
    return coded;
  }

 private:
  std::map<int64_t, char32_t> codes_;
};

absl::Status BadAnswers(const std::string& reason) {
  return absl::FailedPreconditionError(absl::StrCat("malformed answers: ", reason));
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  const Column* answer_ids = answers.Find("Id");
  const Column* answer_sequences = answers.Find("Sequence");
  if (answer_ids == nullptr || answer_sequences == nullptr) {
    return BadAnswers("expected columns 'Id' and 'Sequence'");
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission has ", submission.num_rows(),
                                          " rows but the answers have ", answers.num_rows()));
  }
  const Column* ids = submission.Find("Id");
  if (ids == nullptr) return InvalidSubmission("Submission must have an 'Id' column");
  const Column* sequences = submission.Find("Sequence");
  if (sequences == nullptr) return InvalidSubmission("Submission must have a 'Sequence' column");

  absl::StatusOr<std::vector<size_t>> answer_order = SortValuesOrder(*answer_ids);
  if (!answer_order.ok()) return BadAnswers(std::string(answer_order.status().message()));
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(*ids);
  if (!order.ok()) {
    // pandas raises TypeError sorting text against numbers.
    return InvalidSubmission(
        absl::StrCat("'Id' cannot be sorted: ", std::string(order.status().message())));
  }
  for (size_t row = 0; row < order->size(); ++row) {
    if (!CellsEqual(ids->cells[(*order)[row]], answer_ids->cells[(*answer_order)[row]])) {
      return InvalidSubmission("Submission and answers must have the same ids");
    }
  }

  GestureCodes codes;
  std::vector<std::u32string> truths;
  int64_t total_gestures = 0;
  for (size_t row : *answer_order) {
    std::optional<std::u32string> truth = codes.Sequence(answer_sequences->cells[row]);
    if (!truth) return BadAnswers(absl::StrCat("'Sequence' in row ", row, " is not integers"));
    total_gestures += static_cast<int64_t>(truth->size());
    truths.push_back(std::move(*truth));
  }
  int64_t sum_of_distances = 0;
  for (size_t i = 0; i < order->size(); ++i) {
    const size_t row = (*order)[i];
    std::optional<std::u32string> prediction = codes.Sequence(sequences->cells[row]);
    if (!prediction) {
      return InvalidSubmission(absl::StrCat(
          "Submission sequences must be integers separated by spaces; row ", row, " is '",
          PythonStr(sequences->cells[row]), "'"));
    }
    sum_of_distances += static_cast<int64_t>(LevenshteinDistance(truths[i], *prediction));
  }
  // numpy's int64 / int: 0 / 0 is NaN and x / 0 is inf, as upstream (with a
  // RuntimeWarning) returns for answers without gestures.
  return static_cast<double>(sum_of_distances) / static_cast<double>(total_gestures);
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
