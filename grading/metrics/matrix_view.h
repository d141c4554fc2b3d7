#ifndef MLEBENCH_GRADING_METRICS_MATRIX_VIEW_H_
#define MLEBENCH_GRADING_METRICS_MATRIX_VIEW_H_

#include <cstddef>

#include "absl/types/span.h"

namespace mlebench {

// A read-only view of a row-major `rows` x `cols` matrix of doubles, as numpy
// holds a C-contiguous 2-D float64 array. The metrics taking one check that
// `values.size() == rows * cols` and report a mismatch as an error.
struct MatrixView {
  absl::Span<const double> values;
  size_t rows = 0;
  size_t cols = 0;

  double at(size_t row, size_t col) const { return values[row * cols + col]; }
  absl::Span<const double> row(size_t r) const { return values.subspan(r * cols, cols); }
  bool size_ok() const { return values.size() == rows * cols; }
};

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_MATRIX_VIEW_H_
