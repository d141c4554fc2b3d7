#include "grading/metrics/classification/jigsaw_bias_auc.h"

#include <cmath>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::HasSubstr;

TEST(JigsawBiasAucTest, PerfectScoresGiveOne) {
  const std::vector<double> toxic = {0, 1, 0, 1, 0, 1};
  const std::vector<std::vector<bool>> identities = {{true, true, false, false, true, true},
                                                     {false, true, true, true, true, false}};
  EXPECT_EQ(*JigsawBiasAuc(toxic, toxic, identities), 1.0);
}

TEST(JigsawBiasAucTest, HandComputed) {
  // One identity, rows 0..3 in it. Scores: toxic rows 1 and 5 score 0.9 and
  // 0.2; non-toxic rows 0, 2, 3, 4 score 0.1, 0.3, 0.3, 0.8.
  const std::vector<double> toxic = {0, 1, 0, 0, 0, 1};
  const std::vector<double> score = {0.1, 0.9, 0.3, 0.3, 0.8, 0.2};
  const std::vector<std::vector<bool>> identities = {{true, true, true, true, false, false}};
  // Overall: pairs (toxic, non-toxic) ranked right: 0.9 beats all 4; 0.2
  // beats only 0.1: 5/8. Subgroup (rows 0..3): 1. BPSN (non-toxic in 0..3,
  // toxic row 5): 0.2 vs 0.1, 0.3, 0.3: 1/3. BNSP (toxic row 1, non-toxic
  // row 4): 1. With one identity each power mean is the AUC itself.
  const double expected = 0.25 * (5.0 / 8.0) + (((0.25 * 1.0) + 0.25 * (1.0 / 3.0)) + 0.25 * 1.0);
  EXPECT_NEAR(*JigsawBiasAuc(toxic, score, identities), expected, 1e-15);
}

TEST(JigsawBiasAucTest, PowerMeanOverIdentities) {
  // Two identities whose subgroup AUCs are 1 and 0.5 (others 1):
  // M_-5 = ((1 + 0.5^-5) / 2)^(-1/5).
  const std::vector<double> toxic = {0, 1, 0, 1};
  const std::vector<double> score = {0, 1, 1, 1};
  const std::vector<std::vector<bool>> identities = {{true, true, false, false},
                                                     {false, false, true, true}};
  absl::StatusOr<double> got = JigsawBiasAuc(toxic, score, identities);
  ASSERT_TRUE(got.ok()) << got.status();
  // Overall AUC: toxic (1, 1) vs non-toxic (0, 1): (1 + 0.5 + 1 + 0.5) / 4 = 0.75.
  // BPSN g0 (row 0 non-toxic in g0; row 3 toxic outside): 1; g1 (row 2, row 1): 0.5.
  // BNSP g0 (row 1 toxic in g0; row 2 non-toxic outside): 0.5; g1 (row 3, row 0): 1.
  const double m = std::pow((std::pow(1.0, -5.0) + std::pow(0.5, -5.0)) / 2.0, -0.2);
  EXPECT_NEAR(*got, 0.25 * 0.75 + 3 * 0.25 * m, 1e-15);
}

TEST(JigsawBiasAucTest, ZeroAucMakesItsPowerMeanZero) {
  // Subgroup AUC 0 (numpy: 0 ** -5 = inf, inf ** -0.2 = 0).
  const std::vector<double> toxic = {0, 1, 0, 1};
  const std::vector<double> score = {1, 0, 0, 1};
  const std::vector<std::vector<bool>> identities = {{true, true, false, false}};
  absl::StatusOr<double> got = JigsawBiasAuc(toxic, score, identities);
  ASSERT_TRUE(got.ok()) << got.status();
  // Overall 0.5; subgroup (rows 0, 1) 0, so its power mean is 0; BPSN (row 0
  // vs row 3, both 1) and BNSP (row 1 vs row 2, both 0) ties: 0.5.
  EXPECT_EQ(*got, 0.25 * 0.5 + ((0.25 * 0.0 + 0.25 * 0.5) + 0.25 * 0.5));
}

TEST(JigsawBiasAucTest, Errors) {
  const std::vector<double> toxic = {0, 1, 0, 1};
  const std::vector<std::vector<bool>> one = {{true, true, false, false}};
  EXPECT_THAT(std::string(JigsawBiasAuc(toxic, {0.0, 1.0}, one).status().message()),
              HasSubstr("differ in length"));
  EXPECT_THAT(std::string(JigsawBiasAuc({0, 2, 0, 1}, toxic, one).status().message()),
              HasSubstr("not 0 or 1"));
  EXPECT_THAT(std::string(JigsawBiasAuc(toxic, toxic, {}).status().message()),
              HasSubstr("no identity"));
  EXPECT_THAT(
      std::string(JigsawBiasAuc(toxic, toxic, {{true, false}}).status().message()),
      HasSubstr("identity 0 has 2 rows"));
  EXPECT_FALSE(JigsawBiasAuc(toxic, toxic, one, 0.0).ok());
  EXPECT_THAT(std::string(JigsawBiasAuc({0, 0}, {0.0, 1.0}, {{true, false}}).status().message()),
              HasSubstr("overall AUC: Only one class"));
  EXPECT_THAT(std::string(
                  JigsawBiasAuc(toxic, toxic, {{true, false, true, false}}).status().message()),
              HasSubstr("subgroup AUC of identity 0: Only one class"));
  // Everyone in the identity: BPSN has only non-toxic rows.
  EXPECT_THAT(std::string(JigsawBiasAuc(toxic, toxic, {{true, true, true, true}}).status().message()),
              HasSubstr("BPSN AUC of identity 0: Only one class"));
  EXPECT_THAT(std::string(JigsawBiasAuc({}, {}, {{}}).status().message()),
              HasSubstr("overall AUC: Found array with 0 sample"));
}

}  // namespace
}  // namespace mlebench
