#include "grading/metrics/text/levenshtein.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/parallel.h"
#include "base/utf8.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

// The distance is computed with the bit-parallel algorithm of Myers (1999)
// in Hyyrö's formulation: the pattern (the shorter text) is a column of bits,
// one 64-bit word per 64 elements, and each element of the other text
// advances the whole column of vertical deltas at once. Columns longer than
// one word pass the horizontal deltas of their last row from word to word
// (Myers' block variant), so the cost is O(ceil(m / 64) * n).

// Per-element match masks of the pattern: bit i of word w is set where
// pattern[64 * w + i] equals the element. Elements below 256 are looked up
// in a table; the others (rare in practice) in a sorted list.
template <typename CharT>
class MatchMasks {
 public:
  MatchMasks(const CharT *pattern, size_t length) : words_((length + 63) / 64) {
    small_.assign(256 * words_, 0);
    for (size_t i = 0; i < length; ++i) {
      const uint64_t bit = uint64_t{1} << (i % 64);
      const uint32_t element = static_cast<uint32_t>(pattern[i]);
      if (element < 256) {
        small_[element * words_ + i / 64] |= bit;
      } else {
        large_.push_back({element, i});
      }
    }
    // Group the large elements: one mask row per distinct element.
    std::sort(large_.begin(), large_.end());
    for (const auto &[element, position] : large_) {
      if (large_keys_.empty() || large_keys_.back() != element) {
        large_keys_.push_back(element);
        large_masks_.resize(large_masks_.size() + words_, 0);
      }
      large_masks_[(large_keys_.size() - 1) * words_ + position / 64] |= uint64_t{1}
                                                                         << (position % 64);
    }
  }

  // The masks of `element`, one per word, or nullptr when it does not occur.
  const uint64_t *Find(uint32_t element) const {
    if (element < 256) return &small_[element * words_];
    auto it = std::lower_bound(large_keys_.begin(), large_keys_.end(), element);
    if (it == large_keys_.end() || *it != element) return nullptr;
    return &large_masks_[static_cast<size_t>(it - large_keys_.begin()) * words_];
  }

 private:
  size_t words_;
  std::vector<uint64_t> small_;
  std::vector<std::pair<uint32_t, size_t>> large_;
  std::vector<uint32_t> large_keys_;
  std::vector<uint64_t> large_masks_;
};

// A pattern's column of vertical deltas in a single word (patterns of 1..64
// elements), advanced by one text element's match mask at a time.
struct SingleWordColumn {
  uint64_t vp, vn = 0, last;
  size_t distance;

  explicit SingleWordColumn(size_t m)
      : vp(m == 64 ? ~uint64_t{0} : (uint64_t{1} << m) - 1),
        last(uint64_t{1} << (m - 1)),
        distance(m) {}

  void Advance(uint64_t eq) {
    const uint64_t d0 = (((eq & vp) + vp) ^ vp) | eq | vn;
    uint64_t hp = vn | ~(d0 | vp);
    const uint64_t hn = d0 & vp;
    distance += (hp & last) != 0;
    distance -= (hn & last) != 0;
    hp = (hp << 1) | 1;
    vp = (hn << 1) | ~(d0 | hp);
    vn = hp & d0;
  }
};

// One word: patterns of 1..64 elements, masks in a stack table for the
// elements below 256.
template <typename CharT>
size_t SingleWordDistance(const CharT *pattern, size_t m, const CharT *text, size_t n) {
  std::array<uint64_t, 256> small{};
  // Elements >= 256 of the pattern (at most 64), searched linearly.
  std::array<std::pair<uint32_t, uint64_t>, 64> large;
  size_t num_large = 0;
  for (size_t i = 0; i < m; ++i) {
    const uint32_t element = static_cast<uint32_t>(pattern[i]);
    const uint64_t bit = uint64_t{1} << i;
    if (element < 256) {
      small[element] |= bit;
      continue;
    }
    size_t k = 0;
    while (k < num_large && large[k].first != element) ++k;
    if (k == num_large) large[num_large++] = {element, 0};
    large[k].second |= bit;
  }
  SingleWordColumn column(m);
  for (size_t j = 0; j < n; ++j) {
    const uint32_t element = static_cast<uint32_t>(text[j]);
    uint64_t eq = 0;
    if (element < 256) {
      eq = small[element];
    } else {
      for (size_t k = 0; k < num_large; ++k) {
        if (large[k].first == element) {
          eq = large[k].second;
          break;
        }
      }
    }
    column.Advance(eq);
  }
  return column.distance;
}

// Any length: one word of vertical deltas per 64 pattern elements, in `vp`
// and `vn` (`words` each, set here); `find(element)` gives an element's
// masks, one per word, or nullptr.
template <typename CharT, typename FindMasks>
size_t BlockRun(size_t m, const CharT *text, size_t n, const FindMasks &find, uint64_t *vp,
                uint64_t *vn) {
  const size_t words = (m + 63) / 64;
  std::fill(vp, vp + words, ~uint64_t{0});
  std::fill(vn, vn + words, uint64_t{0});
  const uint64_t last = uint64_t{1} << ((m - 1) % 64);
  size_t distance = m;
  for (size_t j = 0; j < n; ++j) {
    const uint64_t *eq_words = find(static_cast<uint32_t>(text[j]));
    // Horizontal deltas entering the word from above: the top row grows by
    // one per element (+1), nothing negative.
    uint64_t hp_carry = 1;
    uint64_t hn_carry = 0;
    for (size_t w = 0; w < words; ++w) {
      const uint64_t eq = (eq_words == nullptr ? 0 : eq_words[w]) | hn_carry;
      const uint64_t d0 = (((eq & vp[w]) + vp[w]) ^ vp[w]) | eq | vn[w];
      uint64_t hp = vn[w] | ~(d0 | vp[w]);
      uint64_t hn = d0 & vp[w];
      const uint64_t hp_in = hp_carry;
      const uint64_t hn_in = hn_carry;
      if (w + 1 < words) {
        hp_carry = hp >> 63;
        hn_carry = hn >> 63;
      } else {
        hp_carry = (hp & last) != 0;
        hn_carry = (hn & last) != 0;
      }
      hp = (hp << 1) | hp_in;
      hn = (hn << 1) | hn_in;
      vp[w] = hn | ~(d0 | hp);
      vn[w] = hp & d0;
    }
    distance += hp_carry;
    distance -= hn_carry;
  }
  return distance;
}

template <typename CharT>
size_t BlockDistance(const CharT *pattern, size_t m, const CharT *text, size_t n) {
  const size_t words = (m + 63) / 64;
  const MatchMasks<CharT> masks(pattern, m);
  std::vector<uint64_t> vp(words), vn(words);
  return BlockRun(
      m, text, n, [&](uint32_t element) { return masks.Find(element); }, vp.data(), vn.data());
}

// BlockRun for patterns of 65..128 elements, whose two words of vertical
// deltas stay in registers; `masks` holds each byte's two words.
size_t TwoWordRun(size_t m, const unsigned char *text, size_t n, const uint64_t *masks) {
  const uint64_t last = uint64_t{1} << ((m - 1) % 64);
  uint64_t vp0 = ~uint64_t{0}, vn0 = 0, vp1 = ~uint64_t{0}, vn1 = 0;
  size_t distance = m;
  for (size_t j = 0; j < n; ++j) {
    const uint64_t *eq = &masks[2 * text[j]];
    // The first word: +1 enters from the top row, nothing negative.
    uint64_t d0 = (((eq[0] & vp0) + vp0) ^ vp0) | eq[0] | vn0;
    uint64_t hp = vn0 | ~(d0 | vp0);
    uint64_t hn = d0 & vp0;
    const uint64_t hp_carry = hp >> 63, hn_carry = hn >> 63;
    hp = (hp << 1) | 1;
    hn <<= 1;
    vp0 = hn | ~(d0 | hp);
    vn0 = hp & d0;
    // The second word, the first one's last horizontal deltas entering it.
    const uint64_t eq1 = eq[1] | hn_carry;
    d0 = (((eq1 & vp1) + vp1) ^ vp1) | eq1 | vn1;
    hp = vn1 | ~(d0 | vp1);
    hn = d0 & vp1;
    distance += (hp & last) != 0;
    distance -= (hn & last) != 0;
    hp = (hp << 1) | hp_carry;
    hn = (hn << 1) | hn_carry;
    vp1 = hn | ~(d0 | hp);
    vn1 = hp & d0;
  }
  return distance;
}

// BlockDistance of byte texts, with the masks in a table kept by the thread
// and zeroed again after use only where the pattern set them: a fresh
// 256-row table per pair (4 KiB for a 100-byte InChI) was most of the cost
// of a million pairs.
size_t ByteBlockDistance(const unsigned char *pattern, size_t m, const unsigned char *text,
                         size_t n) {
  const size_t words = (m + 63) / 64;
  thread_local std::vector<uint64_t> table, vp, vn;  // `table` all zero between calls
  if (table.size() < 256 * words) table.assign(256 * words, 0);
  if (vp.size() < words) vp.resize(words), vn.resize(words);
  for (size_t i = 0; i < m; ++i) table[pattern[i] * words + i / 64] |= uint64_t{1} << (i % 64);
  const size_t distance =
      words == 2 ? TwoWordRun(m, text, n, table.data())
                 : BlockRun(
                       m, text, n, [&](uint32_t element) { return &table[element * words]; },
                       vp.data(), vn.data());
  for (size_t i = 0; i < m; ++i) table[pattern[i] * words + i / 64] = 0;
  return distance;
}

// A pair of texts reduced to what decides their distance: the pattern (the
// shorter one, m elements) and the text (n >= m), without their common
// prefix and suffix, which never change the distance.
template <typename CharT>
struct TrimmedPair {
  const CharT *pattern;
  size_t m;
  const CharT *text;
  size_t n;
};

template <typename CharT>
TrimmedPair<CharT> Trim(const CharT *a, size_t m, const CharT *b, size_t n) {
  // Whether the 8 bytes at x and at y agree (byte texts only).
  const auto same_word = [](const CharT *x, const CharT *y) {
    uint64_t u, v;
    std::memcpy(&u, x, 8);
    std::memcpy(&v, y, 8);
    return u == v;
  };
  if constexpr (sizeof(CharT) == 1) {
    while (m >= 8 && n >= 8 && same_word(a, b)) a += 8, b += 8, m -= 8, n -= 8;
  }
  while (m > 0 && n > 0 && a[0] == b[0]) ++a, ++b, --m, --n;
  if constexpr (sizeof(CharT) == 1) {
    while (m >= 8 && n >= 8 && same_word(a + m - 8, b + n - 8)) m -= 8, n -= 8;
  }
  while (m > 0 && n > 0 && a[m - 1] == b[n - 1]) --m, --n;
  if (m > n) {
    std::swap(a, b);
    std::swap(m, n);
  }
  return {a, m, b, n};
}

// The distance of a trimmed pair (any length).
template <typename CharT>
size_t TrimmedDistance(const TrimmedPair<CharT> &p) {
  if (p.m == 0) return p.n;
  if (p.m <= 64) return SingleWordDistance(p.pattern, p.m, p.text, p.n);
  if constexpr (std::is_same_v<CharT, unsigned char>) {
    return ByteBlockDistance(p.pattern, p.m, p.text, p.n);
  }
  return BlockDistance(p.pattern, p.m, p.text, p.n);
}

template <typename CharT>
size_t Distance(const CharT *a, size_t m, const CharT *b, size_t n) {
  return TrimmedDistance(Trim(a, m, b, n));
}

// The distances of two byte pairs whose patterns both hold 1..64 bytes,
// computed together: each text element's step depends on the step before
// it, so one pair alone leaves most of the core idle, while the steps of two
// independent pairs interleave. `masks` holds two all-zero tables of 256
// rows and is left so.
std::pair<size_t, size_t> TwoByteSingleWordDistances(const TrimmedPair<unsigned char> &x,
                                                     const TrimmedPair<unsigned char> &y,
                                                     std::array<uint64_t, 512> &masks) {
  uint64_t *const x_masks = masks.data();
  uint64_t *const y_masks = masks.data() + 256;
  for (size_t i = 0; i < x.m; ++i) x_masks[x.pattern[i]] |= uint64_t{1} << i;
  for (size_t i = 0; i < y.m; ++i) y_masks[y.pattern[i]] |= uint64_t{1} << i;
  SingleWordColumn x_column(x.m), y_column(y.m);
  const size_t both = std::min(x.n, y.n);
  for (size_t j = 0; j < both; ++j) {
    x_column.Advance(x_masks[x.text[j]]);
    y_column.Advance(y_masks[y.text[j]]);
  }
  for (size_t j = both; j < x.n; ++j) x_column.Advance(x_masks[x.text[j]]);
  for (size_t j = both; j < y.n; ++j) y_column.Advance(y_masks[y.text[j]]);
  for (size_t i = 0; i < x.m; ++i) x_masks[x.pattern[i]] = 0;
  for (size_t i = 0; i < y.m; ++i) y_masks[y.pattern[i]] = 0;
  return {x_column.distance, y_column.distance};
}

// Sums the distances of rows [begin, end) into `*sum`; false at the first
// row whose text is not valid UTF-8, with its index in `*failed`. ASCII
// rows whose pattern fits one word (most of the work in practice: the rest
// are equal texts or long ones) are held back until a second one comes,
// and the two run together.
bool SumDistances(absl::Span<const std::string_view> truths,
                  absl::Span<const std::string_view> predictions, size_t begin, size_t end,
                  uint64_t *sum, size_t *failed) {
  std::array<uint64_t, 512> masks{};
  std::optional<TrimmedPair<unsigned char>> waiting;
  uint64_t total = 0;
  for (size_t i = begin; i < end; ++i) {
    const std::string_view truth = truths[i], prediction = predictions[i];
    if (!IsAscii(truth) || !IsAscii(prediction)) {
      const absl::StatusOr<size_t> distance = Utf8LevenshteinDistance(truth, prediction);
      if (!distance.ok()) {
        *failed = i;
        return false;
      }
      total += *distance;
      continue;
    }
    const TrimmedPair<unsigned char> pair =
        Trim(reinterpret_cast<const unsigned char *>(truth.data()), truth.size(),
             reinterpret_cast<const unsigned char *>(prediction.data()), prediction.size());
    if (pair.m == 0 || pair.m > 64) {
      total += TrimmedDistance(pair);
    } else if (!waiting.has_value()) {
      waiting = pair;
    } else {
      const auto [first, second] = TwoByteSingleWordDistances(*waiting, pair, masks);
      total += first + second;
      waiting.reset();
    }
  }
  if (waiting.has_value()) total += TrimmedDistance(*waiting);
  *sum = total;
  return true;
}

}  // namespace

size_t LevenshteinDistance(std::u32string_view a, std::u32string_view b) {
  return Distance(a.data(), a.size(), b.data(), b.size());
}

absl::StatusOr<size_t> Utf8LevenshteinDistance(std::string_view a, std::string_view b) {
  // ASCII bytes are code points: no decoding needed.
  if (IsAscii(a) && IsAscii(b)) {
    return Distance(reinterpret_cast<const unsigned char *>(a.data()), a.size(),
                    reinterpret_cast<const unsigned char *>(b.data()), b.size());
  }
  std::optional<std::u32string> a_points = DecodeUtf8(a);
  std::optional<std::u32string> b_points = DecodeUtf8(b);
  if (!a_points.has_value() || !b_points.has_value()) {
    return absl::InvalidArgumentError("text is not valid UTF-8");
  }
  return LevenshteinDistance(*a_points, *b_points);
}

absl::StatusOr<double> MeanLevenshteinDistance(absl::Span<const std::string_view> truths,
                                               absl::Span<const std::string_view> predictions) {
  if (truths.size() != predictions.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("have ", truths.size(), " truths but ", predictions.size(), " predictions"));
  }
  if (truths.empty()) return std::numeric_limits<double>::quiet_NaN();
  // Each distance is at most the longer text's length, so the sum fits, and
  // an integer sum does not depend on the order: two halves on two threads
  // for large inputs. A half stops at its first failing row; the first of
  // those is the error (the halves are in row order).
  const size_t n = truths.size();
  constexpr size_t kRowsForAThread = size_t{1} << 14;
  const size_t parts = n >= kRowsForAThread ? 2 : 1;
  std::vector<uint64_t> sums(parts, 0);
  std::vector<size_t> first_failure(parts, n);
  RunInParallel(parts, [&](size_t part) {
    SumDistances(truths, predictions, n * part / parts, n * (part + 1) / parts, &sums[part],
                 &first_failure[part]);
  });
  const size_t failed = *std::min_element(first_failure.begin(), first_failure.end());
  if (failed < n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "row ", failed, ": ",
        std::string(Utf8LevenshteinDistance(truths[failed], predictions[failed]).status().message())));
  }
  uint64_t sum = 0;
  for (uint64_t part_sum : sums) sum += part_sum;
  return static_cast<double>(sum) / static_cast<double>(n);
}

}  // namespace mlebench
