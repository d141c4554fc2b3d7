#include "pycompat/pandas_ops.h"

#include <algorithm>
#include <cstring>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <set>
#include <span>
#include <type_traits>
#include <string_view>
#include <utility>
#include <variant>

#include "absl/container/flat_hash_set.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/parallel.h"
#include "pycompat/internal/radix_sort.h"
#include "base/python_float.h"

namespace mlebench {
namespace {

bool IsString(const Cell& c) { return std::holds_alternative<std::string>(c); }

// A set key that makes Python-equal values equal: "s" + text for strings,
// "n" + repr(float(value)) for numbers, "nan" for missing.
std::string SetKey(const Cell& c) {
  if (IsMissing(c)) return "nan";
  if (const auto* s = std::get_if<std::string>(&c)) return absl::StrCat("s", *s);
  if (const auto* i = std::get_if<int64_t>(&c)) return absl::StrCat("i", *i);
  const double v = *NumericValue(c);
  // Integral floats and bools equal ints in Python, so they share the int key.
  if (v == std::trunc(v) && std::fabs(v) < 9.2e18) {
    return absl::StrCat("i", static_cast<int64_t>(v));
  }
  return absl::StrCat("n", FormatPythonFloat(v));
}

// numpy's SMALL_QUICKSORT: a range whose last and first positions differ by
// at most this (16 items or fewer) is insertion-sorted.
constexpr ptrdiff_t kNumpySmallQuicksort = 15;

// numpy's npy_get_msb: floor(log2(n)) for n >= 1.
int FloorLog2(size_t n) {
  int bits = 0;
  while (n >>= 1) ++bits;
  return bits;
}

// numpy's npy_aheapsort on order[0, n): a 1-based max-heap on `less`.
void NumpyArgHeapsort(size_t* order, ptrdiff_t n, absl::FunctionRef<bool(size_t, size_t)> less) {
  const auto at = [order](ptrdiff_t k) -> size_t& { return order[k - 1]; };
  // Moves `moving` down from heap slot `i` of a heap of `size` slots.
  const auto sift_down = [&](size_t moving, ptrdiff_t i, ptrdiff_t size) {
    for (ptrdiff_t j = 2 * i; j <= size; j = 2 * i) {
      if (j < size && less(at(j), at(j + 1))) ++j;
      if (!less(moving, at(j))) break;
      at(i) = at(j);
      i = j;
    }
    at(i) = moving;
  };
  for (ptrdiff_t i = n / 2; i > 0; --i) sift_down(at(i), i, n);
  for (ptrdiff_t size = n; size > 1;) {
    const size_t moving = at(size);
    at(size) = at(1);
    --size;
    sift_down(moving, 1, size);
  }
}

// An int or bool cell's value as a Python int.
int64_t IntValue(const Cell& c) {
  if (const auto* b = std::get_if<bool>(&c)) return *b ? 1 : 0;
  return std::get<int64_t>(c);
}

// Python's `i < d` for an int and a float (not NaN): exact, not through a
// rounding of `i` to float.
bool IntLessThanFloat(int64_t i, double d) {
  constexpr double kTwoTo63 = 9223372036854775808.0;
  if (d >= kTwoTo63) return true;
  if (d < -kTwoTo63) return false;
  const double whole = std::trunc(d);  // fits in int64 here
  const int64_t w = static_cast<int64_t>(whole);
  if (i != w) return i < w;
  return whole < d;  // i == trunc(d): below d only if d has a positive fraction
}

// Python's `d < i` for a float (not NaN) and an int, exactly.
bool FloatLessThanInt(double d, int64_t i) {
  constexpr double kTwoTo63 = 9223372036854775808.0;
  if (d >= kTwoTo63) return false;
  if (d < -kTwoTo63) return true;
  const double whole = std::trunc(d);
  const int64_t w = static_cast<int64_t>(whole);
  if (w != i) return w < i;
  return d < whole;  // trunc(d) == i: d below i only with a negative fraction
}

// Python's `a < b` for two present numeric cells (bool, int or float).
bool PythonNumberLess(const Cell& a, const Cell& b) {
  const auto* da = std::get_if<double>(&a);
  const auto* db = std::get_if<double>(&b);
  if (da != nullptr && db != nullptr) return *da < *db;
  if (da != nullptr) return FloatLessThanInt(*da, IntValue(b));
  if (db != nullptr) return IntLessThanFloat(IntValue(a), *db);
  return IntValue(a) < IntValue(b);
}

}  // namespace

std::string_view PythonTypeName(const Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return "float";
  if (std::holds_alternative<bool>(cell)) return "bool";
  if (std::holds_alternative<int64_t>(cell)) return "int";
  if (std::holds_alternative<double>(cell)) return "float";
  return "str";
}

std::optional<double> NumericValue(const Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return std::numeric_limits<double>::quiet_NaN();
  if (const auto* b = std::get_if<bool>(&cell)) return *b ? 1.0 : 0.0;
  if (const auto* i = std::get_if<int64_t>(&cell)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&cell)) return *d;
  return std::nullopt;
}

bool CellsEqual(const Cell& a, const Cell& b) {
  // Same type: compare directly (the common case, kept fast for long columns).
  if (a.index() == b.index()) {
    if (const auto* x = std::get_if<bool>(&a)) return *x == std::get<bool>(b);
    if (const auto* x = std::get_if<int64_t>(&a)) return *x == std::get<int64_t>(b);
    if (const auto* x = std::get_if<double>(&a)) return *x == std::get<double>(b);  // NaN != NaN
    if (const auto* x = std::get_if<std::string>(&a)) return *x == std::get<std::string>(b);
    return false;  // both missing
  }
  if (IsMissing(a) || IsMissing(b)) return false;
  const auto* sa = std::get_if<std::string>(&a);
  const auto* sb = std::get_if<std::string>(&b);
  if (sa != nullptr || sb != nullptr) return false;  // a string and a number
  // Two numbers of different types: as float64, as numpy promotes int64 with
  // float64 (bools with ints are exact either way below 2**53).
  return *NumericValue(a) == *NumericValue(b);
}

namespace {

// The first 8 bytes of `s`, big-endian, zero-padded: comparing these first
// agrees with comparing the strings (or their suffixes after a shared prefix) (byte order, which for UTF-8 is Python's
// code point order) except on ties, which the full comparison settles.
uint64_t PrefixKey(std::string_view s) {
  if constexpr (std::endian::native == std::endian::little) {
    if (s.size() >= 8) {  // one load, bytes swapped into big-endian order
      uint64_t word;
      std::memcpy(&word, s.data(), 8);
      return __builtin_bswap64(word);
    }
    if (s.size() >= 4) {  // the first and the last four bytes (they may overlap)
      uint32_t head, tail;
      std::memcpy(&head, s.data(), 4);
      std::memcpy(&tail, s.data() + s.size() - 4, 4);
      return (uint64_t{__builtin_bswap32(head)} << 32) |
             (uint64_t{__builtin_bswap32(tail)} << (8 * (8 - s.size())));
    }
  }
  uint64_t key = 0;
  const size_t n = std::min<size_t>(s.size(), 8);
  for (size_t i = 0; i < n; ++i) key |= uint64_t{static_cast<unsigned char>(s[i])} << (56 - 8 * i);
  return key;
}

// The bits of a key that differ between keys, as runs of consecutive bits,
// most significant first: packing only them keeps the keys' order (the other
// bits are the same everywhere) in fewer bits, so fewer radix passes.
class VaryingBits {
 public:
  explicit VaryingBits(uint64_t mask) {
    for (int bit = 63; bit >= 0;) {
      if (((mask >> bit) & 1) == 0) {
        --bit;
        continue;
      }
      int low = bit;
      while (low > 0 && ((mask >> (low - 1)) & 1) != 0) --low;
      runs_.push_back({low, bit - low + 1});
      width_ += bit - low + 1;
      bit = low - 1;
    }
  }
  int width() const { return width_; }
  uint64_t Pack(uint64_t key) const {
    uint64_t packed = 0;
    // A 64-bit run (every bit varies) is the key itself: shifting a 64-bit
    // word by 64 is undefined (on x86 the mask could come out 0, every key
    // alike, the order then left to the comparisons of the ties).
    if (width_ == 64) return key;
    for (const Run& run : runs_) {
      packed = (packed << run.length) | ((key >> run.shift) & ((uint64_t{1} << run.length) - 1));
    }
    return packed;
  }

 private:
  struct Run {
    int shift;
    int length;  // 1..64, but a 64-bit run only for a mask of all ones
  };
  std::vector<Run> runs_;
  int width_ = 0;
};

// Sorts `rows` by their texts, which agree on their first `offset` bytes
// (those that have them): by the next 8 bytes, then the runs that tie on
// those by the 8 after, and so on (timestamps such as "2009-06-15 17:26:21"
// share a date in 8 bytes: whole-text comparisons within such runs were most
// of a million-row sort). False when two texts are equal.
bool SortTiedTexts(absl::Span<const std::string_view> text, std::span<size_t> rows,
                   size_t offset) {
  const auto tail = [&](size_t row) {
    const std::string_view t = text[row];
    return t.size() > offset ? t.substr(offset) : std::string_view();
  };
  // Small runs, and runs whose texts all end within the next 8 bytes (the
  // zero-padded keys cannot tell "a" from "a\0"): by the whole texts.
  bool longer = false;
  for (size_t row : rows) longer = longer || text[row].size() > offset + 8;
  if (rows.size() <= 16 || !longer) {
    std::sort(rows.begin(), rows.end(), [&](size_t a, size_t b) { return text[a] < text[b]; });
    for (size_t k = 1; k < rows.size(); ++k) {
      if (text[rows[k - 1]] == text[rows[k]]) return false;
    }
    return true;
  }
  std::vector<std::pair<uint64_t, size_t>> keyed;
  keyed.reserve(rows.size());
  for (size_t row : rows) keyed.emplace_back(PrefixKey(tail(row)), row);
  std::sort(keyed.begin(), keyed.end());
  for (size_t k = 0; k < rows.size(); ++k) rows[k] = keyed[k].second;
  for (size_t begin = 0; begin < rows.size();) {
    size_t end = begin + 1;
    while (end < rows.size() && keyed[end].first == keyed[begin].first) ++end;
    if (end - begin > 1 && !SortTiedTexts(text, rows.subspan(begin, end - begin), offset + 8)) {
      return false;
    }
    begin = end;
  }
  return true;
}

}  // namespace

namespace {

// Below this many texts DistinctTextArgsort runs on one thread: starting a
// second costs more than it saves.
constexpr size_t kParallelTexts = size_t{1} << 16;

// Sorts `items` by the key bits [low, low + width) as RadixSortBits does
// (stable), on two threads when `parallel`: the items are split (stably) by
// the top bit of that range into the two ends of a second buffer, and each
// part is sorted there by the bits below it on a thread of its own, the
// matching part of `items` its scratch. The same order either way, and
// no more memory than one thread's sort.
template <typename T, typename Key>
void ParallelRadixSortBits(std::vector<T>& items, int low, int width, int max_digit_bits,
                           Key key, bool parallel) {
  if (!parallel || width < 2) {
    internal::RadixSortBits(items, low, width, max_digit_bits, key);
    return;
  }
  const int top = low + width - 1;
  size_t zeros = 0;
  for (const T& x : items) zeros += ((key(x) >> top) & 1) == 0;
  std::vector<T> split(items.size());  // every element is written before it is read
  size_t next_zero = 0, next_one = zeros;
  for (const T& x : items) split[((key(x) >> top) & 1) ? next_one++ : next_zero++] = x;
  const std::span<T> parts = split, scratch = items;
  RunInParallel(2, [&](size_t part) {
    const size_t begin = part == 0 ? 0 : zeros, size = part == 0 ? zeros : items.size() - zeros;
    const std::span<T> sorted = internal::RadixSortBitsWithScratch(
        parts.subspan(begin, size), scratch.subspan(begin, size), low, width - 1, max_digit_bits,
        key);
    if (sorted.data() != parts.data() + begin) {
      std::copy(sorted.begin(), sorted.end(), parts.begin() + static_cast<ptrdiff_t>(begin));
    }
  });
  items.swap(split);
}

}  // namespace

std::vector<size_t> DistinctTextArgsort(absl::Span<const std::string_view> text) {
  const size_t n = text.size();
  if (n > std::numeric_limits<uint32_t>::max()) return {};
  // Large inputs are cut in two halves for each pass over the texts (the
  // result is one order: the texts are distinct, or there is none).
  const bool parallel = n >= kParallelTexts;
  // Keys are the 8 bytes after the prefix all texts share (ids often start
  // alike: "id00...", "ISIC_00..."), so that they tell more texts apart.
  size_t half_common[2] = {n == 0 ? 0 : text[0].size(), n == 0 ? 0 : text[0].size()};
  ForEachHalf(n, parallel, [&](size_t half, size_t begin, size_t end) {
    size_t& common = half_common[half];
    for (size_t k = begin; k < end && common > 0; ++k) {
      const std::string_view t = text[k];
      size_t i = 0;
      const size_t limit = std::min(common, t.size());
      while (i < limit && t[i] == text[0][i]) ++i;
      common = i;
    }
  });
  const size_t common = std::min(half_common[0], half_common[1]);
  std::vector<uint64_t> keys(n);
  uint64_t half_differs[2] = {0, 0};  // the key bits that are not the same everywhere
  const uint64_t first_key = n == 0 ? 0 : PrefixKey(text[0].substr(common));
  ForEachHalf(n, parallel, [&](size_t half, size_t begin, size_t end) {
    uint64_t differs = 0;
    for (size_t k = begin; k < end; ++k) {
      keys[k] = PrefixKey(text[k].substr(common));
      differs |= keys[k] ^ first_key;
    }
    half_differs[half] = differs;
  });
  const uint64_t any_differs = half_differs[0] | half_differs[1];
  // Only the varying bits are sorted on (ids share many: "id0000042" varies
  // in four bits per digit); with the row index beside them in one word when
  // they fit, so that a pass moves 8 bytes an item, not 16.
  const VaryingBits varying(any_differs);
  int index_bits = 1;
  while (index_bits < 32 && (uint64_t{1} << index_bits) < n) ++index_bits;
  std::vector<size_t> order(n);
  // Runs of positions in `order` whose texts share their (packed) key.
  std::vector<std::pair<size_t, size_t>> ties;
  const auto note_ties = [&](auto key_at) {
    for (size_t k = 1; k < n; ++k) {
      if (key_at(k) != key_at(k - 1)) continue;
      if (!ties.empty() && ties.back().second == k) {
        ties.back().second = k + 1;
      } else {
        ties.emplace_back(k - 1, k + 1);
      }
    }
  };
  if (varying.width() + index_bits <= 64) {
    ForEachHalf(n, parallel, [&](size_t, size_t begin, size_t end) {
      for (size_t k = begin; k < end; ++k) keys[k] = (varying.Pack(keys[k]) << index_bits) | k;
    });
    if (n < 4096) {
      std::sort(keys.begin(), keys.end());
    } else {
      ParallelRadixSortBits(keys, index_bits, varying.width(), 8, [](uint64_t x) { return x; },
                            parallel);
    }
    const uint64_t index_mask = (uint64_t{1} << index_bits) - 1;
    ForEachHalf(n, parallel, [&](size_t, size_t begin, size_t end) {
      for (size_t k = begin; k < end; ++k) order[k] = static_cast<size_t>(keys[k] & index_mask);
    });
    note_ties([&](size_t k) { return keys[k] >> index_bits; });
  } else {
    struct Keyed {
      uint64_t key;
      uint32_t index;
    };
    std::vector<Keyed> keyed(n);
    ForEachHalf(n, parallel, [&](size_t, size_t begin, size_t end) {
      for (size_t k = begin; k < end; ++k) {
        keyed[k] = {varying.Pack(keys[k]), static_cast<uint32_t>(k)};
      }
    });
    if (n < 4096) {
      std::stable_sort(keyed.begin(), keyed.end(),
                       [](const Keyed& a, const Keyed& b) { return a.key < b.key; });
    } else {
      ParallelRadixSortBits(keyed, 0, varying.width(), 11, [](const Keyed& x) { return x.key; },
                            parallel);
    }
    for (size_t k = 0; k < n; ++k) order[k] = keyed[k].index;
    note_ties([&](size_t k) { return keyed[k].key; });
  }
  // Texts sharing a key agree on their first common + 8 bytes (where they
  // have them): ordered by the bytes after those; two equal texts are not
  // this function's to order. The runs are disjoint: the two halves of
  // their list (by rows) are sorted at once.
  size_t tied_rows = 0;
  for (const auto& [begin, end] : ties) tied_rows += end - begin;
  size_t split = 0;
  for (size_t rows = 0; split < ties.size() && rows < tied_rows / 2; ++split) {
    rows += ties[split].second - ties[split].first;
  }
  uint8_t distinct[2] = {1, 1};
  const auto sort_ties = [&](size_t part) {
    const size_t from = part == 0 ? 0 : split, to = part == 0 ? split : ties.size();
    for (size_t t = from; t < to && distinct[part]; ++t) {
      const auto [begin, end] = ties[t];
      distinct[part] =
          SortTiedTexts(text, std::span<size_t>(order.data() + begin, end - begin), common + 8);
    }
  };
  if (parallel && tied_rows >= kParallelTexts) {
    RunInParallel(2, sort_ties);
  } else {
    sort_ties(0);
    sort_ties(1);
  }
  if (!distinct[0] || !distinct[1]) return {};
  return order;
}

std::vector<size_t> NumpyObjectArgsort(size_t n, absl::FunctionRef<bool(size_t, size_t)> less) {
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  if (n == 0) return order;
  // Positions into `order` are signed, as numpy's pointer arithmetic.
  const auto item_less = [&](ptrdiff_t x, ptrdiff_t y) { return less(order[x], order[y]); };
  struct Range {
    ptrdiff_t first;
    ptrdiff_t last;  // inclusive
    int depth_left;
  };
  std::vector<Range> pending;
  ptrdiff_t first = 0;
  ptrdiff_t last = static_cast<ptrdiff_t>(n) - 1;
  int depth_left = 2 * FloorLog2(n);
  for (;;) {
    if (depth_left < 0) {
      NumpyArgHeapsort(&order[first], last - first + 1, less);
    } else {
      // numpy checks the depth only when it takes up a range; the range in
      // hand is partitioned until small whatever the count reaches meanwhile.
      while (last - first > kNumpySmallQuicksort) {
        const ptrdiff_t mid = first + ((last - first) >> 1);
        if (item_less(mid, first)) std::swap(order[mid], order[first]);
        if (item_less(last, mid)) std::swap(order[last], order[mid]);
        if (item_less(mid, first)) std::swap(order[mid], order[first]);
        const size_t pivot = order[mid];  // numpy keeps a pointer to its value
        ptrdiff_t i = first;
        ptrdiff_t j = last - 1;
        std::swap(order[mid], order[j]);
        for (;;) {
          // numpy's generic sort also stops each scan where they cross.
          do {
            ++i;
          } while (less(order[i], pivot) && i < j);
          do {
            --j;
          } while (less(pivot, order[j]) && i < j);
          if (i >= j) break;
          std::swap(order[i], order[j]);
        }
        std::swap(order[i], order[last - 1]);
        // Keep the larger side for later; go on with the smaller one.
        --depth_left;
        if (i - first < last - i) {
          pending.push_back({i + 1, last, depth_left});
          last = i - 1;
        } else {
          pending.push_back({first, i - 1, depth_left});
          first = i + 1;
        }
      }
      for (ptrdiff_t i = first + 1; i <= last; ++i) {
        const size_t moving = order[i];
        ptrdiff_t j = i;
        while (j > first && less(moving, order[j - 1])) {
          order[j] = order[j - 1];
          --j;
        }
        order[j] = moving;
      }
    }
    if (pending.empty()) break;
    first = pending.back().first;
    last = pending.back().last;
    depth_left = pending.back().depth_left;
    pending.pop_back();
  }
  return order;
}

namespace {

// An order-preserving unsigned key: for ints, the value with its sign bit
// flipped; for doubles (not NaN), the IEEE bits turned so that unsigned order
// is numeric order, -0.0 keyed as 0.0 (they are equal, so they must tie).
uint64_t OrderedKey(int64_t v) { return static_cast<uint64_t>(v) ^ (uint64_t{1} << 63); }
uint64_t OrderedKey(uint8_t v) { return v; }
uint64_t OrderedKey(double v) { return internal::OrderedDoubleKey(v); }

// The rows row_at(0), ..., row_at(n - 1) (increasing) ordered by
// key_of(row), equal keys in input order: what std::stable_sort by key gives.
// Keys already in order (ids a program wrote in sequence) give the rows as
// they are; otherwise an LSD radix sort of the keys' varying range. When the
// range and the position fit in 64 bits together, each item is one word
// (position in the low bits); else {key, position} pairs. Keys are computed
// again rather than kept: a key array is one more first-touched 8 bytes a
// row.
template <typename RowAt, typename KeyOf>
std::vector<size_t> StableOrderByKey(size_t n, RowAt row_at, KeyOf key_of) {
  std::vector<size_t> sorted(n);
  if (n < 4096) {  // a comparison sort is as fast on short inputs
    for (size_t i = 0; i < n; ++i) sorted[i] = row_at(i);
    std::stable_sort(sorted.begin(), sorted.end(),
                     [&](size_t x, size_t y) { return key_of(x) < key_of(y); });
    return sorted;
  }
  uint64_t low = ~uint64_t{0}, high = 0, previous = 0;
  bool in_order = true;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t key = key_of(row_at(i));
    in_order &= previous <= key;
    previous = key;
    low = std::min(low, key);
    high = std::max(high, key);
  }
  if (in_order) {
    for (size_t i = 0; i < n; ++i) sorted[i] = row_at(i);
    return sorted;
  }
  const int range_bits = std::bit_width(high - low);
  const int index_bits = std::bit_width(n - 1);
  if (range_bits + index_bits <= 64) {
    std::vector<uint64_t> packed(n);
    for (size_t i = 0; i < n; ++i) packed[i] = ((key_of(row_at(i)) - low) << index_bits) | i;
    internal::RadixSortBits(packed, index_bits, range_bits, 8, [](uint64_t x) { return x; });
    const uint64_t index_mask = (uint64_t{1} << index_bits) - 1;
    for (size_t i = 0; i < n; ++i) sorted[i] = row_at(packed[i] & index_mask);
    return sorted;
  }
  struct Item {
    uint64_t key;
    uint64_t position;
  };
  std::vector<Item> items(n);
  for (size_t i = 0; i < n; ++i) items[i] = {key_of(row_at(i)) - low, i};
  internal::RadixSortBits(items, 0, range_bits, 11, [](const Item& x) { return x.key; });
  for (size_t i = 0; i < n; ++i) sorted[i] = row_at(items[i].position);
  return sorted;
}

// The same over a list of rows.
template <typename KeyOf>
std::vector<size_t> StableOrderByKey(const std::vector<size_t>& rows, KeyOf key_of) {
  return StableOrderByKey(
      rows.size(), [&](size_t i) { return rows[i]; }, key_of);
}

// numpy's argsort of an object array of strings: the integer-prefix sort
// when they are distinct, else numpy's introsort (whose order of equal
// strings is numpy's).
std::vector<size_t> TextArgsort(absl::Span<const std::string_view> text) {
  std::vector<size_t> sorted = DistinctTextArgsort(text);
  if (sorted.empty() && !text.empty()) {
    sorted = NumpyObjectArgsort(text.size(), [&](size_t x, size_t y) { return text[x] < text[y]; });
  }
  return sorted;
}

// SortValuesOrder of a column's cells.
absl::StatusOr<std::vector<size_t>> SortCellsOrder(std::string_view name, Dtype dtype,
                                                   absl::Span<const Cell> cells) {
  std::vector<size_t> present;
  std::vector<size_t> missing;
  present.reserve(cells.size());
  // Python orders strings among strings and numbers (bools included) among
  // numbers; a string meeting a number is a TypeError.
  const Cell* first_string = nullptr;
  const Cell* first_number = nullptr;
  for (size_t i = 0; i < cells.size(); ++i) {
    if (IsMissing(cells[i])) {
      missing.push_back(i);
      continue;
    }
    present.push_back(i);
    if (IsString(cells[i])) {
      if (first_string == nullptr) first_string = &cells[i];
    } else if (first_number == nullptr) {
      first_number = &cells[i];
    }
  }
  if (first_string != nullptr && first_number != nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot sort column '", std::string(name), "': '<' not supported between instances of '",
        std::string(PythonTypeName(*first_number)), "' and 'str' (it mixes strings with numbers)"));
  }
  if (dtype == Dtype::kObject) {
    // numpy argsorts pandas' array of the present values, whose positions
    // map back to rows in increasing order, so sorting positions of
    // `present` is the same permutation.
    std::vector<size_t> sorted;
    if (first_string != nullptr) {
      std::vector<std::string_view> text(present.size());
      for (size_t k = 0; k < present.size(); ++k) {
        text[k] = std::get<std::string>(cells[present[k]]);
      }
      sorted = TextArgsort(text);
    } else {
      sorted = NumpyObjectArgsort(present.size(), [&](size_t x, size_t y) {
        return PythonNumberLess(cells[present[x]], cells[present[y]]);
      });
    }
    for (size_t& k : sorted) k = present[k];
    sorted.insert(sorted.end(), missing.begin(), missing.end());
    return sorted;
  }
  // Numeric dtypes: by value, ties in input order (see the header for why).
  const bool all_int = std::all_of(present.begin(), present.end(), [&](size_t i) {
    return std::holds_alternative<int64_t>(cells[i]) || std::holds_alternative<bool>(cells[i]);
  });
  std::vector<size_t> sorted =
      all_int ? StableOrderByKey(present, [&](size_t i) { return OrderedKey(IntValue(cells[i])); })
              : StableOrderByKey(present,
                                 [&](size_t i) { return OrderedKey(*NumericValue(cells[i])); });
  sorted.insert(sorted.end(), missing.begin(), missing.end());
  return sorted;
}

// Numeric dtypes: by value, ties in input order, missing (NaN) last in input
// order (as SortCellsOrder does for cells).
template <typename T>
std::vector<size_t> StableValueOrder(std::span<const T> values) {
  const auto key_of = [&](size_t i) { return OrderedKey(values[i]); };
  if constexpr (std::is_floating_point_v<T>) {
    if (std::any_of(values.begin(), values.end(), [](T v) { return std::isnan(v); })) {
      std::vector<size_t> present, missing;
      present.reserve(values.size());
      for (size_t i = 0; i < values.size(); ++i) {
        (std::isnan(values[i]) ? missing : present).push_back(i);
      }
      std::vector<size_t> sorted = StableOrderByKey(present, key_of);
      sorted.insert(sorted.end(), missing.begin(), missing.end());
      return sorted;
    }
  }
  // Nothing missing: the rows are 0, ..., n - 1.
  return StableOrderByKey(
      values.size(), [](size_t i) { return i; }, key_of);
}

}  // namespace

absl::StatusOr<std::vector<size_t>> SortValuesOrder(const Column& column) {
  return SortCellsOrder(column.name, column.dtype, column.cells);
}

absl::StatusOr<std::vector<size_t>> SortValuesOrder(const TypedColumn& column) {
  switch (column.storage()) {
    case TypedColumn::Storage::kInt64:
      return StableValueOrder(column.ints());
    case TypedColumn::Storage::kFloat64:
      return StableValueOrder(column.doubles());
    case TypedColumn::Storage::kBool:
      return StableValueOrder(column.bools());
    case TypedColumn::Storage::kText: {
      // An object column of strings: as SortCellsOrder's string branch.
      const std::span<const std::string_view> all = column.text();
      if (std::none_of(all.begin(), all.end(), TypedColumn::IsMissingText)) {
        return TextArgsort(absl::Span<const std::string_view>(all.data(), all.size()));
      }
      std::vector<size_t> present, missing;
      present.reserve(all.size());
      std::vector<std::string_view> text;
      text.reserve(all.size());
      for (size_t i = 0; i < all.size(); ++i) {
        if (TypedColumn::IsMissingText(all[i])) {
          missing.push_back(i);
        } else {
          present.push_back(i);
          text.push_back(all[i]);
        }
      }
      std::vector<size_t> sorted = TextArgsort(text);
      for (size_t& k : sorted) k = present[k];
      sorted.insert(sorted.end(), missing.begin(), missing.end());
      return sorted;
    }
    case TypedColumn::Storage::kCells:
      break;
  }
  const std::span<const Cell> cells = column.cells();
  return SortCellsOrder(column.name(), column.dtype(),
                        absl::Span<const Cell>(cells.data(), cells.size()));
}

size_t CopyNumericValues(const TypedColumn& column, std::span<double> out) {
  const size_t n = std::min(out.size(), column.size());
  switch (column.storage()) {
    case TypedColumn::Storage::kInt64:
      for (size_t i = 0; i < n; ++i) out[i] = static_cast<double>(column.ints()[i]);
      return n;
    case TypedColumn::Storage::kFloat64:
      std::copy_n(column.doubles().begin(), n, out.begin());
      return n;
    case TypedColumn::Storage::kBool:
      for (size_t i = 0; i < n; ++i) out[i] = column.bools()[i] != 0 ? 1.0 : 0.0;
      return n;
    case TypedColumn::Storage::kText:
    case TypedColumn::Storage::kCells:
      break;
  }
  for (size_t i = 0; i < n; ++i) {
    std::optional<double> v = NumericValueAt(column, i);
    if (!v.has_value()) return i;
    out[i] = *v;
  }
  return n;
}

std::optional<double> NumericValueAt(const TypedColumn& column, size_t row) {
  switch (column.storage()) {
    case TypedColumn::Storage::kInt64:
      return static_cast<double>(column.ints()[row]);
    case TypedColumn::Storage::kFloat64:
      return column.doubles()[row];
    case TypedColumn::Storage::kBool:
      return column.bools()[row] != 0 ? 1.0 : 0.0;
    case TypedColumn::Storage::kText:
      if (TypedColumn::IsMissingText(column.text()[row])) {
        return std::numeric_limits<double>::quiet_NaN();
      }
      return std::nullopt;
    case TypedColumn::Storage::kCells:
      break;
  }
  return NumericValue(column.cells()[row]);
}

bool SameValuesNoneMissing(const TypedColumn& a, const TypedColumn& b) {
  using Storage = TypedColumn::Storage;
  if (a.storage() != b.storage() || a.dtype() != b.dtype() || a.size() != b.size()) return false;
  switch (a.storage()) {
    case Storage::kInt64:
      return std::equal(a.ints().begin(), a.ints().end(), b.ints().begin());
    case Storage::kBool:
      return std::equal(a.bools().begin(), a.bools().end(), b.bools().begin());
    case Storage::kFloat64:
      // Bit for bit (-0.0 is not 0.0 here), and no NaN.
      for (size_t i = 0; i < a.size(); ++i) {
        const double x = a.doubles()[i];
        if (std::isnan(x) || std::bit_cast<uint64_t>(x) != std::bit_cast<uint64_t>(b.doubles()[i])) {
          return false;
        }
      }
      return true;
    case Storage::kText: {
      // Two halves at once for long columns (a text a row to compare).
      bool same[2] = {true, true};
      const bool parallel = a.size() >= kParallelTexts;
      ForEachHalf(a.size(), parallel, [&](size_t half, size_t begin, size_t end) {
        bool& same_here = same[half];
        for (size_t i = begin; i < end && same_here; ++i) {
          const std::string_view x = a.text()[i], y = b.text()[i];
          same_here = !TypedColumn::IsMissingText(x) && !TypedColumn::IsMissingText(y) && x == y;
        }
      });
      return same[0] && same[1];
    }
    case Storage::kCells:
      return false;
  }
  return false;
}

bool ValuesEqualAt(const TypedColumn& a, size_t i, const TypedColumn& b, size_t j) {
  using Storage = TypedColumn::Storage;
  if (a.storage() == Storage::kText && b.storage() == Storage::kText) {
    const std::string_view x = a.text()[i], y = b.text()[j];
    return !TypedColumn::IsMissingText(x) && !TypedColumn::IsMissingText(y) && x == y;
  }
  if (a.storage() == Storage::kInt64 && b.storage() == Storage::kInt64) {
    return a.ints()[i] == b.ints()[j];
  }
  if (a.storage() == Storage::kFloat64 && b.storage() == Storage::kFloat64) {
    return a.doubles()[i] == b.doubles()[j];
  }
  if (a.storage() == Storage::kCells && b.storage() == Storage::kCells) {
    return CellsEqual(a.cells()[i], b.cells()[j]);
  }
  return CellsEqual(a.CellAt(i), b.CellAt(j));
}

Column TakeCells(const Column& column, absl::Span<const size_t> order) {
  Column out;
  out.name = column.name;
  out.dtype = column.dtype;
  out.cells.reserve(order.size());
  for (size_t i : order) out.cells.push_back(column.cells[i]);
  return out;
}

namespace {

// The symmetric difference's size of the sets of `a`'s and `b`'s values,
// where equal values are equal elements (ints; strings by content).
template <typename T>
size_t DistinctSymmetricDifferenceSize(std::span<const T> a, std::span<const T> b) {
  if (std::equal(a.begin(), a.end(), b.begin(), b.end())) return 0;
  const absl::flat_hash_set<T> in_a(a.begin(), a.end());
  const absl::flat_hash_set<T> in_b(b.begin(), b.end());
  const absl::flat_hash_set<T>& smaller = in_a.size() <= in_b.size() ? in_a : in_b;
  const absl::flat_hash_set<T>& larger = in_a.size() <= in_b.size() ? in_b : in_a;
  size_t common = 0;
  for (const T& value : smaller) common += larger.contains(value);
  return in_a.size() + in_b.size() - 2 * common;
}

// The present strings of a text column, and whether any value is missing
// (all missing values are one element, NaN, which equals no string).
struct PresentText {
  std::vector<std::string_view> values;
  bool any_missing = false;
};
PresentText SplitMissing(std::span<const std::string_view> text) {
  PresentText present;
  present.values.reserve(text.size());
  for (const std::string_view value : text) {
    if (TypedColumn::IsMissingText(value)) {
      present.any_missing = true;
    } else {
      present.values.push_back(value);
    }
  }
  return present;
}

}  // namespace

size_t SymmetricDifferenceSize(const TypedColumn& a, const TypedColumn& b) {
  using Storage = TypedColumn::Storage;
  // Python's set equality within one kind of storage: ints by value, strings
  // by content. Anything else (numbers of two dtypes, bools, cells) goes
  // through the cells' keys.
  if (a.storage() == Storage::kInt64 && b.storage() == Storage::kInt64) {
    return DistinctSymmetricDifferenceSize(a.ints(), b.ints());
  }
  if (a.storage() == Storage::kText && b.storage() == Storage::kText) {
    const PresentText present_a = SplitMissing(a.text());
    const PresentText present_b = SplitMissing(b.text());
    return DistinctSymmetricDifferenceSize(std::span<const std::string_view>(present_a.values),
                                           std::span<const std::string_view>(present_b.values)) +
           (present_a.any_missing != present_b.any_missing ? 1 : 0);
  }
  return SymmetricDifferenceSize(a.ToColumn(), b.ToColumn());
}

size_t SymmetricDifferenceSize(const Column& a, const Column& b) {
  std::set<std::string> ka;
  std::set<std::string> kb;
  for (const Cell& c : a.cells) ka.insert(SetKey(c));
  for (const Cell& c : b.cells) kb.insert(SetKey(c));
  std::vector<std::string> diff;
  std::set_symmetric_difference(ka.begin(), ka.end(), kb.begin(), kb.end(),
                                std::back_inserter(diff));
  return diff.size();
}

}  // namespace mlebench
