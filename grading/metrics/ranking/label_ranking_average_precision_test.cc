#include "grading/metrics/ranking/label_ranking_average_precision.h"

#include <limits>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

absl::StatusOr<double> Lrap(const std::vector<double>& truth, const std::vector<double>& scores,
                            size_t cols, const std::vector<double>& weights = {}) {
  return LabelRankingAveragePrecision(MatrixView{truth, truth.size() / cols, cols},
                                      MatrixView{scores, scores.size() / cols, cols}, weights);
}

TEST(LabelRankingAveragePrecisionTest, HandComputed) {
  // scikit-learn's docstring example: (1/2 + 1/3) / 2.
  EXPECT_DOUBLE_EQ(*Lrap({1, 0, 0, 0, 0, 1}, {0.75, 0.5, 1, 1, 0.2, 0.1}, 3), (0.5 + 1.0 / 3) / 2);
  // Perfect ranking.
  EXPECT_EQ(*Lrap({1, 0, 1, 0}, {0.9, 0.1, 0.8, 0.7}, 4), 1.0);
}

TEST(LabelRankingAveragePrecisionTest, TiesCountAgainstTheLabel) {
  // The relevant label ties with two others: rank 3, L 1.
  EXPECT_DOUBLE_EQ(*Lrap({1, 0, 0}, {0.5, 0.5, 0.5}, 3), 1.0 / 3);
  // Two relevant labels tied at the top with one irrelevant: 2/3 each.
  EXPECT_DOUBLE_EQ(*Lrap({1, 1, 0, 0}, {0.5, 0.5, 0.5, 0.1}, 4), 2.0 / 3);
}

TEST(LabelRankingAveragePrecisionTest, AllOrNoLabelsScoreOneAndWeightsApply) {
  EXPECT_EQ(*Lrap({0, 0, 1, 1}, {0.1, 0.9, 0.2, 0.3}, 2), 1.0);
  // Weighted: sample scores 1/2 and 1 with weights 3 and 1.
  EXPECT_DOUBLE_EQ(*Lrap({1, 0, 1, 0}, {0.1, 0.9, 0.9, 0.1}, 2, {3, 1}), (3 * 0.5 + 1) / 4);
}

TEST(LabelRankingAveragePrecisionTest, RejectsWhatScikitLearnRejects) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(Lrap({1, 0}, {nan, 0.1}, 2).ok());
  EXPECT_FALSE(Lrap({1, 0}, {std::numeric_limits<double>::infinity(), 0.1}, 2).ok());
  EXPECT_FALSE(Lrap({}, {}, 2).ok());
  EXPECT_FALSE(Lrap({2, 0}, {0.5, 0.1}, 2).ok());
  EXPECT_FALSE(Lrap({1, 0}, {0.5, 0.1}, 2, {1, 2}).ok());
  EXPECT_FALSE(LabelRankingAveragePrecision(MatrixView{std::vector<double>{1, 0}, 1, 2},
                                            MatrixView{std::vector<double>{1, 0, 0}, 1, 3})
                   .ok());
}

}  // namespace
}  // namespace mlebench
