// Differential test: LaplaceLogLikelihood against a numpy restatement of
// upstream's laplace_log_likelihood (laplace_log_likelihood_diff_test.py) on
// random arrays of sizes 0 to 100000, with NaN, infinities, negative and
// tiny confidences, and lengths that broadcast or do not. We require the same
// raise/no-raise outcome and message, and values within 1e-9 relative (NaN
// and infinities equal); bit-identical values are counted and reported
// (numpy's vectorised log may differ from libm's in the last bit).

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/metrics/diff_test_outcomes.h"
#include "grading/metrics/diff_test_text.h"
#include "grading/metrics/laplace_log_likelihood.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using testing::ParseDouble;
using testing::Tokens;

constexpr char kScript[] = "grading/metrics/laplace_log_likelihood_diff_test.py";

std::vector<double> ParseArray(const std::string& line) {
  const std::vector<std::string> t = Tokens(line);
  std::vector<double> values;
  for (size_t i = 2; i < t.size(); ++i) values.push_back(ParseDouble(t[i]));
  EXPECT_EQ(values.size(), std::stoul(t.at(1)));
  return values;
}

TEST(LaplaceLogLikelihoodDiffTest, MatchesNumpyOnRandomInputs) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/laplace_cases.txt");
  // LAPLACE_DIFF_SEED (--test_env=LAPLACE_DIFF_SEED=7) explores other inputs.
  const char* seed = std::getenv("LAPLACE_DIFF_SEED");
  const std::string command =
      absl::StrCat("/usr/bin/python3 ", kScript, " ", cases_path, " ", seed == nullptr ? "" : seed);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  std::ifstream in(cases_path);
  ASSERT_TRUE(in) << cases_path;
  std::vector<std::string> block;
  testing::DiffTestOutcomes outcomes(
      {.reference = "numpy", .check_code = false, .check_message = true});
  std::string line;
  while (std::getline(in, line)) {
    block.push_back(line);
    if (line.rfind("ok ", 0) != 0 && line.rfind("raise ", 0) != 0) continue;
    ASSERT_EQ(block.size(), 5u);
    const absl::StatusOr<double> ours =
        LaplaceLogLikelihood(ParseArray(block[1]), ParseArray(block[2]), ParseArray(block[3]));
    const std::vector<std::string> expect = Tokens(line);
    outcomes.Add(block[0], ours, expect);
    block.clear();
  }
  std::cout << outcomes.Summary() << "\n";
  EXPECT_EQ(outcomes.failures, 0);
  EXPECT_EQ(outcomes.scored + outcomes.raised, 1500);
  EXPECT_GT(outcomes.scored, 1000);
  EXPECT_GT(outcomes.raised, 20);
}

}  // namespace
}  // namespace mlebench
