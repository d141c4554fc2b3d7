#include "grading/metrics/classification/weighted_multilabel_log_loss.h"

#include <cmath>
#include <limits>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

const std::vector<double> kNegative = {7, 1};
const std::vector<double> kPositive = {14, 2};

absl::StatusOr<double> Loss(const std::vector<double>& truth, const std::vector<double>& pred) {
  return WeightedMultilabelLogLoss(MatrixView{truth, truth.size() / 2, 2},
                                   MatrixView{pred, pred.size() / 2, 2}, kNegative, kPositive);
}

TEST(WeightedMultilabelLogLossTest, HandComputed) {
  // Row 1: y = (1, 0), p = (0.5, 0.5): (14 ln2 + 1 ln2) / 15 = ln 2.
  // Row 2: y = (0, 1), p = (0.2, 0.9): (7 * -ln 0.8 + 2 * -ln 0.9) / 9.
  const double row2 = (7 * -std::log(0.8) + 2 * -std::log(0.9)) / 9;
  EXPECT_DOUBLE_EQ(*Loss({1, 0, 0, 1}, {0.5, 0.5, 0.2, 0.9}), (std::log(2.0) + row2) / 2);
}

TEST(WeightedMultilabelLogLossTest, ClipsCertainty) {
  // A perfect hard prediction costs only the clipping: about 1e-15.
  EXPECT_LT(*Loss({1, 0}, {1, 0}), 1e-14);
  // A confidently wrong one is bounded: 0 becomes 1e-15, 1 becomes
  // 1 - 1e-15 (whose distance to 1 rounds to about 0.999e-15).
  EXPECT_DOUBLE_EQ(*Loss({1, 0}, {0, 1}),
                   (14 * -std::log(1e-15) + 1 * -std::log(1 - (1 - 1e-15))) / 15);
}

TEST(WeightedMultilabelLogLossTest, NanPropagatesAndShapesMustMatch) {
  EXPECT_TRUE(std::isnan(*Loss({1, 0}, {std::numeric_limits<double>::quiet_NaN(), 0.5})));
  EXPECT_FALSE(Loss({1, 0}, {0.5}).ok());
  EXPECT_FALSE(Loss({}, {}).ok());
}

}  // namespace
}  // namespace mlebench
