// Differential test: ProbabilisticFBeta against a Python restatement of
// rsna-breast-cancer-detection's `pfbeta` on random label and prediction
// columns of every dtype (sizes 1 to 100000; see
// probabilistic_f1_diff_test.py). We require the same raise/no-raise outcome
// and our value within 1e-9 relative of the reference's; we also expect every
// value bit-identical (both add the rows left to right).

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/testing/diff_test_column.h"
#include "base/testing/diff_test_outcomes.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/test_util.h"
#include "grading/metrics/classification/probabilistic_f1.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using testing::ParseDouble;
using testing::Tokens;

constexpr char kScript[] = "grading/metrics/classification/probabilistic_f1_diff_test.py";

TEST(ProbabilisticF1DiffTest, MatchesPythonRestatementOnRandomInputs) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/pf1_cases.txt");
  // PF1_DIFF_SEED (--test_env=PF1_DIFF_SEED=7) explores other inputs.
  const char* seed = std::getenv("PF1_DIFF_SEED");
  const std::string command =
      absl::StrCat(testing::ReferencePython(), " ", kScript, " ", cases_path, " ", seed == nullptr ? "" : seed);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  std::ifstream in(cases_path);
  ASSERT_TRUE(in) << cases_path;
  std::vector<std::string> block;
  int positive = 0;
  testing::DiffTestOutcomes outcomes(
      {.reference = "the reference", .check_code = true, .check_message = false});
  std::string line;
  while (std::getline(in, line)) {
    block.push_back(line);
    if (line.rfind("ok ", 0) != 0 && line.rfind("raise ", 0) != 0) continue;
    ASSERT_EQ(block.size(), 4u);
    const std::vector<std::string> header = Tokens(block[0]);
    const std::string label = absl::StrCat("case ", header.at(2));
    const absl::StatusOr<double> ours =
        ProbabilisticFBeta(testing::ParseColumnLine(block[1]), testing::ParseColumnLine(block[2]),
                           ParseDouble(header.at(3)));
    const std::vector<std::string> expect = Tokens(line);
    if (expect.at(0) == "ok") positive += ParseDouble(expect.at(1)) > 0;
    outcomes.Add(label, ours, expect);
    block.clear();
  }
  std::cout << outcomes.Summary() << ", " << positive << " positive\n";
  EXPECT_EQ(outcomes.failures, 0);
  EXPECT_EQ(outcomes.scored + outcomes.raised, 1500);
  EXPECT_GT(positive, 500);
  EXPECT_GT(outcomes.raised, 200);
  EXPECT_EQ(outcomes.identical, outcomes.scored);
}

}  // namespace
}  // namespace mlebench
