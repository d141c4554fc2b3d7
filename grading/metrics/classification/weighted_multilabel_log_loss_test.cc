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

// rsna-2022's eight columns and weights, on values (hard 0/1 predictions,
// clipped) whose logs numpy's SIMD kernels and libm agree on.
absl::StatusOr<double> CervicalLoss(const std::vector<double>& truth,
                                    const std::vector<double>& pred) {
  return WeightedMultilabelLogLoss(MatrixView{truth, truth.size() / 8, 8},
                                   MatrixView{pred, pred.size() / 8, 8},
                                   {7, 1, 1, 1, 1, 1, 1, 1}, {14, 2, 2, 2, 2, 2, 2, 2});
}

TEST(WeightedMultilabelLogLossTest, SumsOneRowPairwiseAndSeveralLeftToRight) {
  // numpy 1.26 on upstream's matrices (DataFrame.to_numpy(), column-major):
  // one row is contiguous and np.sum(axis=1) adds it pairwise,
  // 25.904148929302195; two copies of it are added column by column, left
  // to right, 25.9041489293022.
  const std::vector<double> truth = {1, 0, 1, 0, 0, 1, 1, 0};
  const std::vector<double> pred = {0, 1, 1, 0, 1, 0, 1, 0};
  EXPECT_EQ(*CervicalLoss(truth, pred), 25.904148929302195);
  std::vector<double> truth2 = truth, pred2 = pred;
  truth2.insert(truth2.end(), truth.begin(), truth.end());
  pred2.insert(pred2.end(), pred.begin(), pred.end());
  EXPECT_EQ(*CervicalLoss(truth2, pred2), 25.9041489293022);
}

}  // namespace
}  // namespace mlebench
