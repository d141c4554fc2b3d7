#include "pycompat/numpy_default_rng.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace mlebench {
namespace {

// SeedSequence's hashing constants (numpy/random/bit_generator.pyx).
constexpr uint32_t kInitA = 0x43b0d7e5;
constexpr uint32_t kMultA = 0x931e8875;
constexpr uint32_t kInitB = 0x8b51f9dd;
constexpr uint32_t kMultB = 0x58f38ded;
constexpr uint32_t kMixMultL = 0xca01f9dd;
constexpr uint32_t kMixMultR = 0x4973f715;
constexpr int kXShift = 16;
constexpr size_t kPoolSize = 4;

uint32_t HashMix(uint32_t value, uint32_t& hash_const) {
  value ^= hash_const;
  hash_const *= kMultA;
  value *= hash_const;
  value ^= value >> kXShift;
  return value;
}

uint32_t Mix(uint32_t x, uint32_t y) {
  uint32_t result = kMixMultL * x - kMixMultR * y;
  result ^= result >> kXShift;
  return result;
}

// SeedSequence(seed).generate_state(4, np.uint64).
std::array<uint64_t, 4> SeedSequenceState(uint64_t seed) {
  // The seed as little-endian 32-bit words; 0 is one zero word.
  std::vector<uint32_t> entropy = {static_cast<uint32_t>(seed)};
  if (seed >> 32 != 0) entropy.push_back(static_cast<uint32_t>(seed >> 32));

  std::array<uint32_t, kPoolSize> pool{};
  uint32_t hash_const = kInitA;
  for (size_t i = 0; i < kPoolSize; ++i) {
    pool[i] = HashMix(i < entropy.size() ? entropy[i] : 0u, hash_const);
  }
  for (size_t src = 0; src < kPoolSize; ++src) {
    for (size_t dst = 0; dst < kPoolSize; ++dst) {
      if (src != dst) pool[dst] = Mix(pool[dst], HashMix(pool[src], hash_const));
    }
  }
  for (size_t src = kPoolSize; src < entropy.size(); ++src) {
    for (size_t dst = 0; dst < kPoolSize; ++dst) {
      pool[dst] = Mix(pool[dst], HashMix(entropy[src], hash_const));
    }
  }

  std::array<uint32_t, 8> words{};
  uint32_t state_const = kInitB;
  for (size_t i = 0; i < words.size(); ++i) {
    uint32_t value = pool[i % kPoolSize];
    value ^= state_const;
    state_const *= kMultB;
    value *= state_const;
    value ^= value >> kXShift;
    words[i] = value;
  }
  std::array<uint64_t, 4> state{};
  for (size_t i = 0; i < state.size(); ++i) {
    state[i] = uint64_t{words[2 * i]} | (uint64_t{words[2 * i + 1]} << 32);
  }
  return state;
}

constexpr unsigned __int128 kPcgMultiplier =
    (static_cast<unsigned __int128>(0x2360ED051FC65DA4ULL) << 64) | 0x4385DF649FCCF645ULL;

}  // namespace

NumpyDefaultRng::NumpyDefaultRng(uint64_t seed) {
  const std::array<uint64_t, 4> words = SeedSequenceState(seed);
  const unsigned __int128 initial = (static_cast<unsigned __int128>(words[0]) << 64) | words[1];
  const unsigned __int128 sequence = (static_cast<unsigned __int128>(words[2]) << 64) | words[3];
  // pcg_setseq_128_srandom_r.
  increment_ = (sequence << 1) | 1u;
  state_ = 0;
  state_ = state_ * kPcgMultiplier + increment_;
  state_ += initial;
  state_ = state_ * kPcgMultiplier + increment_;
}

uint64_t NumpyDefaultRng::NextUint64() {
  state_ = state_ * kPcgMultiplier + increment_;
  const uint64_t high = static_cast<uint64_t>(state_ >> 64);
  const uint64_t low = static_cast<uint64_t>(state_);
  const unsigned rotation = static_cast<unsigned>(high >> 58);
  const uint64_t x = high ^ low;
  return (x >> rotation) | (x << ((64 - rotation) & 63));
}

double NumpyDefaultRng::Random() {
  return static_cast<double>(NextUint64() >> 11) * (1.0 / 9007199254740992.0);
}

std::vector<double> NumpyDefaultRng::Uniform(double low, double high, size_t n) {
  std::vector<double> values(n);
  const double range = high - low;
  for (double& v : values) v = low + range * Random();
  return values;
}

}  // namespace mlebench
