#include "grading/metrics/regression/laplace_log_likelihood.h"

#include <cmath>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using V = std::vector<double>;

TEST(LaplaceLogLikelihoodTest, HandComputed) {
  // Error 100 at confidence 100: -sqrt(2) - log(100 sqrt(2)).
  const double one = -std::sqrt(2.0) - std::log(100 * std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(*LaplaceLogLikelihood(V{2000}, V{2100}, V{100}), one);
  // Confidence clipped up to 70, error clipped down to 1000.
  const double clipped = -std::sqrt(2.0) * 1000 / 70 - std::log(70 * std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(*LaplaceLogLikelihood(V{2000, 0}, V{2100, 5000}, V{100, 3}),
                   (one + clipped) / 2);
}

TEST(LaplaceLogLikelihoodTest, BroadcastsLengthOne) {
  EXPECT_DOUBLE_EQ(*LaplaceLogLikelihood(V{2000}, V{2100, 1900}, V{100, 100}),
                   -std::sqrt(2.0) - std::log(100 * std::sqrt(2.0)));
  EXPECT_EQ(LaplaceLogLikelihood(V{1, 2, 3}, V{1, 2}, V{1, 2}).status().message(),
            "operands could not be broadcast together with shapes (3,) (2,) ");
  EXPECT_EQ(LaplaceLogLikelihood(V{1, 2}, V{1, 2}, V{1, 2, 3}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(LaplaceLogLikelihoodTest, NanPropagatesAndEmptyIsNan) {
  EXPECT_TRUE(std::isnan(*LaplaceLogLikelihood(V{1, 2}, V{NAN, 2}, V{100, 100})));
  EXPECT_TRUE(std::isnan(*LaplaceLogLikelihood(V{1}, V{1}, V{NAN})));
  EXPECT_TRUE(std::isnan(*LaplaceLogLikelihood(V{}, V{}, V{})));
  EXPECT_EQ(*LaplaceLogLikelihood(V{1}, V{1}, V{INFINITY}), -INFINITY);
}

}  // namespace
}  // namespace mlebench
