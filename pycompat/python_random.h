#ifndef MLEBENCH_PYCOMPAT_PYTHON_RANDOM_H_
#define MLEBENCH_PYCOMPAT_PYTHON_RANDOM_H_

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "base/status_macros.h"

namespace mlebench {

// CPython's `random.Random` (the Mersenne Twister behind the `random`
// module), bit-exact with CPython 3.11 for integer seeds, for preparers whose
// upstream code calls `random.Random(seed).shuffle(...)`, `random.seed(n)` +
// `random.sample(...)` and the like. The module-level functions after
// `random.seed(n)` draw from one such generator, so they are this class too.
//
// Covered: Random(n)/seed(n) for |n| < 2**64 (CPython seeds init_by_array
// with the 32-bit words of abs(n), least significant first; 0 is one zero
// word), random(), getrandbits(k) for k <= 64, _randbelow (rejection
// sampling with getrandbits(n.bit_length())), randrange, randint, choice,
// shuffle and sample (without `counts`). Not covered: str/bytes/float/None
// seeds, seeds of 64 bits or more, gauss and the other distributions.
// Python 3.12 draws the same values for everything here: its seeding,
// getrandbits, _randbelow, shuffle and sample are unchanged; it only turns
// randrange's deprecated float arguments into TypeErrors (not expressible
// with these integer signatures) and rewords randrange's error messages.
//
// Errors that Python raises as ValueError/IndexError are
// InvalidArgumentError with Python's message.
class PythonRandom {
 public:
  // `random.Random(seed)`.
  explicit PythonRandom(int64_t seed) { Seed(seed); }

  // `seed(seed)`: restarts the stream as a new Random(seed) would.
  void Seed(int64_t seed);

  // `random()`: a double in [0, 1) with 53 random bits.
  double Random();

  // `getrandbits(k)` for 0 <= k <= 64 (k outside is InvalidArgumentError).
  absl::StatusOr<uint64_t> GetRandBits(int k);

  // `_randbelow(n)`: uniform in [0, n); n must be > 0 (n == 0 returns 0
  // without drawing, where CPython would loop on getrandbits(0) forever).
  uint64_t RandBelow(uint64_t n);

  // `randrange(stop)`, `randrange(start, stop[, step])` and `randint(a, b)`
  // (= randrange(a, b + 1)). Empty ranges and step 0 are errors; ranges with
  // 2**64 or more candidates are InvalidArgumentError (unsupported here).
  absl::StatusOr<int64_t> RandRange(int64_t stop);
  absl::StatusOr<int64_t> RandRange(int64_t start, int64_t stop, int64_t step = 1);
  absl::StatusOr<int64_t> RandInt(int64_t a, int64_t b);

  // `choice(seq)` for a sequence of `size` items: the index it picks.
  // An empty sequence is an error (Python's IndexError).
  absl::StatusOr<int64_t> ChoiceIndex(int64_t size);

  // `shuffle(x)`, in place.
  template <typename T>
  void Shuffle(std::vector<T>& x) {
    for (size_t i = x.size(); i-- > 1;) {
      const size_t j = static_cast<size_t>(RandBelow(i + 1));
      using std::swap;
      swap(x[i], x[j]);
    }
  }

  // `sample(range(population_size), k)`: the positions sample() picks from a
  // population of that size, in the order it returns them. Uses CPython's
  // two algorithms and its rule between them: a partial shuffle of a pool
  // copy when population_size <= 21 (+ 4**ceil(log(3k, 4)) when k > 5),
  // otherwise rejection of repeats against a set of picked positions.
  // k outside [0, population_size] is an error.
  absl::StatusOr<std::vector<int64_t>> SampleIndices(int64_t population_size, int64_t k);

  // `sample(population, k)`.
  template <typename T>
  absl::StatusOr<std::vector<T>> Sample(const std::vector<T>& population, int64_t k) {
    ASSIGN_OR_RETURN(std::vector<int64_t> indices,
                     SampleIndices(static_cast<int64_t>(population.size()), k));
    std::vector<T> result;
    result.reserve(indices.size());
    for (int64_t i : indices) result.push_back(population[static_cast<size_t>(i)]);
    return result;
  }

 private:
  uint32_t NextUint32();
  void InitGenrand(uint32_t s);
  void InitByArray(const std::vector<uint32_t>& key);
  uint64_t BitsUpTo64(int k);

  static constexpr int kN = 624;
  std::array<uint32_t, kN> state_{};
  int index_ = kN + 1;
};

}  // namespace mlebench

#endif  // MLEBENCH_PYCOMPAT_PYTHON_RANDOM_H_
