// Differential test: KendallTau against upstream's AI4Code kendall_tau,
// restated line for line in Python and run by the reference environment's Python on
// random cases (1 to 1e5 items; see the script). Scores must agree bit for
// bit, and both sides must fail on the same cases.

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/test_util.h"
#include "grading/metrics/correlation/kendall_tau.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr char kScript[] = "grading/metrics/correlation/kendall_tau_python_diff_test.py";

std::vector<std::string> Items(const std::string& line) {
  std::vector<std::string> items;
  const std::vector<std::string> tokens = testing::Tokens(line);
  for (size_t i = 1; i < tokens.size(); ++i) items.push_back(testing::Unhex(tokens[i]));
  return items;
}

TEST(KendallTauDiffTest, MatchesUpstreamOnRandomInputs) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/kendall_tau_cases.txt");
  // KENDALL_TAU_DIFF_SEED (--test_env=KENDALL_TAU_DIFF_SEED=7) explores other inputs.
  const char* seed = std::getenv("KENDALL_TAU_DIFF_SEED");
  const std::string command = absl::StrCat(testing::ReferencePython(), " ", kScript, " ", cases_path, " ",
                                           seed == nullptr ? "" : seed);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  std::ifstream in(cases_path);
  ASSERT_TRUE(in) << cases_path;
  int cases = 0, scored = 0, failed = 0, mismatches = 0;
  std::string line;
  while (std::getline(in, line)) {
    size_t pairs = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "case %zu", &pairs), 1) << line;
    std::vector<std::vector<std::string>> gts, preds;
    for (size_t k = 0; k < pairs; ++k) {
      ASSERT_TRUE(std::getline(in, line));
      gts.push_back(Items(line));
      ASSERT_TRUE(std::getline(in, line));
      preds.push_back(Items(line));
    }
    ASSERT_TRUE(std::getline(in, line));
    ++cases;
    const absl::StatusOr<double> ours = KendallTau(gts, preds);
    bool same = false;
    if (line.rfind("e ", 0) == 0) {
      ++failed;
      same = !ours.ok();
    } else {
      ++scored;
      same = ours.ok() && *ours == testing::ParseDouble(line.substr(2));
    }
    if (!same && ++mismatches <= 10) {
      ADD_FAILURE() << "case " << cases << " (" << pairs << " lists): upstream " << line
                    << ", ours "
                    << (ours.ok() ? absl::StrCat(*ours) : std::string(ours.status().message()));
    }
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_GE(cases, 300);
  EXPECT_GE(scored, 100);
  EXPECT_GE(failed, 10);
}

}  // namespace
}  // namespace mlebench
