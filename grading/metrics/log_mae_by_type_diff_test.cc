// Differential test: LogMaeByType against a restatement of
// champs-scalar-coupling's grade.py with pandas, scikit-learn and numpy, on
// random type labels and columns of every dtype a CSV column can have (sizes
// 1 to 100000; see log_mae_by_type_diff_test.py). We
// require the same raise/no-raise outcome and message, and our value within
// 1e-9 relative of upstream's; we also count bit-identical values, which we
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
#include "grading/metrics/diff_test_column.h"
#include "grading/metrics/diff_test_outcomes.h"
#include "grading/metrics/diff_test_text.h"
#include "grading/metrics/log_mae_by_type.h"
#include "grading/table.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using testing::Tokens;

constexpr char kScript[] = "grading/metrics/log_mae_by_type_diff_test.py";

TEST(LogMaeByTypeDiffTest, MatchesUpstreamOnRandomInputs) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/log_mae_cases.txt");
  // LOG_MAE_DIFF_SEED (--test_env=LOG_MAE_DIFF_SEED=7) explores other inputs.
  const char* seed = std::getenv("LOG_MAE_DIFF_SEED");
  const std::string command =
      absl::StrCat("/usr/bin/python3 ", kScript, " ", cases_path, " ", seed == nullptr ? "" : seed);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  std::ifstream in(cases_path);
  ASSERT_TRUE(in) << cases_path;
  std::vector<std::string> block;
  testing::DiffTestOutcomes outcomes(
      {.reference = "upstream", .check_code = true, .check_message = true});
  std::string line;
  while (std::getline(in, line)) {
    block.push_back(line);
    if (line.rfind("ok ", 0) != 0 && line.rfind("raise ", 0) != 0) continue;
    ASSERT_EQ(block.size(), 5u);
    const std::string label = absl::StrCat("case ", Tokens(block[0]).at(2));
    const absl::StatusOr<double> ours =
        LogMaeByType(testing::ParseColumnLine(block[1]), testing::ParseColumnLine(block[2]),
                     testing::ParseColumnLine(block[3]));
    const std::vector<std::string> expect = Tokens(line);
    outcomes.Add(label, ours, expect);
    block.clear();
  }
  std::cout << outcomes.Summary() << "\n";
  EXPECT_EQ(outcomes.failures, 0);
  EXPECT_EQ(outcomes.scored + outcomes.raised, 600);
  EXPECT_GT(outcomes.scored, 300);
  EXPECT_GT(outcomes.raised, 100);
  EXPECT_EQ(outcomes.identical, outcomes.scored);
}

}  // namespace
}  // namespace mlebench
