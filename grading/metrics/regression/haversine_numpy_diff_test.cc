// Differential test: TripHaversineScore against a numpy restatement of
// upstream's calc_score on random inputs (sizes 1 to 100000), run twice
// (base/testing/numpy_kernels.h): with numpy's baseline kernels (glibc's
// sin, cos and arcsin, as ours) bit for bit; with this machine's (on AVX-512,
// SVML's, a few ulps from glibc's) within 1e-9 relative. NaN must match NaN.

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/numpy_kernels.h"
#include "base/testing/test_util.h"
#include "grading/metrics/regression/haversine.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr char kScript[] = "grading/metrics/regression/haversine_numpy_diff_test.py";

class HaversineNumpyDiffTest : public ::testing::TestWithParam<testing::NumpyKernels> {};

TEST_P(HaversineNumpyDiffTest, MatchesUpstreamOnRandomInputs) {
  const testing::NumpyKernels kernels = GetParam();
  const std::string cases_path =
      absl::StrCat(testing::NewTempDir("cases").string(), "/haversine_cases.txt");
  const absl::Status run = testing::RunNumpyReference(kernels, kScript, {cases_path});
  ASSERT_TRUE(run.ok()) << run;
  std::ifstream in(cases_path);
  ASSERT_TRUE(in);
  std::string line;
  int cases = 0, nan_cases = 0;
  while (std::getline(in, line)) {
    ASSERT_EQ(line.rfind("case ", 0), 0u) << line;
    std::vector<std::vector<double>> arrays(4);
    for (auto& a : arrays) {
      ASSERT_TRUE(std::getline(in, line));
      a = testing::ParseDoubles(line);
    }
    ASSERT_TRUE(std::getline(in, line));
    const double reference = testing::ParseDouble(testing::Tokens(line).at(1));
    absl::StatusOr<double> ours = TripHaversineScore(arrays[0], arrays[1], arrays[2], arrays[3]);
    ASSERT_TRUE(ours.ok()) << ours.status();
    if (std::isnan(reference)) {
      EXPECT_TRUE(std::isnan(*ours)) << "case " << cases;
      ++nan_cases;
    } else if (kernels == testing::NumpyKernels::kBaseline) {
      EXPECT_EQ(*ours, reference) << "case " << cases << " n=" << arrays[0].size()
                                  << ": differs by " << *ours - reference;
    } else {
      // No bound derived from SVML's arcsin yet (docs/dependencies.md): the
      // machine's kernels keep the relative tolerance this test always had.
      EXPECT_NEAR(*ours, reference, 1e-9 * std::max(1.0, std::fabs(reference)))
          << "case " << cases << " n=" << arrays[0].size();
    }
    ++cases;
  }
  EXPECT_EQ(cases, 307);
  EXPECT_GT(nan_cases, 0);
}

INSTANTIATE_TEST_SUITE_P(NumpyKernels, HaversineNumpyDiffTest,
                         ::testing::Values(testing::NumpyKernels::kBaseline,
                                           testing::NumpyKernels::kMachine),
                         [](const auto& info) { return testing::NumpyKernelsName(info.param); });

}  // namespace
}  // namespace mlebench
