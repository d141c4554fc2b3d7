#include "pycompat/python_list_sort.h"

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <span>
#include <vector>

#include "pycompat/python_list_sort_internal.h"

namespace mlebench {

std::vector<size_t> PythonSortedOrder(std::span<const double> keys, bool reverse) {
  std::vector<size_t> order(keys.size());
  std::iota(order.begin(), order.end(), size_t{0});
  // CPython sorts keys and values in lockstep, comparing keys only: the same
  // as sorting indices by their keys.
  if (reverse) std::reverse(order.begin(), order.end());
  python_list_sort_internal::CPythonListSort(
      std::span<size_t>(order), [keys](size_t a, size_t b) { return keys[a] < keys[b]; });
  if (reverse) std::reverse(order.begin(), order.end());
  return order;
}

}  // namespace mlebench
