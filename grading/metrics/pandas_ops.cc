#include "grading/metrics/pandas_ops.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <set>
#include <variant>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "grading/python_float.h"

namespace mlebench {
namespace {

bool IsString(const Cell& c) { return std::holds_alternative<std::string>(c); }

// A set key that makes Python-equal values equal: "s" + text for strings,
// "n" + repr(float(value)) for numbers, "nan" for missing.
std::string SetKey(const Cell& c) {
  if (IsMissing(c)) return "nan";
  if (const auto* s = std::get_if<std::string>(&c)) return absl::StrCat("s", *s);
  if (const auto* i = std::get_if<int64_t>(&c)) return absl::StrCat("i", *i);
  const double v = *NumericValue(c);
  // Integral floats and bools equal ints in Python, so they share the int key.
  if (v == std::trunc(v) && std::fabs(v) < 9.2e18) {
    return absl::StrCat("i", static_cast<int64_t>(v));
  }
  return absl::StrCat("n", FormatPythonFloat(v));
}

}  // namespace

std::string_view PythonTypeName(const Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return "float";
  if (std::holds_alternative<bool>(cell)) return "bool";
  if (std::holds_alternative<int64_t>(cell)) return "int";
  if (std::holds_alternative<double>(cell)) return "float";
  return "str";
}

std::optional<double> NumericValue(const Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return std::numeric_limits<double>::quiet_NaN();
  if (const auto* b = std::get_if<bool>(&cell)) return *b ? 1.0 : 0.0;
  if (const auto* i = std::get_if<int64_t>(&cell)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&cell)) return *d;
  return std::nullopt;
}

bool CellsEqual(const Cell& a, const Cell& b) {
  // Same type: compare directly (the common case, kept fast for long columns).
  if (a.index() == b.index()) {
    if (const auto* x = std::get_if<bool>(&a)) return *x == std::get<bool>(b);
    if (const auto* x = std::get_if<int64_t>(&a)) return *x == std::get<int64_t>(b);
    if (const auto* x = std::get_if<double>(&a)) return *x == std::get<double>(b);  // NaN != NaN
    if (const auto* x = std::get_if<std::string>(&a)) return *x == std::get<std::string>(b);
    return false;  // both missing
  }
  if (IsMissing(a) || IsMissing(b)) return false;
  const auto* sa = std::get_if<std::string>(&a);
  const auto* sb = std::get_if<std::string>(&b);
  if (sa != nullptr || sb != nullptr) return false;  // a string and a number
  // Two numbers of different types: as float64, as numpy promotes int64 with
  // float64 (bools with ints are exact either way below 2**53).
  return *NumericValue(a) == *NumericValue(b);
}

absl::StatusOr<std::vector<size_t>> SortValuesOrder(const Column& column) {
  const std::vector<Cell>& cells = column.cells;
  std::vector<size_t> present;
  std::vector<size_t> missing;
  present.reserve(cells.size());
  // Python orders strings among strings and numbers (bools included) among
  // numbers; a string meeting a number is a TypeError.
  const Cell* first_string = nullptr;
  const Cell* first_number = nullptr;
  for (size_t i = 0; i < cells.size(); ++i) {
    if (IsMissing(cells[i])) {
      missing.push_back(i);
      continue;
    }
    present.push_back(i);
    if (IsString(cells[i])) {
      if (first_string == nullptr) first_string = &cells[i];
    } else if (first_number == nullptr) {
      first_number = &cells[i];
    }
  }
  if (first_string != nullptr && first_number != nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot sort column '", column.name, "': '<' not supported between instances of '",
        std::string(PythonTypeName(*first_number)), "' and 'str' (it mixes strings with numbers)"));
  }
  if (first_string != nullptr) {
    std::stable_sort(present.begin(), present.end(), [&](size_t x, size_t y) {
      return std::get<std::string>(cells[x]) < std::get<std::string>(cells[y]);
    });
  } else {
    const bool all_int = std::all_of(present.begin(), present.end(), [&](size_t i) {
      return std::holds_alternative<int64_t>(cells[i]) || std::holds_alternative<bool>(cells[i]);
    });
    if (all_int) {
      auto as_int = [&](size_t i) -> int64_t {
        if (const auto* b = std::get_if<bool>(&cells[i])) return *b ? 1 : 0;
        return std::get<int64_t>(cells[i]);
      };
      std::stable_sort(present.begin(), present.end(),
                       [&](size_t x, size_t y) { return as_int(x) < as_int(y); });
    } else {
      std::stable_sort(present.begin(), present.end(), [&](size_t x, size_t y) {
        return *NumericValue(cells[x]) < *NumericValue(cells[y]);
      });
    }
  }
  present.insert(present.end(), missing.begin(), missing.end());
  return present;
}

Column TakeCells(const Column& column, absl::Span<const size_t> order) {
  Column out;
  out.name = column.name;
  out.dtype = column.dtype;
  out.cells.reserve(order.size());
  for (size_t i : order) out.cells.push_back(column.cells[i]);
  return out;
}

size_t SymmetricDifferenceSize(const Column& a, const Column& b) {
  std::set<std::string> ka;
  std::set<std::string> kb;
  for (const Cell& c : a.cells) ka.insert(SetKey(c));
  for (const Cell& c : b.cells) kb.insert(SetKey(c));
  std::vector<std::string> diff;
  std::set_symmetric_difference(ka.begin(), ka.end(), kb.begin(), kb.end(),
                                std::back_inserter(diff));
  return diff.size();
}

}  // namespace mlebench
