#include "base/testing/numpy_kernels.h"

#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench::testing {
namespace {

using ::testing::IsEmpty;
using ::testing::Not;

TEST(NumpyKernelsTest, DispatchedFeaturesAreListed) {
  absl::StatusOr<std::vector<std::string>> features = NumpyDispatchedFeatures();
  ASSERT_TRUE(features.ok()) << features.status();
  // numpy 1.26's x86-64 wheel dispatches from SSSE3 up to AVX-512; which of them
  // this machine has depends on its CPU (any x86-64 has SSE2, the baseline).
  for (const std::string& feature : *features) {
    EXPECT_THAT(feature, ::testing::AnyOf("SSSE3", "SSE41", "POPCNT", "SSE42", "AVX", "F16C",
                                          "FMA3", "AVX2", "AVX512F", "AVX512CD", "AVX512_SKX",
                                          "AVX512_CLX", "AVX512_CNL", "AVX512_ICL"));
  }
}

TEST(NumpyKernelsTest, BaselineTurnsEveryDispatchedFeatureOff) {
  absl::StatusOr<std::vector<std::string>> enabled =
      NumpyEnabledDispatchedFeatures(NumpyKernels::kBaseline);
  ASSERT_TRUE(enabled.ok()) << enabled.status();
  EXPECT_THAT(*enabled, IsEmpty()) << absl::StrJoin(*enabled, " ");
}

TEST(NumpyKernelsTest, MachineRunsWhatTheEnvironmentAllows) {
  ASSERT_EQ(unsetenv("NPY_DISABLE_CPU_FEATURES"), 0);
  absl::StatusOr<std::vector<std::string>> all =
      NumpyEnabledDispatchedFeatures(NumpyKernels::kMachine);
  ASSERT_TRUE(all.ok()) << all.status();
  // SSSE3 and AVX2: every x86-64 CPU of the last ten years has them.
  EXPECT_THAT(*all, ::testing::IsSupersetOf({"SSSE3", "AVX2"}));

  // A restriction this process inherits stands for another machine's CPU.
  ASSERT_EQ(setenv("NPY_DISABLE_CPU_FEATURES", "AVX2", 1), 0);
  absl::StatusOr<std::vector<std::string>> restricted =
      NumpyEnabledDispatchedFeatures(NumpyKernels::kMachine);
  absl::StatusOr<std::vector<std::string>> baseline =
      NumpyEnabledDispatchedFeatures(NumpyKernels::kBaseline);
  unsetenv("NPY_DISABLE_CPU_FEATURES");
  ASSERT_TRUE(restricted.ok()) << restricted.status();
  EXPECT_THAT(*restricted, ::testing::Contains("SSSE3"));
  EXPECT_THAT(*restricted, Not(::testing::Contains("AVX2")));
  ASSERT_TRUE(baseline.ok()) << baseline.status();
  EXPECT_THAT(*baseline, IsEmpty());
}

}  // namespace
}  // namespace mlebench::testing
