#ifndef MLEBENCH_BASE_TESTING_DIFF_TEST_COLUMN_H_
#define MLEBENCH_BASE_TESTING_DIFF_TEST_COLUMN_H_

// Columns in the "col" line format of the regression metrics' differential
// test scripts (testonly): "col <dtype> <n> <cell>...", cells i:<int>
// f:<float.hex()> b:<0|1> s:<UTF-8 hex> n (missing).

#include <cstdint>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "base/table.h"
#include "base/testing/diff_test_text.h"

namespace mlebench::testing {

// Throws std::invalid_argument for a line that is not in the format.
inline Column ParseColumnLine(const std::string& line) {
  const std::vector<std::string> t = Tokens(line);
  if (t.size() < 3 || t[0] != "col") throw std::invalid_argument("not a col line: " + line);
  Column c;
  c.name = "y";
  const std::string& dtype = t[1];
  c.dtype = dtype == "int64"     ? Dtype::kInt64
            : dtype == "float64" ? Dtype::kFloat64
            : dtype == "bool"    ? Dtype::kBool
                                 : Dtype::kObject;
  const size_t n = std::stoul(t[2]);
  if (t.size() != n + 3) throw std::invalid_argument("wrong cell count: " + t[2]);
  for (size_t i = 0; i < n; ++i) {
    const std::string& tok = t[3 + i];
    if (tok == "n") {
      c.cells.emplace_back(std::monostate{});
    } else if (tok[0] == 'i') {
      c.cells.emplace_back(static_cast<int64_t>(std::stoll(tok.substr(2))));
    } else if (tok[0] == 'f') {
      c.cells.emplace_back(ParseDouble(tok.substr(2)));
    } else if (tok[0] == 'b') {
      c.cells.emplace_back(tok[2] == '1');
    } else {
      c.cells.emplace_back(Unhex(tok.substr(2)));
    }
  }
  return c;
}

}  // namespace mlebench::testing

#endif  // MLEBENCH_BASE_TESTING_DIFF_TEST_COLUMN_H_
