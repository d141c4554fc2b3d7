#ifndef MLEBENCH_PYCOMPAT_NUMPY_SUM_H_
#define MLEBENCH_PYCOMPAT_NUMPY_SUM_H_

#include <cstddef>
#include <vector>

#include "absl/types/span.h"

namespace mlebench {

// The block size of numpy's reductions. NumpySum(a) equals the left-to-right
// sum, from 0.0, of NumpySum over consecutive blocks of this many elements,
// so long inputs can be summed block by block without being stored.
inline constexpr size_t kNumpyReduceBlock = 8192;

// numpy's `np.sum` of a contiguous 1-D float64 array, bit for bit: numpy's
// reduction hands its add loop blocks of at most 8192 elements (the ufunc
// buffer size); each block is summed pairwise (8 interleaved accumulators up
// to 128 elements, halving above that) and the block sums are added left to
// right, starting from 0.0. Reproducing this makes our means of per-row
// losses identical to sklearn's, not just close. An empty span sums to 0.0.
double NumpySum(absl::Span<const double> values);

// NumpySum of values[order[0]], values[order[1]], ... (every index below
// values.size()): NumpySum of the gathered array, without gathering it
// whole. Each block is gathered into a buffer and summed, the blocks of a
// long input on two threads (random reads are latency-bound), and the block
// sums are added in order as NumpySum adds them.
double NumpySumInOrder(absl::Span<const double> values, absl::Span<const size_t> order);

// numpy's `np.mean` (what sklearn's unweighted averages call): NumpySum / n.
// NaN for an empty span, as numpy returns (with a warning).
double NumpyMean(absl::Span<const double> values);

// NumpySum of values given one at a time, without holding more than one
// block of them: each full block is summed as it fills.
class NumpyStreamSum {
 public:
  NumpyStreamSum() { block_.reserve(kNumpyReduceBlock); }

  void Add(double value) {
    block_.push_back(value);
    if (block_.size() == kNumpyReduceBlock) {
      total_ += NumpySum(block_);
      block_.clear();
    }
  }

  // NumpySum of every value added so far.
  double Sum() const { return block_.empty() ? total_ : total_ + NumpySum(block_); }

 private:
  double total_ = 0.0;
  std::vector<double> block_;
};

}  // namespace mlebench

#endif  // MLEBENCH_PYCOMPAT_NUMPY_SUM_H_
