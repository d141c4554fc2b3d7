#include "grading/metrics/correlation/kendall_tau.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace mlebench {
namespace {

// The number of pairs i < j with values[i] > values[j], by merge sort
// (sorts `values`; `scratch` is working space).
uint64_t CountInversions(std::vector<int64_t>& values, std::vector<int64_t>& scratch) {
  const size_t n = values.size();
  scratch.resize(n);
  uint64_t inversions = 0;
  for (size_t width = 1; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      const size_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        // Ties take the left item first: equal values are not inversions.
        if (values[j] < values[i]) {
          inversions += mid - i;
          scratch[k++] = values[j++];
        } else {
          scratch[k++] = values[i++];
        }
      }
      while (i < mid) scratch[k++] = values[i++];
      while (j < hi) scratch[k++] = values[j++];
    }
    values.swap(scratch);
  }
  return inversions;
}

int BitLength(unsigned __int128 x) {
  const uint64_t high = static_cast<uint64_t>(x >> 64);
  return high != 0 ? 128 - std::countl_zero(high)
                   : 64 - std::countl_zero(static_cast<uint64_t>(x));
}

// Python's `a / b` for non-negative ints (b > 0): the correctly rounded
// (ties to even) double of the exact quotient.
double PythonIntDivide(uint64_t a, uint64_t b) {
  constexpr uint64_t kExact = uint64_t{1} << 53;
  if (a <= kExact && b <= kExact) return static_cast<double>(a) / static_cast<double>(b);
  // A quotient of at least 55 bits plus a sticky remainder rounds exactly.
  const int shift = std::max(0, BitLength(b) - BitLength(a)) + 55;
  const unsigned __int128 numerator = static_cast<unsigned __int128>(a) << shift;
  const unsigned __int128 quotient = numerator / b;
  const bool sticky = numerator % b != 0;
  const int extra = BitLength(quotient) - 53;
  uint64_t mantissa = static_cast<uint64_t>(quotient >> extra);
  const unsigned __int128 rest = quotient & ((static_cast<unsigned __int128>(1) << extra) - 1);
  const unsigned __int128 half = static_cast<unsigned __int128>(1) << (extra - 1);
  if (rest > half || (rest == half && (sticky || (mantissa & 1) != 0))) ++mantissa;
  return std::ldexp(static_cast<double>(mantissa), extra - shift);
}

}  // namespace

absl::StatusOr<double> KendallTau(const std::vector<std::vector<std::string>>& ground_truth,
                                  const std::vector<std::vector<std::string>>& predictions) {
  if (ground_truth.size() != predictions.size()) {
    return absl::InvalidArgumentError(absl::StrCat("ground truth has ", ground_truth.size(),
                                                   " lists, predictions ", predictions.size()));
  }
  uint64_t total_inversions = 0, total_2max = 0;
  absl::flat_hash_map<std::string, int64_t> position;
  std::vector<int64_t> ranks, scratch;
  for (size_t k = 0; k < ground_truth.size(); ++k) {
    const std::vector<std::string>& gt = ground_truth[k];
    position.clear();
    for (size_t i = 0; i < gt.size(); ++i) position.try_emplace(gt[i], static_cast<int64_t>(i));
    ranks.clear();
    for (const std::string& item : predictions[k]) {
      const auto it = position.find(item);
      if (it == position.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("'", item, "' is not in list (list ", k, ")"));
      }
      ranks.push_back(it->second);
    }
    total_inversions += CountInversions(ranks, scratch);
    const uint64_t n = gt.size();
    total_2max += n * (n - (n > 0 ? 1 : 0));
  }
  if (total_2max == 0) {
    return absl::InvalidArgumentError(
        "division by zero: no ground-truth list has two or more items");
  }
  return 1.0 - PythonIntDivide(4 * total_inversions, total_2max);
}

}  // namespace mlebench
