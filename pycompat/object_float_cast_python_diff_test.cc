// Differential test: PythonFloatFromString against Python 3.11's float()
// on the strings object_float_cast_python_diff_test.py generates (every
// Unicode digit and space, and random strings over the grammar's alphabet).
// Outcomes must agree exactly: raise or not, and the value bit for bit.

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/test_util.h"
#include "gtest/gtest.h"
#include "pycompat/object_float_cast.h"

namespace mlebench {
namespace {

using testing::Unhex;

constexpr char kScript[] = "pycompat/object_float_cast_python_diff_test.py";

std::string Describe(const std::optional<double>& v) {
  if (!v.has_value()) return "err";
  if (std::isnan(*v)) return "nan";
  return absl::StrCat(*v);
}

TEST(ObjectFloatCastPythonDiffTest, MatchesPythonFloat) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/float_cases.txt");
  const std::string command = absl::StrCat(testing::ReferencePython(), " ", kScript, " ", cases_path);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  std::ifstream in(cases_path);
  ASSERT_TRUE(in) << cases_path;
  std::string line;
  int total = 0, parsed = 0, mismatches = 0;
  while (std::getline(in, line)) {
    const size_t space = line.find(' ');
    ASSERT_NE(space, std::string::npos) << line;
    const std::string text = Unhex(line.substr(0, space));
    const std::string expected = line.substr(space + 1);
    const std::optional<double> ours = PythonFloatFromString(text);
    bool same;
    if (expected == "err") {
      same = !ours.has_value();
    } else if (expected == "nan") {
      same = ours.has_value() && std::isnan(*ours);
    } else {
      const double theirs = expected == "inf"    ? HUGE_VAL
                            : expected == "-inf" ? -HUGE_VAL
                                                 : std::strtod(expected.c_str(), nullptr);
      same = ours.has_value() && *ours == theirs && std::signbit(*ours) == std::signbit(theirs);
    }
    ++total;
    parsed += expected != "err";
    if (!same && ++mismatches <= 25) {
      ADD_FAILURE() << "float(" << line.substr(0, space) << " = \"" << text << "\"): Python "
                    << expected << ", ours " << Describe(ours);
    }
  }
  std::cout << total << " strings, " << parsed << " parsed by Python, " << mismatches
            << " mismatches\n";
  EXPECT_EQ(mismatches, 0);
  EXPECT_GT(total, 20000);
  EXPECT_GT(parsed, 5000);
}

}  // namespace
}  // namespace mlebench
