// Differential test: MeanAbsoluteError against scikit-learn's
// mean_absolute_error on random columns of every dtype a CSV column can have
// (sizes 1 to 100000; see mean_absolute_error_sklearn_diff_test.py). We
// require the same raise/no-raise outcome and message, and our value within
// 1e-9 relative of sklearn's; we also count bit-identical values, which we
// expect for all of them (NumpyMean reproduces numpy's summation order).

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/table.h"
#include "base/testing/diff_test_column.h"
#include "base/testing/diff_test_outcomes.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/test_util.h"
#include "grading/metrics/regression/mean_absolute_error.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using testing::Tokens;

constexpr char kScript[] = "grading/metrics/regression/mean_absolute_error_sklearn_diff_test.py";

TEST(MeanAbsoluteErrorSklearnDiffTest, MatchesScikitLearnOnRandomInputs) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/mae_cases.txt");
  // MAE_DIFF_SEED (--test_env=MAE_DIFF_SEED=7) explores other inputs.
  const char* seed = std::getenv("MAE_DIFF_SEED");
  const std::string command =
      absl::StrCat(testing::ReferencePython(), " ", kScript, " ", cases_path, " ", seed == nullptr ? "" : seed);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  std::ifstream in(cases_path);
  ASSERT_TRUE(in) << cases_path;
  std::vector<std::string> block;
  testing::DiffTestOutcomes outcomes(
      {.reference = "sklearn", .check_code = true, .check_message = true});
  std::string line;
  while (std::getline(in, line)) {
    block.push_back(line);
    if (line.rfind("ok ", 0) != 0 && line.rfind("raise ", 0) != 0) continue;
    ASSERT_EQ(block.size(), 4u);
    const std::string label = absl::StrCat("case ", Tokens(block[0]).at(2));
    const absl::StatusOr<double> ours =
        MeanAbsoluteError(testing::ParseColumnLine(block[1]), testing::ParseColumnLine(block[2]));
    const std::vector<std::string> expect = Tokens(line);
    outcomes.Add(label, ours, expect);
    block.clear();
  }
  std::cout << outcomes.Summary() << "\n";
  EXPECT_EQ(outcomes.failures, 0);
  EXPECT_EQ(outcomes.scored + outcomes.raised, 1500);
  EXPECT_GT(outcomes.scored, 500);
  EXPECT_GT(outcomes.raised, 200);
  EXPECT_EQ(outcomes.identical, outcomes.scored);
}

}  // namespace
}  // namespace mlebench
