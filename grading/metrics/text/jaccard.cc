#include "grading/metrics/text/jaccard.h"

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "pycompat/numpy_sum.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

// `set(text.lower().split())`; nullopt for text that is not UTF-8.
std::optional<std::set<std::u32string>> WordSet(std::string_view text) {
  std::optional<std::u32string> decoded = DecodeUtf8(text);
  if (!decoded.has_value()) return std::nullopt;
  std::vector<std::u32string> words = PythonSplit(PythonLower(*decoded));
  return std::set<std::u32string>(words.begin(), words.end());
}

}  // namespace

absl::StatusOr<double> WordJaccard(std::string_view a, std::string_view b) {
  const std::optional<std::set<std::u32string>> words_a = WordSet(a);
  const std::optional<std::set<std::u32string>> words_b = WordSet(b);
  if (!words_a.has_value() || !words_b.has_value()) {
    return absl::InvalidArgumentError("text is not valid UTF-8");
  }
  size_t common = 0;
  for (const std::u32string& word : *words_a) common += words_b->count(word);
  const size_t total = words_a->size() + words_b->size() - common;
  if (total == 0) {
    return absl::InvalidArgumentError("float division by zero (neither text has a word)");
  }
  return static_cast<double>(common) / static_cast<double>(total);
}

absl::StatusOr<double> MeanWordJaccard(const std::vector<std::string>& predictions,
                                       const std::vector<std::string>& answers) {
  if (predictions.size() != answers.size()) {
    return absl::InvalidArgumentError(absl::StrCat("lengths differ: ", predictions.size(),
                                                   " predictions, ", answers.size(), " answers"));
  }
  std::vector<double> scores;
  scores.reserve(predictions.size());
  for (size_t i = 0; i < predictions.size(); ++i) {
    absl::StatusOr<double> score = WordJaccard(predictions[i], answers[i]);
    if (!score.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("pair ", i, ": ", std::string(score.status().message())));
    }
    scores.push_back(*score);
  }
  return NumpyMean(scores);
}

}  // namespace mlebench
