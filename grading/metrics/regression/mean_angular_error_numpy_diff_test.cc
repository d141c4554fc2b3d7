// Differential test: MeanAngularError against a numpy restatement of
// upstream's angular_dist_score on random inputs (sizes 1 to 100000), run
// twice (base/testing/numpy_kernels.h):
// - with numpy's baseline kernels, which call glibc's libm as we do: our value
//   must be bit for bit numpy's;
// - with this machine's kernels (on AVX-512, SVML's sin, cos and arccos, up to
//   3, 3 and 2 ulps away from libm's): our value must lie within what those
//   kernel differences can move the score, bounded case by case below.

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/testing/diff_test_kernel_bounds.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/numpy_kernels.h"
#include "base/testing/test_util.h"
#include "grading/metrics/regression/mean_angular_error.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using testing::kSvmlArccosUlps;
using testing::kSvmlSinCosUlps;
using testing::NumpyKernels;
using testing::Ulp;

constexpr char kScript[] = "grading/metrics/regression/mean_angular_error_numpy_diff_test.py";

// An operation's result, computed from operands that moved, moves by what the
// operands' moves give plus at most one ulp: each side rounds to nearest.
double Rounded(double result, double moved) { return moved + Ulp(std::fabs(result) + moved); }

struct Bounded {
  double value;
  double moved;  // the most the machine's kernels can move `value`
};

Bounded Kernel(double value, double ulps) { return {value, ulps * Ulp(value)}; }
Bounded Times(Bounded a, Bounded b) {
  const double v = a.value * b.value;
  return {v, Rounded(v, std::fabs(a.value) * b.moved + std::fabs(b.value) * a.moved +
                            a.moved * b.moved)};
}
Bounded Plus(Bounded a, Bounded b) {
  const double v = a.value + b.value;
  return {v, Rounded(v, a.moved + b.moved)};
}

// How far upstream's score can move between numpy's baseline kernels and
// SVML's: each angle's scalar product moves by what the sin/cos kernels give
// (carried through the products and sums in upstream's order), arccos turns
// that into the widest change over the product's interval (near 1 a tiny move
// of the product is a large one of the angle) plus its own kernel's ulps, and
// the mean moves by the mean of those plus the rounding of two sums of
// different terms, and the division's rounding.
double MachineKernelTolerance(const std::vector<std::vector<double>>& a) {
  const size_t n = a[0].size();
  double moved = 0, magnitude = 0;
  for (size_t i = 0; i < n; ++i) {
    const Bounded sa1 = Kernel(std::sin(a[0][i]), kSvmlSinCosUlps);
    const Bounded ca1 = Kernel(std::cos(a[0][i]), kSvmlSinCosUlps);
    const Bounded sz1 = Kernel(std::sin(a[1][i]), kSvmlSinCosUlps);
    const Bounded cz1 = Kernel(std::cos(a[1][i]), kSvmlSinCosUlps);
    const Bounded sa2 = Kernel(std::sin(a[2][i]), kSvmlSinCosUlps);
    const Bounded ca2 = Kernel(std::cos(a[2][i]), kSvmlSinCosUlps);
    const Bounded sz2 = Kernel(std::sin(a[3][i]), kSvmlSinCosUlps);
    const Bounded cz2 = Kernel(std::cos(a[3][i]), kSvmlSinCosUlps);
    const Bounded dot =
        Plus(Times(Times(sz1, sz2), Plus(Times(ca1, ca2), Times(sa1, sa2))), Times(cz1, cz2));
    const auto angle = [](double x) { return std::acos(std::clamp(x, -1.0, 1.0)); };
    const double at = angle(dot.value);
    const double widest = std::max(std::fabs(angle(dot.value - dot.moved) - at),
                                   std::fabs(angle(dot.value + dot.moved) - at));
    // One more ulp for libm's own rounding of the interval's two ends.
    moved += widest + (kSvmlArccosUlps + 1) * Ulp(at);
    magnitude += std::fabs(at);
  }
  return (moved + testing::NumpySumRounding(n, magnitude)) / n + Ulp(magnitude / n);
}

class MeanAngularErrorNumpyDiffTest : public ::testing::TestWithParam<NumpyKernels> {};

TEST_P(MeanAngularErrorNumpyDiffTest, MatchesUpstreamOnRandomInputs) {
  const NumpyKernels kernels = GetParam();
  const std::string cases_path = absl::StrCat(testing::NewTempDir("cases").string(), "/cases.txt");
  const absl::Status run = testing::RunNumpyReference(kernels, kScript, {cases_path});
  ASSERT_TRUE(run.ok()) << run;
  std::ifstream in(cases_path);
  ASSERT_TRUE(in);
  std::string line;
  int cases = 0, identical = 0;
  double widest_tolerance = 0;
  while (std::getline(in, line)) {
    ASSERT_EQ(line.rfind("case ", 0), 0u) << line;
    std::vector<std::vector<double>> arrays(4);
    for (auto& a : arrays) {
      ASSERT_TRUE(std::getline(in, line));
      a = testing::ParseDoubles(line);
    }
    ASSERT_TRUE(std::getline(in, line));
    const double reference = testing::ParseDouble(testing::Tokens(line).at(1));
    absl::StatusOr<double> ours = MeanAngularError(arrays[0], arrays[1], arrays[2], arrays[3]);
    ASSERT_TRUE(ours.ok()) << ours.status();
    identical += *ours == reference;
    if (kernels == NumpyKernels::kBaseline) {
      EXPECT_EQ(*ours, reference) << "case " << cases << " n=" << arrays[0].size()
                                  << ": differs by " << *ours - reference;
    } else {
      const double tolerance = MachineKernelTolerance(arrays);
      widest_tolerance = std::max(widest_tolerance, tolerance);
      EXPECT_NEAR(*ours, reference, tolerance) << "case " << cases << " n=" << arrays[0].size();
    }
    ++cases;
  }
  EXPECT_EQ(cases, 307);
  std::cout << testing::NumpyKernelsName(kernels) << " kernels: " << identical << " of " << cases
            << " bit-identical, widest tolerance " << widest_tolerance << "\n";
}

INSTANTIATE_TEST_SUITE_P(NumpyKernels, MeanAngularErrorNumpyDiffTest,
                         ::testing::Values(NumpyKernels::kBaseline, NumpyKernels::kMachine),
                         [](const auto& info) { return testing::NumpyKernelsName(info.param); });

}  // namespace
}  // namespace mlebench
