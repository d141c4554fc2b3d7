#include "grading/metrics/text/jaccard.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/utf8.h"
#include "base/parallel.h"
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

// A word of lowered ASCII text, ordered by its first eight bytes as one
// integer (which decides most comparisons), then its length, then its
// other bytes: not the strings' order, but the same equality, which is all
// a set needs.
struct AsciiWord {
  uint64_t head;  // the first eight bytes, zero beyond the word
  size_t size;
  const char* data;

  friend bool operator<(const AsciiWord& x, const AsciiWord& y) {
    if (x.head != y.head) return x.head < y.head;
    if (x.size != y.size) return x.size < y.size;
    return x.size > 8 && std::memcmp(x.data + 8, y.data + 8, x.size - 8) < 0;
  }
  friend bool operator==(const AsciiWord& x, const AsciiWord& y) {
    return x.head == y.head && x.size == y.size &&
           (x.size <= 8 || std::memcmp(x.data + 8, y.data + 8, x.size - 8) == 0);
  }
};

// `set(text.lower().split())` of ASCII text, as its distinct words sorted
// in `words`, viewing `lowered` (which this fills; `views` is scratch for
// the split). All are reused from row to row: allocating them per row was a
// fifth of a million-row grade.
void AsciiWordSet(std::string_view text, std::string& lowered,
                  std::vector<std::string_view>& views, std::vector<AsciiWord>& words) {
  lowered.assign(text);
  for (char& c : lowered) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  PythonSplitAscii(lowered, views);
  words.clear();
  const char* const end = lowered.data() + lowered.size();
  for (const std::string_view view : views) {
    uint64_t head = 0;
    if (view.data() + 8 <= end) {
      std::memcpy(&head, view.data(), 8);
      if (view.size() < 8) {  // keep the word's bytes only
        head &= std::endian::native == std::endian::little
                    ? (uint64_t{1} << (8 * view.size())) - 1
                    : ~(~uint64_t{0} >> (8 * view.size()));
      }
    } else {
      std::memcpy(&head, view.data(), std::min<size_t>(view.size(), 8));
    }
    words.push_back({head, view.size(), view.data()});
  }
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
}

// What CountWords reuses from one pair to the next.
struct WordScratch {
  std::string lowered_a, lowered_b;
  std::vector<std::string_view> views;
  std::vector<AsciiWord> words_a, words_b;
};

// |A & B| and |A | B| of the two texts' word sets; nullopt for text that is
// not UTF-8.
struct WordCounts {
  size_t common = 0;
  size_t total = 0;
};
std::optional<WordCounts> CountWords(std::string_view a, std::string_view b,
                                     WordScratch& scratch) {
  // ASCII text: Python's lower() and split() are byte-wise there.
  if (IsAscii(a) && IsAscii(b)) {
    AsciiWordSet(a, scratch.lowered_a, scratch.views, scratch.words_a);
    AsciiWordSet(b, scratch.lowered_b, scratch.views, scratch.words_b);
    const std::vector<AsciiWord>& words_a = scratch.words_a;
    const std::vector<AsciiWord>& words_b = scratch.words_b;
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

// WordJaccard's value, or nullopt where it is an error.
std::optional<double> JaccardOrNothing(std::string_view a, std::string_view b,
                                       WordScratch& scratch) {
  const std::optional<WordCounts> counts = CountWords(a, b, scratch);
  if (!counts.has_value() || counts->total == 0) return std::nullopt;
  return static_cast<double>(counts->common) / static_cast<double>(counts->total);
}

}  // namespace

absl::StatusOr<double> WordJaccard(std::string_view a, std::string_view b) {
  WordScratch scratch;
  const std::optional<WordCounts> counts = CountWords(a, b, scratch);
  if (!counts.has_value()) return absl::InvalidArgumentError("text is not valid UTF-8");
  const size_t common = counts->common, total = counts->total;
  if (total == 0) {
    return absl::InvalidArgumentError("float division by zero (neither text has a word)");
  }
  return static_cast<double>(common) / static_cast<double>(total);
}

absl::StatusOr<double> MeanWordJaccard(absl::Span<const std::string_view> predictions,
                                       absl::Span<const std::string_view> answers) {
  std::vector<size_t> order(predictions.size());
  std::iota(order.begin(), order.end(), size_t{0});
  return MeanWordJaccard(predictions, answers, order);
}

absl::StatusOr<double> MeanWordJaccard(absl::Span<const std::string_view> predictions,
                                       absl::Span<const std::string_view> answers,
                                       absl::Span<const size_t> order) {
  if (predictions.size() != answers.size()) {
    return absl::InvalidArgumentError(absl::StrCat("lengths differ: ", predictions.size(),
                                                   " predictions, ", answers.size(), " answers"));
  }
  const size_t n = predictions.size();
  if (order.size() != n) {
    return absl::InvalidArgumentError(
        absl::StrCat("an order of ", order.size(), " pairs for ", n, " pairs"));
  }
  // Each pair on its own, in two halves on two threads for large inputs.
  std::vector<double> pair_scores(n);
  std::vector<uint8_t> failed(n, 0);
  constexpr size_t kPairsForAThread = size_t{1} << 14;
  const size_t parts = n >= kPairsForAThread ? 2 : 1;
  std::vector<uint8_t> any_failed(parts, 0);
  RunInParallel(parts, [&](size_t part) {
    WordScratch scratch;
    const size_t end = n * (part + 1) / parts;
    for (size_t i = n * part / parts; i < end; ++i) {
      const std::optional<double> score = JaccardOrNothing(predictions[i], answers[i], scratch);
      if (score.has_value()) {
        pair_scores[i] = *score;
      } else {
        failed[i] = 1;
        any_failed[part] = 1;
      }
    }
  });
  std::vector<double> scores(n);
  const bool some_failed = std::find(any_failed.begin(), any_failed.end(), 1) != any_failed.end();
  for (size_t i = 0; i < n; ++i) {
    const size_t pair = order[i];
    if (some_failed && failed[pair]) {
      return absl::InvalidArgumentError(absl::StrCat(
          "pair ", i, ": ",
          std::string(WordJaccard(predictions[pair], answers[pair]).status().message())));
    }
    scores[i] = pair_scores[pair];
  }
  return NumpyMean(scores);
}

}  // namespace mlebench
