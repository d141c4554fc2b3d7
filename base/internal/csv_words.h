// Word-at-a-time byte tests shared by the CSV reader's tokenizer (base/csv.cc)
// and its regular-file path (csv_regular.cc): eight bytes per step, with no
// library call. Not for other callers.
#ifndef MLEBENCH_BASE_INTERNAL_CSV_WORDS_H_
#define MLEBENCH_BASE_INTERNAL_CSV_WORDS_H_

#include <cstddef>
#include <cstdint>

namespace mlebench::csv_internal {

// 0x80 in each byte of `word` that is zero, 0 elsewhere (exact, unlike the
// shorter test that may flag a byte above a zero one).
inline uint64_t ZeroBytes(uint64_t word) {
  constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7Full;
  return ~(((word & kLow7) + kLow7) | word | kLow7);
}

inline uint64_t Broadcast(char c) {
  return 0x0101010101010101ull * static_cast<unsigned char>(c);
}

// The number of bytes ZeroBytes marked in `marks`: one 0x01 per marked byte,
// summed into the top byte (the popcnt instruction is not in the baseline
// x86-64 this is built for; the library call is slower).
inline size_t CountMarkedBytes(uint64_t marks) {
  return static_cast<size_t>(((marks >> 7) * 0x0101010101010101ull) >> 56);
}

}  // namespace mlebench::csv_internal

#endif  // MLEBENCH_BASE_INTERNAL_CSV_WORDS_H_
