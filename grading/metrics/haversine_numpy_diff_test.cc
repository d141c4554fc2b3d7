// Differential test: TripHaversineScore against a numpy restatement of
// upstream's calc_score on random inputs (sizes 1 to 100000). numpy's
// sin/cos/arcsin may differ from glibc's in the last bit, so values must agree
// within 1e-9 relative, not bit for bit; NaN must match NaN.

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "grading/metrics/diff_test_text.h"
#include "grading/metrics/haversine.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr char kScript[] = "grading/metrics/haversine_numpy_diff_test.py";

std::vector<double> ParseLine(const std::string& line) {
  std::vector<double> out;
  for (const std::string& token : testing::Tokens(line)) out.push_back(testing::ParseDouble(token));
  return out;
}

TEST(HaversineNumpyDiffTest, MatchesUpstreamOnRandomInputs) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/haversine_cases.txt");
  const std::string command = absl::StrCat("/usr/bin/python3 ", kScript, " ", cases_path);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream in(cases_path);
  ASSERT_TRUE(in);
  std::string line;
  int cases = 0, nan_cases = 0;
  while (std::getline(in, line)) {
    ASSERT_EQ(line.rfind("case ", 0), 0u) << line;
    std::vector<std::vector<double>> arrays(4);
    for (auto& a : arrays) {
      ASSERT_TRUE(std::getline(in, line));
      a = ParseLine(line);
    }
    ASSERT_TRUE(std::getline(in, line));
    const double reference = testing::ParseDouble(testing::Tokens(line).at(1));
    absl::StatusOr<double> ours = TripHaversineScore(arrays[0], arrays[1], arrays[2], arrays[3]);
    ASSERT_TRUE(ours.ok()) << ours.status();
    if (std::isnan(reference)) {
      EXPECT_TRUE(std::isnan(*ours)) << "case " << cases;
      ++nan_cases;
    } else {
      EXPECT_NEAR(*ours, reference, 1e-9 * std::max(1.0, std::fabs(reference)))
          << "case " << cases << " n=" << arrays[0].size();
    }
    ++cases;
  }
  EXPECT_EQ(cases, 307);
  EXPECT_GT(nan_cases, 0);
}

}  // namespace
}  // namespace mlebench
