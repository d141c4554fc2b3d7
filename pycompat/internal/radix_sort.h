#ifndef MLEBENCH_GRADING_METRICS_INTERNAL_RADIX_SORT_H_
#define MLEBENCH_GRADING_METRICS_INTERNAL_RADIX_SORT_H_

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace mlebench::internal {

// Stable LSD radix sort of `items` by the bits [low, low + width) of the
// uint64_t key(item), in as few passes of at most `max_digit_bits` bits as
// cover them, the digits equally wide; a pass whose digit every item shares
// moves nothing and is skipped. Narrow digits keep the scatter cache- and
// TLB-friendly: 8 bits suit 8-byte items, 11 bits 16-byte ones (fewer,
// costlier passes); on millions of items wider digits lose. O(n) per pass,
// where a comparison sort of millions of keys costs several times more;
// callers sort short inputs with std::sort instead.
//
// RadixSortBitsWithScratch sorts `items` with `scratch` (as many items, its contents
// overwritten) as the other buffer of the passes, and returns the one of
// the two that holds the sorted items.
template <typename T, typename Key>
std::span<T> RadixSortBitsWithScratch(std::span<T> items, std::span<T> scratch, int low,
                                      int width, int max_digit_bits, Key key) {
  if (width <= 0 || items.empty()) return items;
  const int passes = (width + max_digit_bits - 1) / max_digit_bits;
  const int bits = (width + passes - 1) / passes;
  const uint64_t digit_mask = (uint64_t{1} << bits) - 1;
  std::vector<size_t> counts((size_t{1} << bits) + 1);
  std::span<T> from = items, to = scratch;
  for (int shift = low; shift < low + width; shift += bits) {
    std::fill(counts.begin(), counts.end(), 0);
    for (const T& x : from) ++counts[((key(x) >> shift) & digit_mask) + 1];
    if (counts[((key(from[0]) >> shift) & digit_mask) + 1] == from.size()) continue;
    for (size_t b = 0; b + 1 < counts.size(); ++b) counts[b + 1] += counts[b];
    for (const T& x : from) to[counts[(key(x) >> shift) & digit_mask]++] = x;
    std::swap(from, to);
  }
  return from;
}

// The same with a scratch buffer of its own, left with the sorted items
// (the two are swapped rather than copied back).
template <typename T, typename Key>
void RadixSortBits(std::vector<T>& items, int low, int width, int max_digit_bits, Key key) {
  if (width <= 0 || items.empty()) return;
  std::vector<T> scratch(items.size());  // every element is written before it is read
  const std::span<T> sorted = RadixSortBitsWithScratch(std::span<T>(items), std::span<T>(scratch),
                                                       low, width, max_digit_bits, key);
  if (sorted.data() != items.data()) items.swap(scratch);
}

// A double's bits remapped so that unsigned order is numeric order
// (negative values flipped, positive ones offset past them), -0.0 keyed as
// 0.0: they are equal, so they tie (sklearn's thresholds and pandas' sorts
// treat them as one). Not for NaN.
inline uint64_t OrderedDoubleKey(double value) {
  const uint64_t bits = std::bit_cast<uint64_t>(value == 0.0 ? 0.0 : value);
  return (bits >> 63) != 0 ? ~bits : bits | (uint64_t{1} << 63);
}

// Sorts `keys` ascending: RadixSortBits with 11-bit digits (the six passes
// for all 64 bits less those whose digit every key shares, as the sign and
// most of the exponent of scores in [0, 1]) for long inputs, std::sort for
// short ones.
inline void SortKeys(std::vector<uint64_t>& keys) {
  constexpr size_t kRadixThreshold = 4096;
  if (keys.size() < kRadixThreshold) {
    std::sort(keys.begin(), keys.end());
    return;
  }
  RadixSortBits(keys, 0, 64, 11, [](uint64_t k) { return k; });
}

// Walks the positives' and the negatives' score keys (each sorted
// ascending, as SortKeys leaves them) together from the highest score down,
// one run of equal keys at a time: after each run, visit(tp, fp) with the
// counts of positives and of negatives scored at or above it, the
// cumulative counts of sklearn's _binary_clf_curve (which, being counts, do
// not depend on the order of tied rows).
template <typename Visit>
void VisitScoreRuns(std::span<const uint64_t> positive, std::span<const uint64_t> negative,
                    Visit visit) {
  uint64_t tp = 0, fp = 0;
  for (size_t p = positive.size(), n = negative.size(); p > 0 || n > 0;) {
    const uint64_t top = p == 0   ? negative[n - 1]
                         : n == 0 ? positive[p - 1]
                                  : std::max(positive[p - 1], negative[n - 1]);
    for (; p > 0 && positive[p - 1] == top; --p) ++tp;
    for (; n > 0 && negative[n - 1] == top; --n) ++fp;
    visit(tp, fp);
  }
}

}  // namespace mlebench::internal

#endif  // MLEBENCH_GRADING_METRICS_INTERNAL_RADIX_SORT_H_
