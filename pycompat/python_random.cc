#include "pycompat/python_random.h"

#include <cmath>
#include <cstdint>
#include <unordered_set>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace mlebench {
namespace {

constexpr int kM = 397;
constexpr uint32_t kMatrixA = 0x9908b0dfu;
constexpr uint32_t kUpperMask = 0x80000000u;
constexpr uint32_t kLowerMask = 0x7fffffffu;

// Number of bits in `n` (Python's int.bit_length()).
int BitLength(uint64_t n) { return n == 0 ? 0 : 64 - __builtin_clzll(n); }

}  // namespace

void PythonRandom::InitGenrand(uint32_t s) {
  state_[0] = s;
  for (int i = 1; i < kN; ++i) {
    state_[i] = 1812433253u * (state_[i - 1] ^ (state_[i - 1] >> 30)) + static_cast<uint32_t>(i);
  }
  index_ = kN;
}

void PythonRandom::InitByArray(const std::vector<uint32_t>& key) {
  InitGenrand(19650218u);
  int i = 1;
  size_t j = 0;
  const size_t key_length = key.size();
  for (size_t k = (kN > key_length ? kN : key_length); k; --k) {
    state_[i] = (state_[i] ^ ((state_[i - 1] ^ (state_[i - 1] >> 30)) * 1664525u)) + key[j] +
                static_cast<uint32_t>(j);
    ++i;
    ++j;
    if (i >= kN) {
      state_[0] = state_[kN - 1];
      i = 1;
    }
    if (j >= key_length) j = 0;
  }
  for (int k = kN - 1; k; --k) {
    state_[i] = (state_[i] ^ ((state_[i - 1] ^ (state_[i - 1] >> 30)) * 1566083941u)) -
                static_cast<uint32_t>(i);
    ++i;
    if (i >= kN) {
      state_[0] = state_[kN - 1];
      i = 1;
    }
  }
  state_[0] = 0x80000000u;  // MSB is 1, assuring a non-zero initial array.
}

void PythonRandom::Seed(int64_t seed) {
  // abs() without overflow for INT64_MIN.
  const uint64_t magnitude =
      seed < 0 ? uint64_t{0} - static_cast<uint64_t>(seed) : static_cast<uint64_t>(seed);
  std::vector<uint32_t> key = {static_cast<uint32_t>(magnitude)};
  if ((magnitude >> 32) != 0) key.push_back(static_cast<uint32_t>(magnitude >> 32));
  InitByArray(key);
}

uint32_t PythonRandom::NextUint32() {
  if (index_ >= kN) {
    int kk = 0;
    for (; kk < kN - kM; ++kk) {
      const uint32_t y = (state_[kk] & kUpperMask) | (state_[kk + 1] & kLowerMask);
      state_[kk] = state_[kk + kM] ^ (y >> 1) ^ ((y & 1u) ? kMatrixA : 0u);
    }
    for (; kk < kN - 1; ++kk) {
      const uint32_t y = (state_[kk] & kUpperMask) | (state_[kk + 1] & kLowerMask);
      state_[kk] = state_[kk + (kM - kN)] ^ (y >> 1) ^ ((y & 1u) ? kMatrixA : 0u);
    }
    const uint32_t y = (state_[kN - 1] & kUpperMask) | (state_[0] & kLowerMask);
    state_[kN - 1] = state_[kM - 1] ^ (y >> 1) ^ ((y & 1u) ? kMatrixA : 0u);
    index_ = 0;
  }
  uint32_t y = state_[index_++];
  y ^= (y >> 11);
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= (y >> 18);
  return y;
}

double PythonRandom::Random() {
  const uint32_t a = NextUint32() >> 5;
  const uint32_t b = NextUint32() >> 6;
  return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

uint64_t PythonRandom::BitsUpTo64(int k) {
  if (k == 0) return 0;
  if (k <= 32) return NextUint32() >> (32 - k);
  // CPython fills 32-bit words least significant first and drops the low
  // bits of the last word's draw.
  const uint64_t low = NextUint32();
  const uint64_t high = NextUint32() >> (64 - k);
  return low | (high << 32);
}

absl::StatusOr<uint64_t> PythonRandom::GetRandBits(int k) {
  if (k < 0) return absl::InvalidArgumentError("number of bits must be non-negative");
  if (k > 64) return absl::InvalidArgumentError("getrandbits: more than 64 bits is not supported");
  return BitsUpTo64(k);
}

uint64_t PythonRandom::RandBelow(uint64_t n) {
  if (n == 0) return 0;
  const int k = BitLength(n);
  uint64_t r = BitsUpTo64(k);
  while (r >= n) r = BitsUpTo64(k);
  return r;
}

absl::StatusOr<int64_t> PythonRandom::RandRange(int64_t stop) {
  if (stop > 0) return static_cast<int64_t>(RandBelow(static_cast<uint64_t>(stop)));
  return absl::InvalidArgumentError("empty range for randrange()");
}

absl::StatusOr<int64_t> PythonRandom::RandRange(int64_t start, int64_t stop, int64_t step) {
  const __int128 width = static_cast<__int128>(stop) - start;
  __int128 n;
  if (step == 1) {
    if (width <= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("empty range for randrange() (", start, ", ", stop, ", ",
                       static_cast<int64_t>(width), ")"));
    }
    n = width;
  } else {
    if (step == 0) return absl::InvalidArgumentError("zero step for randrange()");
    // Python's floor division of (width + step -/+ 1) by step.
    const __int128 numerator = step > 0 ? width + step - 1 : width + step + 1;
    __int128 q = numerator / step;
    if ((numerator % step != 0) && ((numerator < 0) != (step < 0))) --q;
    n = q;
    if (n <= 0) return absl::InvalidArgumentError("empty range for randrange()");
  }
  if (n > static_cast<__int128>(UINT64_MAX)) {
    return absl::InvalidArgumentError("randrange: 2**64 or more candidates is not supported");
  }
  const __int128 value =
      start + static_cast<__int128>(step) * RandBelow(static_cast<uint64_t>(n));
  return static_cast<int64_t>(value);  // within [start, stop), so fits
}

absl::StatusOr<int64_t> PythonRandom::RandInt(int64_t a, int64_t b) {
  if (b == INT64_MAX) {
    // randrange(a, b + 1) with b + 1 past int64: the same draw, done directly.
    const __int128 width = static_cast<__int128>(b) + 1 - a;
    if (width > static_cast<__int128>(UINT64_MAX)) {
      return absl::InvalidArgumentError("randint: 2**64 or more candidates is not supported");
    }
    return static_cast<int64_t>(a + static_cast<__int128>(RandBelow(static_cast<uint64_t>(width))));
  }
  return RandRange(a, b + 1);
}

absl::StatusOr<int64_t> PythonRandom::ChoiceIndex(int64_t size) {
  if (size <= 0) return absl::InvalidArgumentError("Cannot choose from an empty sequence");
  return static_cast<int64_t>(RandBelow(static_cast<uint64_t>(size)));
}

absl::StatusOr<std::vector<int64_t>> PythonRandom::SampleIndices(int64_t n, int64_t k) {
  if (n < 0 || k < 0 || k > n) {
    return absl::InvalidArgumentError("Sample larger than population or is negative");
  }
  std::vector<int64_t> result(static_cast<size_t>(k));
  // setsize = 21 + 4 ** ceil(math.log(k * 3, 4)) for k > 5, where math.log
  // with a base is log(x) / log(base) in doubles.
  unsigned __int128 setsize = 21;
  if (k > 5) {
    const double exponent =
        std::ceil(std::log(static_cast<double>(static_cast<__int128>(k) * 3)) / std::log(4.0));
    setsize += static_cast<unsigned __int128>(1) << (2 * static_cast<int>(exponent));
  }
  if (static_cast<unsigned __int128>(n) <= setsize) {
    std::vector<int64_t> pool(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) pool[static_cast<size_t>(i)] = i;
    for (int64_t i = 0; i < k; ++i) {
      const uint64_t j = RandBelow(static_cast<uint64_t>(n - i));
      result[static_cast<size_t>(i)] = pool[j];
      pool[j] = pool[static_cast<size_t>(n - i - 1)];
    }
  } else {
    std::unordered_set<int64_t> selected;
    selected.reserve(static_cast<size_t>(k));
    for (int64_t i = 0; i < k; ++i) {
      int64_t j = static_cast<int64_t>(RandBelow(static_cast<uint64_t>(n)));
      while (selected.count(j) != 0) j = static_cast<int64_t>(RandBelow(static_cast<uint64_t>(n)));
      selected.insert(j);
      result[static_cast<size_t>(i)] = j;
    }
  }
  return result;
}

}  // namespace mlebench
