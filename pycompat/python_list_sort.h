#ifndef MLEBENCH_PYCOMPAT_PYTHON_LIST_SORT_H_
#define MLEBENCH_PYCOMPAT_PYTHON_LIST_SORT_H_

// CPython 3.11's list.sort, comparison for comparison, for emulating the
// order upstream's graders get from `sorted(...)` / `list.sort(...)`. For
// keys that are totally ordered any stable sort agrees with it; with NaN keys
// (every `<` involving NaN is false) only the exact algorithm does, since the
// result then depends on which pairs timsort happens to compare.

#include <cstddef>
#include <span>
#include <vector>

namespace mlebench {

// The order CPython 3.11's `sorted(range(n), key=keys.__getitem__, reverse=reverse)`
// gives: result[k] is the index of the k-th element. Exact also when keys hold NaN.
// Keys compare as Python floats: `a < b` only, so -0.0 and 0.0 are equal
// (stable), and NaN is neither less nor greater than anything. With
// `reverse`, as CPython does: the list is reversed, stably sorted, and the
// result reversed again (so equal keys keep their original order).
std::vector<size_t> PythonSortedOrder(std::span<const double> keys, bool reverse);

}  // namespace mlebench

#endif  // MLEBENCH_PYCOMPAT_PYTHON_LIST_SORT_H_
