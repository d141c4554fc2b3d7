// Differential test: WordJaccard (and PythonLower/PythonSplit under it)
// against upstream's `jaccard` expression run by Python 3.11 on the
// ~30k random text pairs jaccard_python_diff_test.py writes: ASCII, Python
// whitespace and look-alikes, capital sigma in every context, special case
// mappings, combining marks, astral code points, empty and blank texts.
// Outcomes must agree exactly: ZeroDivisionError or not, the score bit for
// bit, and the lower-cased words.

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/test_util.h"
#include "grading/metrics/text/jaccard.h"
#include "gtest/gtest.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

// "-" stands for the empty string (an empty token would vanish).
std::string Unhex(const std::string& hex) { return hex == "-" ? "" : testing::Unhex(hex); }

constexpr char kScript[] = "grading/metrics/text/jaccard_python_diff_test.py";

TEST(JaccardPythonDiffTest, MatchesUpstreamsJaccard) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/jaccard_cases.txt");
  const std::string command = absl::StrCat(testing::ReferencePython(), " ", kScript, " ", cases_path);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  std::ifstream in(cases_path);
  ASSERT_TRUE(in) << cases_path;
  std::string line;
  int total = 0, divisions_by_zero = 0, mismatches = 0;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string a_hex, b_hex, expected, words_hex;
    ASSERT_TRUE(fields >> a_hex >> b_hex >> expected >> words_hex) << line;
    const std::string a = Unhex(a_hex), b = Unhex(b_hex);
    ++total;
    const absl::StatusOr<double> ours = WordJaccard(a, b);
    bool same;
    if (expected == "err") {
      ++divisions_by_zero;
      same = !ours.ok();
    } else {
      same = ours.ok() && *ours == std::strtod(expected.c_str(), nullptr);
    }
    std::string words;
    for (const std::u32string& word : PythonSplit(PythonLower(*DecodeUtf8(a)))) {
      if (!words.empty()) words.push_back('\0');
      words += EncodeUtf8(word);
    }
    same = same && words == Unhex(words_hex);
    if (!same && ++mismatches <= 25) {
      ADD_FAILURE() << "jaccard(" << a_hex << ", " << b_hex << "): Python " << expected
                    << ", ours " << (ours.ok() ? absl::StrCat(*ours) : "err");
    }
  }
  std::cout << total << " pairs, " << divisions_by_zero << " divisions by zero, " << mismatches
            << " mismatches\n";
  EXPECT_EQ(mismatches, 0);
  EXPECT_GT(total, 20000);
  EXPECT_GT(divisions_by_zero, 500);
}

}  // namespace
}  // namespace mlebench
