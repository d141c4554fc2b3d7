#ifndef MLEBENCH_PYCOMPAT_NUMPY_DEFAULT_RNG_H_
#define MLEBENCH_PYCOMPAT_NUMPY_DEFAULT_RNG_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mlebench {

// numpy's `np.random.default_rng(seed)` for a non-negative integer seed, as
// far as upstream's preparers draw from it: a PCG64 bit generator
// (128-bit LCG, XSL-RR output) seeded through SeedSequence(seed)'s
// generate_state(4, uint64), Generator.random() and Generator.uniform().
// Draw for draw equal to numpy >= 1.17 (checked against Debian's numpy in the
// test). The legacy RandomState is in numpy_random.h.
class NumpyDefaultRng {
 public:
  explicit NumpyDefaultRng(uint64_t seed);

  // PCG64's next 64-bit output (step, then XSL-RR of the new state).
  uint64_t NextUint64();

  // `Generator.random()`: the top 53 bits of NextUint64() times 2^-53.
  double Random();

  // `Generator.uniform(low, high, n)`: low + (high - low) * Random(), n times.
  std::vector<double> Uniform(double low, double high, size_t n);

 private:
  unsigned __int128 state_ = 0;
  unsigned __int128 increment_ = 0;
};

}  // namespace mlebench

#endif  // MLEBENCH_PYCOMPAT_NUMPY_DEFAULT_RNG_H_
