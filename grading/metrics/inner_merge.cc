#include "grading/metrics/inner_merge.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <variant>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"

namespace mlebench {
namespace {

// A text key under which cells that the merge matches meet; none for a
// missing key.
std::optional<std::string> JoinKey(const Cell& cell) {
  if (const std::string* s = std::get_if<std::string>(&cell)) return absl::StrCat("s", *s);
  if (const int64_t* i = std::get_if<int64_t>(&cell)) return absl::StrCat("i", *i);
  if (const bool* b = std::get_if<bool>(&cell)) return absl::StrCat("i", *b ? 1 : 0);
  if (const double* d = std::get_if<double>(&cell)) {
    if (std::isnan(*d)) return std::nullopt;
    // Integral values within int64's range meet the equal int.
    if (*d == std::trunc(*d) && std::fabs(*d) < 9.2e18) {
      return absl::StrCat("i", static_cast<int64_t>(*d));
    }
    uint64_t bits;
    std::memcpy(&bits, d, sizeof bits);
    return absl::StrCat("d", bits);
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::pair<size_t, size_t>> InnerMergeRows(const Column& left_keys,
                                                      const Column& right_keys) {
  absl::flat_hash_map<std::string, std::vector<size_t>> right_rows;
  for (size_t row = 0; row < right_keys.cells.size(); ++row) {
    if (std::optional<std::string> key = JoinKey(right_keys.cells[row])) {
      right_rows[*key].push_back(row);
    }
  }
  std::vector<std::pair<size_t, size_t>> pairs;
  for (size_t row = 0; row < left_keys.cells.size(); ++row) {
    const std::optional<std::string> key = JoinKey(left_keys.cells[row]);
    if (!key.has_value()) continue;
    const auto it = right_rows.find(*key);
    if (it == right_rows.end()) continue;
    for (size_t match : it->second) pairs.emplace_back(row, match);
  }
  return pairs;
}

}  // namespace mlebench
