#include "grading/metrics/regression/mean_angular_error.h"

#include <cmath>
#include <numbers>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr double kPi = std::numbers::pi;

TEST(MeanAngularErrorTest, IdenticalDirectionsScoreZero) {
  std::vector<double> az = {0.0, 1.0, 6.0}, zen = {0.5, 1.5, 3.0};
  absl::StatusOr<double> s = MeanAngularError(az, zen, az, zen);
  ASSERT_TRUE(s.ok());
  EXPECT_NEAR(*s, 0.0, 1e-7);  // arccos near 1 amplifies rounding
}

TEST(MeanAngularErrorTest, HandComputedAngles) {
  // Up vs down: pi. Equator east vs north: pi/2. Same pole with any azimuth: 0.
  std::vector<double> az_true = {0.0, 0.0, 1.0}, zen_true = {0.0, kPi / 2, 0.0};
  std::vector<double> az_pred = {0.0, kPi / 2, 4.0}, zen_pred = {kPi, kPi / 2, 0.0};
  absl::StatusOr<double> s = MeanAngularError(az_true, zen_true, az_pred, zen_pred);
  ASSERT_TRUE(s.ok());
  EXPECT_NEAR(*s, (kPi + kPi / 2 + 0.0) / 3, 1e-12);
}

TEST(MeanAngularErrorTest, ClipsDotProductsOutsideOneToKeepArccosDefined) {
  // Azimuths a full turn apart: the dot product can round just above 1.
  std::vector<double> az_true = {0.3}, zen_true = {1.1}, az_pred = {0.3 + 2 * kPi},
                      zen_pred = {1.1};
  absl::StatusOr<double> s = MeanAngularError(az_true, zen_true, az_pred, zen_pred);
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(std::isnan(*s));
  EXPECT_NEAR(*s, 0.0, 1e-7);
}

TEST(MeanAngularErrorTest, EmptyAndNaNGiveNaNAndLengthsMustMatch) {
  std::vector<double> none;
  absl::StatusOr<double> empty = MeanAngularError(none, none, none, none);
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(std::isnan(*empty));
  std::vector<double> one = {1.0}, nan = {std::nan("")};
  absl::StatusOr<double> with_nan = MeanAngularError(one, one, nan, one);
  ASSERT_TRUE(with_nan.ok());
  EXPECT_TRUE(std::isnan(*with_nan));
  std::vector<double> two = {1.0, 2.0};
  EXPECT_EQ(MeanAngularError(one, one, two, one).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace mlebench
