// Differential test: MeanAveragePrecisionAtK (with SplitOnSpace turning label
// texts into lists, as upstream's graders do) against a line-for-line Python
// restatement of upstream's mean_average_precision_at_k, run with the
// reference environment's numpy 1.26.4 on random cases of 1 to 1e5 rows (see the script). The
// scores must agree bit for bit (both sides take numpy's mean), NaN included.

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/test_util.h"
#include "grading/metrics/ranking/map_at_k.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

// "h<hex>" -> the bytes (a one-character tag, then the hex).
std::string Unhex(const std::string& token) {
  return testing::Unhex(std::string_view(token).substr(token.empty() ? 0 : 1));
}

constexpr char kScript[] = "grading/metrics/ranking/map_at_k_diff_test.py";

TEST(MapAtKDiffTest, MatchesUpstreamOnRandomInputs) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/map_at_k_cases.txt");
  // MAP_AT_K_DIFF_SEED (--test_env=MAP_AT_K_DIFF_SEED=7) explores other inputs.
  const char* seed = std::getenv("MAP_AT_K_DIFF_SEED");
  const std::string command =
      absl::StrCat(testing::ReferencePython(), " ", kScript, " ", cases_path, " ", seed == nullptr ? "" : seed);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  std::ifstream in(cases_path);
  ASSERT_TRUE(in) << cases_path;
  int cases = 0, nan_cases = 0, failures = 0;
  std::string line;
  while (std::getline(in, line)) {
    ASSERT_EQ(line.rfind("case ", 0), 0u) << line;
    int k = 0;
    size_t n_actual = 0, n_predicted = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "case %d %zu %zu", &k, &n_actual, &n_predicted), 3);
    std::vector<std::set<std::string>> actual;
    std::vector<std::vector<std::string>> predicted;
    for (size_t i = 0; i < n_actual && std::getline(in, line); ++i) {
      const std::vector<std::string> labels = SplitOnSpace(Unhex(line.substr(2)));
      actual.emplace_back(labels.begin(), labels.end());
    }
    for (size_t i = 0; i < n_predicted && std::getline(in, line); ++i) {
      predicted.push_back(SplitOnSpace(Unhex(line.substr(2))));
    }
    ASSERT_TRUE(std::getline(in, line));
    ASSERT_EQ(line.rfind("r ", 0), 0u) << line;
    const std::string expected_text = line.substr(2);
    const double expected = expected_text == "nan" ? std::nan("") : std::stod(expected_text);
    absl::StatusOr<double> ours = MeanAveragePrecisionAtK(actual, predicted, k);
    ASSERT_TRUE(ours.ok()) << ours.status();
    ++cases;
    if (std::isnan(expected)) ++nan_cases;
    const bool same = std::isnan(expected) ? std::isnan(*ours) : *ours == expected;
    if (!same && ++failures <= 10) {
      ADD_FAILURE() << "case " << cases << " (k=" << k << ", " << n_actual << " x " << n_predicted
                    << " rows): ours " << *ours << ", upstream " << expected_text;
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GE(cases, 200);
  EXPECT_GE(nan_cases, 1);  // zip over an empty prediction list
}

}  // namespace
}  // namespace mlebench
