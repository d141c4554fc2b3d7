#ifndef MLEBENCH_BASE_TESTING_DIFF_TEST_TEXT_H_
#define MLEBENCH_BASE_TESTING_DIFF_TEST_TEXT_H_

// The line protocol the metrics' differential tests share with their Python
// reference scripts (testonly): space-separated tokens, arbitrary bytes as
// hex, floats as repr.

#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_split.h"

namespace mlebench::testing {

// Bytes from lowercase or uppercase hex digits ("6162" -> "ab"); a trailing
// odd digit is ignored.
inline std::string Unhex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

// The non-empty space-separated tokens of a line.
inline std::vector<std::string> Tokens(const std::string& line) {
  return absl::StrSplit(line, ' ', absl::SkipEmpty());
}

// A float written by Python's repr ("nan", "inf" included).
inline double ParseDouble(const std::string& token) { return std::strtod(token.c_str(), nullptr); }

// Every token of a line of floats (repr or float.hex()).
inline std::vector<double> ParseDoubles(const std::string& line) {
  std::vector<double> values;
  for (const std::string& token : Tokens(line)) values.push_back(ParseDouble(token));
  return values;
}

}  // namespace mlebench::testing

#endif  // MLEBENCH_BASE_TESTING_DIFF_TEST_TEXT_H_
