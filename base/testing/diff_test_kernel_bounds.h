#ifndef MLEBENCH_BASE_TESTING_DIFF_TEST_KERNEL_BOUNDS_H_
#define MLEBENCH_BASE_TESTING_DIFF_TEST_KERNEL_BOUNDS_H_

// Testonly: how far numpy's SIMD kernels can move a reference score away from
// the one its baseline kernels (glibc's libm, as our C++) give. Differential
// tests run their numpy reference with both (base/testing/numpy_kernels.h):
// baseline results must be ours bit for bit; machine results must lie within
// the bound these pieces add up to, case by case.

#include <cmath>
#include <cstddef>
#include <limits>

namespace mlebench::testing {

// The largest difference, in ulps of the result, between numpy 1.24's SVML
// kernels (AVX512_SKX) and glibc's, measured over 1e5 random float64
// arguments per function on an AVX-512 machine. Functions not listed (+, -,
// *, /, sqrt, abs, clip, sums) gave the same bits.
inline constexpr double kSvmlSinCosUlps = 3;
inline constexpr double kSvmlArccosUlps = 2;
inline constexpr double kSvmlLogUlps = 2;  // np.log and np.log1p

// The distance from |x| to the next larger double.
inline double Ulp(double x) {
  x = std::fabs(x);
  return std::nextafter(x, std::numeric_limits<double>::infinity()) - x;
}

// How far two of numpy's pairwise sums (np.sum, np.mean, np.average) of n
// terms, taken in the same order of terms that moved, can differ beyond the
// terms' own moves: each rounds at most `depth` times on the way from a term
// to the total, half an ulp each - up to 16 additions in one of the eight
// accumulators of a 128-term block, 3 to combine them, one per halving above
// 128 - so each is within depth * eps/2 * sum_abs of its exact sum.
inline double NumpySumRounding(size_t n, double sum_abs) {
  const double halvings = n > 128 ? std::ceil(std::log2(static_cast<double>(n) / 128)) : 0;
  return (19 + halvings) * std::numeric_limits<double>::epsilon() * sum_abs;
}

}  // namespace mlebench::testing

#endif  // MLEBENCH_BASE_TESTING_DIFF_TEST_KERNEL_BOUNDS_H_
