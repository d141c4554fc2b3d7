// Differential test: LabelRankingAveragePrecision against scikit-learn's
// label_ranking_average_precision_score on random indicator matrices and
// scores (many ties, some non-finite values), with and without sample
// weights, up to 100000 samples (see the .py script). We require the same
// raise/no-raise outcome, our value within 1e-9 relative, and in fact
// bit-identical values.

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/testing/diff_test_outcomes.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/test_util.h"
#include "grading/metrics/matrix_view.h"
#include "grading/metrics/ranking/label_ranking_average_precision.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using testing::ParseDouble;
using testing::Tokens;

constexpr char kScript[] = "grading/metrics/ranking/label_ranking_average_precision_sklearn_diff_test.py";

std::vector<double> Doubles(const std::vector<std::string>& tokens, size_t first) {
  std::vector<double> values;
  for (size_t i = first; i < tokens.size(); ++i) values.push_back(ParseDouble(tokens[i]));
  return values;
}

TEST(LabelRankingAveragePrecisionSklearnDiffTest, MatchesScikitLearnOnRandomInputs) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/lrap_cases.txt");
  // LRAP_DIFF_SEED (--test_env=LRAP_DIFF_SEED=7) explores other inputs.
  const char* seed = std::getenv("LRAP_DIFF_SEED");
  const std::string command =
      absl::StrCat(testing::ReferencePython(), " ", kScript, " ", cases_path, " ", seed == nullptr ? "" : seed);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  std::ifstream in(cases_path);
  ASSERT_TRUE(in) << cases_path;
  testing::DiffTestOutcomes outcomes(
      {.reference = "sklearn", .check_code = true, .check_message = false});
  std::string header;
  while (std::getline(in, header)) {
    const std::vector<std::string> h = Tokens(header);
    ASSERT_EQ(h.at(0), "case") << header;
    const size_t n = std::stoul(h.at(3)), m = std::stoul(h.at(4));
    std::string line;
    ASSERT_TRUE(std::getline(in, line));
    std::vector<double> truth;
    for (char c : line.substr(5)) truth.push_back(c == '1' ? 1.0 : 0.0);
    ASSERT_TRUE(std::getline(in, line));
    const std::vector<double> scores = Doubles(Tokens(line), 1);
    std::vector<double> weights;
    if (h.at(5) == "given") {
      ASSERT_TRUE(std::getline(in, line));
      weights = Doubles(Tokens(line), 2);
    }
    ASSERT_TRUE(std::getline(in, line));
    const absl::StatusOr<double> ours = LabelRankingAveragePrecision(
        MatrixView{truth, n, m}, MatrixView{scores, n, m}, weights);
    const std::vector<std::string> expect = Tokens(line);
    outcomes.Add(absl::StrCat("case ", h.at(2)), ours, expect);
  }
  std::cout << outcomes.Summary() << "\n";
  EXPECT_EQ(outcomes.failures, 0);
  EXPECT_EQ(outcomes.scored + outcomes.raised, 800);
  EXPECT_GT(outcomes.scored, 600);
  EXPECT_GT(outcomes.raised, 30);
  EXPECT_EQ(outcomes.identical, outcomes.scored);
}

}  // namespace
}  // namespace mlebench
