#include "synthetic/rng.h"

#include <cmath>

namespace mlebench {
namespace {

constexpr uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ULL;

uint64_t Mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace

SyntheticRng SyntheticRng::Fork(uint64_t stream) const {
  // Hash (seed, stream) into a new seed; mixing twice decorrelates nearby
  // streams of nearby seeds.
  return SyntheticRng(Mix(Mix(seed_ ^ Mix(stream + kGoldenGamma)) + kGoldenGamma));
}

uint64_t SyntheticRng::Next() {
  state_ += kGoldenGamma;
  return Mix(state_);
}

double SyntheticRng::Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

uint64_t SyntheticRng::UniformInt(uint64_t n) {
  // 2^64 mod n, computed in 64 bits; outputs below it are rejected.
  const uint64_t threshold = (0 - n) % n;
  while (true) {
    const uint64_t x = Next();
    if (x >= threshold) return x % n;
  }
}

int64_t SyntheticRng::UniformInt(int64_t lo, int64_t hi) {
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
  if (span == 0) return static_cast<int64_t>(Next());  // the full 64-bit range
  return static_cast<int64_t>(static_cast<uint64_t>(lo) + UniformInt(span));
}

double SyntheticRng::Normal(double mean, double stddev) {
  while (true) {
    const double u = 2.0 * Uniform() - 1.0;
    const double v = 2.0 * Uniform() - 1.0;
    const double s = u * u + v * v;
    if (s > 0.0 && s < 1.0) return mean + stddev * u * std::sqrt(-2.0 * std::log(s) / s);
  }
}

size_t SyntheticRng::Categorical(const std::vector<double>& weights) {
  double total = 0.0;
  for (double w : weights) total += w;
  const double target = Uniform() * total;
  double cumulative = 0.0;
  for (size_t i = 0; i < weights.size(); ++i) {
    cumulative += weights[i];
    if (target < cumulative) return i;
  }
  // Rounding can leave `target` at the very top; give the last positive weight.
  for (size_t i = weights.size(); i > 0; --i) {
    if (weights[i - 1] > 0) return i - 1;
  }
  return 0;
}

std::string SyntheticRng::Hex(int n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex(n, '0');
  for (char& c : hex) c = kDigits[UniformInt(16)];
  return hex;
}

}  // namespace mlebench
