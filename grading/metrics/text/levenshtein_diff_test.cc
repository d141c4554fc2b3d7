// Differential test: Utf8LevenshteinDistance against
// Levenshtein 0.25.1, upstream's pinned version (`Levenshtein.distance` on Python str) on ~6000 random
// text pairs of 0 to 2000 code points, ASCII and all of Unicode (see the
// script).

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/test_util.h"
#include "grading/metrics/text/levenshtein.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr char kScript[] = "grading/metrics/text/levenshtein_diff_test.py";

// "h<hex>" -> the bytes.
std::string Unhex(const std::string &token) {
  return testing::Unhex(std::string_view(token).substr(token.empty() ? 0 : 1));
}

TEST(LevenshteinDiffTest, MatchesPythonLevenshteinOnRandomTexts) {
  const char *tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/levenshtein_cases.txt");
  // LEVENSHTEIN_DIFF_SEED (--test_env=LEVENSHTEIN_DIFF_SEED=7) explores other
  // inputs.
  const char *seed = std::getenv("LEVENSHTEIN_DIFF_SEED");
  const std::string command =
      absl::StrCat(testing::ReferencePython(), " ", kScript, " ", cases_path, " ", seed == nullptr ? "" : seed);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  std::ifstream in(cases_path);
  ASSERT_TRUE(in) << cases_path;
  int cases = 0, failures = 0, long_cases = 0;
  std::string line;
  while (std::getline(in, line)) {
    const std::vector<std::string> tokens = testing::Tokens(line);
    ASSERT_EQ(tokens.size(), 4u) << line;
    ASSERT_EQ(tokens[0], "p");
    const std::string a = Unhex(tokens[1]);
    const std::string b = Unhex(tokens[2]);
    const size_t expected = std::stoul(tokens[3]);
    absl::StatusOr<size_t> ours = Utf8LevenshteinDistance(a, b);
    ASSERT_TRUE(ours.ok()) << ours.status();
    ++cases;
    if (a.size() > 1000 || b.size() > 1000) ++long_cases;
    if (*ours != expected && ++failures <= 10) {
      ADD_FAILURE() << "pair " << cases << " (" << a.size() << " and " << b.size()
                    << " bytes): ours " << *ours << ", python " << expected;
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GE(cases, 6000);
  EXPECT_GE(long_cases, 100);
}

}  // namespace
}  // namespace mlebench
