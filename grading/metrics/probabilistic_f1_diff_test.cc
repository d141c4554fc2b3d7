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
#include "grading/metrics/diff_test_column.h"
#include "grading/metrics/diff_test_text.h"
#include "grading/metrics/probabilistic_f1.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using testing::ParseDouble;
using testing::Tokens;
using testing::Unhex;

constexpr char kScript[] = "grading/metrics/probabilistic_f1_diff_test.py";

TEST(ProbabilisticF1DiffTest, MatchesPythonRestatementOnRandomInputs) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/pf1_cases.txt");
  // PF1_DIFF_SEED (--test_env=PF1_DIFF_SEED=7) explores other inputs.
  const char* seed = std::getenv("PF1_DIFF_SEED");
  const std::string command =
      absl::StrCat("/usr/bin/python3 ", kScript, " ", cases_path, " ", seed == nullptr ? "" : seed);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  std::ifstream in(cases_path);
  ASSERT_TRUE(in) << cases_path;
  std::vector<std::string> block;
  int scored = 0, raised = 0, identical = 0, positive = 0, failures = 0;
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
    std::string problem;
    if (expect[0] == "ok") {
      ++scored;
      const double reference = ParseDouble(expect.at(1));
      positive += reference > 0;
      if (!ours.ok()) {
        problem = absl::StrCat("reference returned ", reference, ", we failed: ",
                               ours.status().ToString());
      } else if (!(std::fabs(*ours - reference) <= 1e-9 * std::max(1.0, std::fabs(reference)))) {
        problem = absl::StrCat("ours ", *ours, " vs reference ", reference);
      } else {
        identical += *ours == reference;
      }
    } else {
      ++raised;
      if (ours.ok()) {
        problem = absl::StrCat("reference raised ", expect.at(1), "(",
                               expect.size() > 2 ? Unhex(expect[2]) : "", "), we returned ", *ours);
      } else if (ours.status().code() != absl::StatusCode::kInvalidArgument) {
        problem = absl::StrCat("wrong status code: ", ours.status().ToString());
      }
    }
    if (!problem.empty() && ++failures <= 25) ADD_FAILURE() << label << ": " << problem;
    block.clear();
  }
  std::cout << scored << " scored (" << identical << " bit-identical, " << positive
            << " positive), " << raised << " raised, " << failures << " mismatches\n";
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(scored + raised, 1500);
  EXPECT_GT(positive, 500);
  EXPECT_GT(raised, 200);
  EXPECT_EQ(identical, scored);
}

}  // namespace
}  // namespace mlebench
