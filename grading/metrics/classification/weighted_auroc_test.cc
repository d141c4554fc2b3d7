#include "grading/metrics/classification/weighted_auroc.h"

#include <cmath>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::HasSubstr;

TEST(AlaskaWeightedAucTest, PerfectAndReversedRankings) {
  EXPECT_EQ(*AlaskaWeightedAuc({0, 0, 1, 1}, {0.1, 0.2, 0.8, 0.9}), 1.0);
  EXPECT_EQ(*AlaskaWeightedAuc({0, 0, 1, 1}, {0.9, 0.8, 0.2, 0.1}), 0.0);
}

TEST(AlaskaWeightedAucTest, ConstantPredictionHandComputed) {
  // ROC (0,0)-(1,1), 0.4 inserted at (0.4,0.4). Lower band: trapezoids over
  // (0,0),(0.4,0.4),(1,0.4) = 0.08 + 0.24; upper band: (0.4,0),(1,0.6),(1,0.6)
  // = 0.18. (2 * 0.32 + 0.18) / 1.4.
  const double expected = (2 * (0.4 * 0.4 / 2.0 + 0.6 * 0.8 / 2.0) + 0.6 * 0.6 / 2.0) / (0.8 + 0.6);
  EXPECT_NEAR(*AlaskaWeightedAuc({0, 1, 0, 1}, {0, 0, 0, 0}), expected, 1e-15);
  EXPECT_NEAR(*AlaskaWeightedAuc({0, 1, 0, 1}, {0, 0, 0, 0}), 0.82 / 1.4, 1e-15);
}

TEST(AlaskaWeightedAucTest, WeightsTheLowTprBandTwice) {
  // Positives ranked 1st and 4th of 2 + 2: ROC (0,0),(0,0.5),(1,0.5),(1,1)
  // after dropping collinear points; lower band is all area (0.4 * 1 over
  // width 1) = 0.4, upper band: (0,0.1)... computed from the trapezoids:
  // band 2 points (0,0.5)->(0,0.1), (1,0.5)->(1,0.1), (1,1)->(1,0.6),
  // closed at (1,0.6): area 0.1 * 1 = 0.1.
  EXPECT_DOUBLE_EQ(*AlaskaWeightedAuc({1, 0, 0, 1}, {0.9, 0.8, 0.7, 0.6}), (2 * 0.4 + 0.1) / 1.4);
}

TEST(AlaskaWeightedAucTest, OneClassLikeUpstream) {
  // No positives: every TPR is NaN, no band has points, the score is 0.
  EXPECT_EQ(*AlaskaWeightedAuc({0, 0, 0}, {0.1, 0.5, 0.2}), 0.0);
  // No negatives: every FPR is NaN.
  EXPECT_TRUE(std::isnan(*AlaskaWeightedAuc({1, 1}, {0.1, 0.5})));
  // Other labels are negatives (pos_label=1).
  EXPECT_EQ(*AlaskaWeightedAuc({2, 2, 1, 1}, {0.1, 0.2, 0.8, 0.9}), 1.0);
}

TEST(AlaskaWeightedAucTest, ErrorsLikeScikitLearn) {
  EXPECT_THAT(AlaskaWeightedAuc({0, 1}, {0.5}).status().message(), HasSubstr("inconsistent"));
  EXPECT_THAT(AlaskaWeightedAuc({}, {}).status().message(), HasSubstr("0 sample"));
  EXPECT_THAT(AlaskaWeightedAuc({0, NAN}, {0.5, 0.5}).status().message(), HasSubstr("y_true"));
  EXPECT_THAT(AlaskaWeightedAuc({0, 0.5}, {0.5, 0.5}).status().message(), HasSubstr("continuous"));
  EXPECT_THAT(AlaskaWeightedAuc({0, 1}, {0.5, NAN}).status().message(), HasSubstr("NaN"));
  EXPECT_THAT(AlaskaWeightedAuc({0, 1}, {0.5, INFINITY}).status().message(), HasSubstr("infinity"));
}

}  // namespace
}  // namespace mlebench
