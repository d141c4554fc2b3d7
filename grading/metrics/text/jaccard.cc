#include "grading/metrics/text/jaccard.h"

#include <algorithm>
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

// Whether every byte is ASCII, where Python's lower() and split() are
// byte-wise.
bool IsAscii(std::string_view text) {
  for (const char c : text) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

// Python's str.isspace() on an ASCII character: \t \n \v \f \r, the four
// information separators \x1c-\x1f, and the space.
bool IsPythonAsciiSpace(unsigned char c) { return (c >= 9 && c <= 13) || (c >= 28 && c <= 32); }

// `set(text.lower().split())` of ASCII text, as its words sorted and
// distinct, viewing `lowered` (which this fills).
std::vector<std::string_view> AsciiWordSet(std::string_view text, std::string& lowered) {
  lowered.assign(text);
  for (char& c : lowered) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  std::vector<std::string_view> words;
  const std::string_view all = lowered;
  for (size_t pos = 0; pos < all.size();) {
    while (pos < all.size() && IsPythonAsciiSpace(all[pos])) ++pos;
    const size_t start = pos;
    while (pos < all.size() && !IsPythonAsciiSpace(all[pos])) ++pos;
    if (pos > start) words.push_back(all.substr(start, pos - start));
  }
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  return words;
}

// |A & B| and |A | B| of the two texts' word sets; nullopt for text that is
// not UTF-8.
struct WordCounts {
  size_t common = 0;
  size_t total = 0;
};
std::optional<WordCounts> CountWords(std::string_view a, std::string_view b) {
  if (IsAscii(a) && IsAscii(b)) {
    std::string lowered_a, lowered_b;
    const std::vector<std::string_view> words_a = AsciiWordSet(a, lowered_a);
    const std::vector<std::string_view> words_b = AsciiWordSet(b, lowered_b);
    size_t common = 0;
    for (size_t i = 0, j = 0; i < words_a.size() && j < words_b.size();) {
      if (words_a[i] < words_b[j]) {
        ++i;
      } else if (words_b[j] < words_a[i]) {
        ++j;
      } else {
        ++common, ++i, ++j;
      }
    }
    return WordCounts{common, words_a.size() + words_b.size() - common};
  }
  const std::optional<std::set<std::u32string>> words_a = WordSet(a);
  const std::optional<std::set<std::u32string>> words_b = WordSet(b);
  if (!words_a.has_value() || !words_b.has_value()) return std::nullopt;
  size_t common = 0;
  for (const std::u32string& word : *words_a) common += words_b->count(word);
  return WordCounts{common, words_a->size() + words_b->size() - common};
}

}  // namespace

absl::StatusOr<double> WordJaccard(std::string_view a, std::string_view b) {
  const std::optional<WordCounts> counts = CountWords(a, b);
  if (!counts.has_value()) return absl::InvalidArgumentError("text is not valid UTF-8");
  const size_t common = counts->common, total = counts->total;
  if (total == 0) {
    return absl::InvalidArgumentError("float division by zero (neither text has a word)");
  }
  return static_cast<double>(common) / static_cast<double>(total);
}

absl::StatusOr<double> MeanWordJaccard(absl::Span<const std::string_view> predictions,
                                       absl::Span<const std::string_view> answers) {
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
