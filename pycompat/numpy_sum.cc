#include "pycompat/numpy_sum.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

#include "base/parallel.h"

namespace mlebench {
namespace {

// numpy's pairwise_sum for float64 (numpy/core/src/umath/loops_utils.h.src),
// restated: the same additions in the same order.
double PairwiseSum(const double* a, size_t n) {
  if (n < 8) {
    double res = 0.0;
    for (size_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= 128) {
    double r[8];
    for (int j = 0; j < 8; ++j) r[j] = a[j];
    size_t i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (int j = 0; j < 8; ++j) r[j] += a[i + j];
    }
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  size_t n2 = n / 2;
  n2 -= n2 % 8;
  return PairwiseSum(a, n2) + PairwiseSum(a + n2, n - n2);
}

}  // namespace

double NumpySum(absl::Span<const double> values) {
  double total = 0.0;
  for (size_t start = 0; start < values.size(); start += kNumpyReduceBlock) {
    const size_t len = std::min(kNumpyReduceBlock, values.size() - start);
    total += PairwiseSum(values.data() + start, len);
  }
  return total;
}

double NumpySumInOrder(absl::Span<const double> values, absl::Span<const size_t> order) {
  const size_t blocks = (order.size() + kNumpyReduceBlock - 1) / kNumpyReduceBlock;
  std::vector<double> block_sums(blocks);
  const auto sum_blocks = [&](size_t first, size_t end) {
    std::vector<double> buffer(kNumpyReduceBlock);
    for (size_t b = first; b < end; ++b) {
      const size_t start = b * kNumpyReduceBlock;
      const size_t len = std::min(kNumpyReduceBlock, order.size() - start);
      for (size_t i = 0; i < len; ++i) buffer[i] = values[order[start + i]];
      block_sums[b] = PairwiseSum(buffer.data(), len);
    }
  };
  // From this many blocks on (131,072 values), two threads.
  constexpr size_t kBlocksForAThread = 16;
  if (blocks >= kBlocksForAThread) {
    RunInParallel(2, [&](size_t half) {
      half == 0 ? sum_blocks(0, blocks / 2) : sum_blocks(blocks / 2, blocks);
    });
  } else {
    sum_blocks(0, blocks);
  }
  double total = 0.0;
  for (const double block_sum : block_sums) total += block_sum;
  return total;
}

double NumpyMean(absl::Span<const double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  return NumpySum(values) / static_cast<double>(values.size());
}

}  // namespace mlebench
