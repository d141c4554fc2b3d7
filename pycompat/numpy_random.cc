#include "pycompat/numpy_random.h"

#include <numeric>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace mlebench {
namespace {

constexpr int kStateSize = 624;
constexpr int kShift = 397;
constexpr uint32_t kMatrixA = 0x9908b0dfu;
constexpr uint32_t kUpperMask = 0x80000000u;
constexpr uint32_t kLowerMask = 0x7fffffffu;

uint32_t Twist(uint32_t upper_word, uint32_t lower_word, uint32_t shifted_word) {
  const uint32_t y = (upper_word & kUpperMask) | (lower_word & kLowerMask);
  return shifted_word ^ (y >> 1) ^ ((0u - (y & 1u)) & kMatrixA);
}

// The smallest all-ones bit mask >= `max`.
uint64_t MaskAtLeast(uint64_t max) {
  uint64_t mask = max;
  mask |= mask >> 1;
  mask |= mask >> 2;
  mask |= mask >> 4;
  mask |= mask >> 8;
  mask |= mask >> 16;
  mask |= mask >> 32;
  return mask;
}

}  // namespace

absl::StatusOr<NumpyRandomState> NumpyRandomState::Create(int64_t seed) {
  if (seed < 0 || seed > int64_t{0xffffffff}) {
    return absl::InvalidArgumentError(
        absl::StrCat("seed must be between 0 and 2**32 - 1, got ", seed));
  }
  return NumpyRandomState(static_cast<uint32_t>(seed));
}

// MT19937's init_genrand, as numpy's mt19937_seed.
NumpyRandomState::NumpyRandomState(uint32_t seed) {
  uint32_t value = seed;
  for (int i = 0; i < kStateSize; ++i) {
    key_[i] = value;
    value = 1812433253u * (value ^ (value >> 30)) + static_cast<uint32_t>(i + 1);
  }
  pos_ = kStateSize;
}

void NumpyRandomState::Regenerate() {
  int i = 0;
  for (; i < kStateSize - kShift; ++i) key_[i] = Twist(key_[i], key_[i + 1], key_[i + kShift]);
  for (; i < kStateSize - 1; ++i) {
    key_[i] = Twist(key_[i], key_[i + 1], key_[i + kShift - kStateSize]);
  }
  key_[kStateSize - 1] = Twist(key_[kStateSize - 1], key_[0], key_[kShift - 1]);
  pos_ = 0;
}

uint32_t NumpyRandomState::NextUint32() {
  if (pos_ == kStateSize) Regenerate();
  uint32_t y = key_[pos_++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

uint64_t NumpyRandomState::NextUint64() {
  const uint64_t high = NextUint32();
  return (high << 32) | NextUint32();
}

double NumpyRandomState::RandomSample() {
  const int32_t a = static_cast<int32_t>(NextUint32() >> 5);
  const int32_t b = static_cast<int32_t>(NextUint32() >> 6);
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

std::vector<double> NumpyRandomState::RandomSample(size_t n) {
  std::vector<double> out(n);
  for (double& x : out) x = RandomSample();
  return out;
}

absl::StatusOr<int64_t> NumpyRandomState::RandInt(int64_t low, int64_t high) {
  ASSIGN_OR_RETURN(std::vector<int64_t> one, RandInt(low, high, 1));
  return (one)[0];
}

absl::StatusOr<std::vector<int64_t>> NumpyRandomState::RandInt(int64_t low, int64_t high,
                                                              size_t n) {
  if (low >= high) {
    return absl::InvalidArgumentError(absl::StrCat("randint: low >= high (", low, " >= ", high, ")"));
  }
  // numpy's random_bounded_uint64_fill with use_masked = true over the closed
  // range [low, high - 1]; values are offsets from `low` in two's complement.
  const uint64_t range = static_cast<uint64_t>(high - 1) - static_cast<uint64_t>(low);
  const uint64_t offset = static_cast<uint64_t>(low);
  std::vector<int64_t> out(n);
  for (int64_t& x : out) {
    uint64_t value;
    if (range == 0) {
      value = 0;
    } else if (range <= 0xffffffffu) {
      const uint32_t mask = static_cast<uint32_t>(MaskAtLeast(range));
      while ((value = NextUint32() & mask) > range) {
      }
    } else {
      const uint64_t mask = MaskAtLeast(range);
      while ((value = NextUint64() & mask) > range) {
      }
    }
    x = static_cast<int64_t>(offset + value);
  }
  return out;
}

uint64_t NumpyRandomState::RandomInterval(uint64_t max) {
  if (max == 0) return 0;
  const uint64_t mask = MaskAtLeast(max);
  uint64_t value;
  if (max <= 0xffffffffu) {
    while ((value = NextUint32() & mask) > max) {
    }
  } else {
    while ((value = NextUint64() & mask) > max) {
    }
  }
  return value;
}

std::vector<int64_t> NumpyRandomState::Permutation(size_t n) {
  std::vector<int64_t> values(n);
  std::iota(values.begin(), values.end(), int64_t{0});
  Shuffle(std::span<int64_t>(values));
  return values;
}

}  // namespace mlebench
