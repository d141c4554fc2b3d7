#include "grading/metrics/regression/haversine.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

TEST(HaversineDistancesMetersTest, SamePointIsZero) {
  std::vector<double> lat = {37.4, -10}, lng = {-122.1, 170};
  absl::StatusOr<std::vector<double>> d = HaversineDistancesMeters(lat, lng, lat, lng);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ((*d)[0], 0);
  EXPECT_EQ((*d)[1], 0);
}

TEST(HaversineDistancesMetersTest, KnownDistances) {
  // One degree of latitude on the 6,371 km sphere is R * pi / 180.
  const double one_degree = 6371000 * M_PI / 180;
  std::vector<double> lat1 = {0, 0, 90}, lng1 = {0, 0, 0};
  std::vector<double> lat2 = {1, 0, -90}, lng2 = {0, 1, 0};
  absl::StatusOr<std::vector<double>> d = HaversineDistancesMeters(lat1, lng1, lat2, lng2);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_NEAR((*d)[0], one_degree, 1e-6);
  EXPECT_NEAR((*d)[1], one_degree, 1e-6);  // on the equator
  EXPECT_NEAR((*d)[2], 6371000 * M_PI, 1e-6);  // pole to pole
}

TEST(HaversineDistancesMetersTest, NanAndInfinityGiveNan) {
  std::vector<double> lat1 = {NAN, INFINITY}, lng1 = {0, 0}, lat2 = {0, 0}, lng2 = {0, 0};
  absl::StatusOr<std::vector<double>> d = HaversineDistancesMeters(lat1, lng1, lat2, lng2);
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(std::isnan((*d)[0]));
  EXPECT_TRUE(std::isnan((*d)[1]));
}

TEST(HaversineDistancesMetersTest, BoolPredictionsAreFloat16Angles) {
  // numpy 1.26.4's np.deg2rad and np.cos of a bool array are float16
  // (True: 0.0174560546875 rad, cosine 1); values from upstream's formula.
  std::vector<double> flags = {1, 0}, lat = {10, 11}, lng = {20, 21}, same_lng = {20, 20};
  absl::StatusOr<std::vector<double>> d =
      HaversineDistancesMeters(flags, same_lng, lat, lng, AngleDtype::kBool, AngleDtype::kFloat64);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ((*d)[0], 1000736.7420315248);
  EXPECT_EQ((*d)[1], 1228126.109277834);
  d = HaversineDistancesMeters(lat, flags, lat, lng, AngleDtype::kFloat64, AngleDtype::kBool);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ((*d)[0], 2080299.0189823257);
  EXPECT_EQ((*d)[1], 2291717.997073268);
}

TEST(HaversineDistancesMetersTest, LengthMismatchIsError) {
  std::vector<double> two = {0, 0}, one = {0};
  EXPECT_FALSE(HaversineDistancesMeters(two, two, two, one).ok());
}

TEST(NumpyQuantileLinearTest, Interpolates) {
  std::vector<double> v = {4, 1, 3, 2};
  EXPECT_EQ(*NumpyQuantileLinear(v, 0.5), 2.5);
  EXPECT_EQ(*NumpyQuantileLinear(v, 0), 1);
  EXPECT_EQ(*NumpyQuantileLinear(v, 1), 4);
  EXPECT_NEAR(*NumpyQuantileLinear(v, 0.95), 3.85, 1e-12);  // index 2.85
  std::vector<double> one = {7};
  EXPECT_EQ(*NumpyQuantileLinear(one, 0.95), 7);
}

TEST(NumpyQuantileLinearTest, NanPropagatesAndEmptyIsError) {
  std::vector<double> v = {1, NAN, 3};
  EXPECT_TRUE(std::isnan(*NumpyQuantileLinear(v, 0.5)));
  EXPECT_FALSE(NumpyQuantileLinear({}, 0.5).ok());
  std::vector<double> ok = {1};
  EXPECT_FALSE(NumpyQuantileLinear(ok, 1.5).ok());
}

TEST(TripHaversineScoreTest, MeanOfMedianAnd95thPercentile) {
  // Distances 0, 1, 2, 3 degrees along a meridian: p50 = 1.5, p95 = 2.85.
  std::vector<double> lat1 = {0, 0, 0, 0}, lat2 = {0, 1, 2, 3}, lng = {0, 0, 0, 0};
  const double one_degree = 6371000 * M_PI / 180;
  absl::StatusOr<double> s = TripHaversineScore(lat1, lng, lat2, lng);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_NEAR(*s, (1.5 + 2.85) / 2 * one_degree, 1e-6);
  EXPECT_FALSE(TripHaversineScore({}, {}, {}, {}).ok());
}

}  // namespace
}  // namespace mlebench
