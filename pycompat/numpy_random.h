#ifndef MLEBENCH_PYCOMPAT_NUMPY_RANDOM_H_
#define MLEBENCH_PYCOMPAT_NUMPY_RANDOM_H_

#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// numpy's legacy `np.random.RandomState` (MT19937), draw for draw: the same
// seed gives the same sequence of every method below as numpy >= 1.17 (whose
// legacy paths are frozen for backward compatibility). Upstream's preparers
// get their randomness from it through scikit-learn's `random_state=<int>`.
class NumpyRandomState {
 public:
  // `RandomState(seed)`; numpy accepts integer seeds in [0, 2**32 - 1] only.
  static absl::StatusOr<NumpyRandomState> Create(int64_t seed);
  // Same, for a seed already known to be in range.
  explicit NumpyRandomState(uint32_t seed);

  // One raw 32-bit MT19937 output.
  uint32_t NextUint32();
  // Two outputs, the first in the high half (numpy's next_uint64).
  uint64_t NextUint64();

  // `random_sample()` / `rand()`: a double in [0, 1) with 53 random bits.
  double RandomSample();
  // `random_sample(n)`.
  std::vector<double> RandomSample(size_t n);

  // `randint(low, high)` with the default int64 dtype: uniform in
  // [low, high) by masked rejection sampling (32-bit draws when the range
  // fits in 32 bits). InvalidArgumentError if low >= high, as numpy's
  // "low >= high" ValueError.
  absl::StatusOr<int64_t> RandInt(int64_t low, int64_t high);
  // `randint(low, high, size=n)`: the same draws, n times.
  absl::StatusOr<std::vector<int64_t>> RandInt(int64_t low, int64_t high, size_t n);

  // numpy's `random_interval(max)`: uniform in [0, max], by rejection on the
  // smallest all-ones mask >= max. The draw behind `shuffle`.
  uint64_t RandomInterval(uint64_t max);

  // `shuffle(values)` for a 1-d array or list: Fisher-Yates from the end,
  // swapping position i with RandomInterval(i) for i = n-1 down to 1.
  template <typename T>
  void Shuffle(std::span<T> values) {
    for (size_t i = values.size(); i-- > 1;) {
      const uint64_t j = RandomInterval(i);
      std::swap(values[i], values[j]);
    }
  }

  // `permutation(n)`: shuffle of [0, 1, ..., n-1].
  std::vector<int64_t> Permutation(size_t n);

 private:
  void Regenerate();

  std::array<uint32_t, 624> key_;
  int pos_;
};

}  // namespace mlebench

#endif  // MLEBENCH_PYCOMPAT_NUMPY_RANDOM_H_
