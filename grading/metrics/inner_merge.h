#ifndef MLEBENCH_GRADING_METRICS_INNER_MERGE_H_
#define MLEBENCH_GRADING_METRICS_INNER_MERGE_H_

#include <cstddef>
#include <utility>
#include <vector>

#include "base/table.h"

namespace mlebench {

// The row pairs of pandas' `left.merge(right, on=key)` (an inner join on one
// key column), in pandas' order: each left row in order, paired with every
// right row holding an equal key, in right order. Keys match as the graders
// that use this need them to: numbers by value (an integral float meets the
// equal int, True meets 1), strings by content, a string never meets a
// number, and a missing key meets nothing. Integers beyond 2**53 written as
// floats are compared as exact integers, where pandas may round them.
std::vector<std::pair<size_t, size_t>> InnerMergeRows(const Column& left_keys,
                                                      const Column& right_keys);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_INNER_MERGE_H_
