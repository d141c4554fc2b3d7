#ifndef MLEBENCH_SYNTHETIC_RNG_H_
#define MLEBENCH_SYNTHETIC_RNG_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mlebench {

// The random source of the synthetic-data generators. Its every output is
// defined here, not by a standard library, so that a seed gives the same data
// with any compiler and library (std::normal_distribution and friends differ
// between libstdc++ and libc++):
//  - the core generator is SplitMix64 (Steele, Lea & Flood 2014): the state
//    advances by 0x9E3779B97F4A7C15 and each output is the state passed
//    through the mixing function `z ^= z >> 30; z *= 0xBF58476D1CE4E5B9;
//    z ^= z >> 27; z *= 0x94D049BB133111EB; z ^= z >> 31`;
//  - Uniform() is the top 53 bits of one output times 2^-53, in [0, 1);
//  - UniformInt(n) rejects outputs >= the largest multiple of n below 2^64
//    and returns output % n, so it is unbiased;
//  - Normal() is Marsaglia's polar method on pairs of Uniform()s mapped to
//    [-1, 1), returning the first value of the accepted pair (the second is
//    dropped, so no hidden state is carried); it needs std::sqrt (correctly
//    rounded) and std::log, which is not: glibc's FMA variant rounds some
//    arguments otherwise, so the generators run with it masked
//    (base/baseline_libm.h).
class SyntheticRng {
 public:
  explicit SyntheticRng(uint64_t seed) : seed_(seed), state_(seed) {}

  // A generator for a sub-task (e.g. the test split): its stream depends on
  // this one's seed and `stream` only, not on how much this one was used.
  SyntheticRng Fork(uint64_t stream) const;

  // The next raw 64-bit output.
  uint64_t Next();
  // Uniform in [0, 1).
  double Uniform();
  // Uniform in [lo, hi).
  double Uniform(double lo, double hi) { return lo + (hi - lo) * Uniform(); }
  // Uniform in {0, ..., n - 1}; n must be positive.
  uint64_t UniformInt(uint64_t n);
  // Uniform in {lo, ..., hi}; lo <= hi.
  int64_t UniformInt(int64_t lo, int64_t hi);
  // True with probability p.
  bool Bernoulli(double p) { return Uniform() < p; }
  // Normal with the given mean and standard deviation.
  double Normal(double mean = 0.0, double stddev = 1.0);
  // An index drawn with probability proportional to `weights` (non-negative,
  // not all zero).
  size_t Categorical(const std::vector<double>& weights);
  // `n` lowercase hexadecimal digits.
  std::string Hex(int n);

  template <typename T>
  const T& Choice(const std::vector<T>& items) {
    return items[UniformInt(items.size())];
  }
  // Fisher-Yates, from the last position down.
  template <typename T>
  void Shuffle(std::vector<T>& items) {
    for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[UniformInt(i)]);
  }

 private:
  uint64_t seed_;
  uint64_t state_;
};

}  // namespace mlebench

#endif  // MLEBENCH_SYNTHETIC_RNG_H_
