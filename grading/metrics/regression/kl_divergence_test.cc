#include "grading/metrics/regression/kl_divergence.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Column Floats(std::string name, std::vector<double> values) {
  Column column{std::move(name), Dtype::kFloat64, {}};
  for (double v : values) column.cells.push_back(v);
  return column;
}

// The examples in the docstring of Kaggle's metric.
TEST(KlDivergenceScoreTest, KaggleDocstringExamples) {
  Table solution({Floats("ham", {0, 1, 1, 0}), Floats("spam", {1, 0, 0, 1})});
  Table submission({Floats("ham", {.1, .9, .8, .35}), Floats("spam", {.9, .1, .2, .65})});
  absl::StatusOr<double> score = KlDivergenceScore(solution, submission);
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_NEAR(*score, 0.216161, 1e-6);

  Table sol3({Floats("ham", {0, .5, .5}), Floats("spam", {.1, .5, .5}),
              Floats("other", {.9, 0, 0})});
  ASSERT_TRUE(KlDivergenceScore(sol3, sol3).ok());
  EXPECT_NEAR(*KlDivergenceScore(sol3, sol3), 0.0, 1e-12);
  Table sub3({Floats("ham", {.2, .3, .5}), Floats("spam", {.1, .5, .5}),
              Floats("other", {.7, .2, 0})});
  EXPECT_NEAR(*KlDivergenceScore(sol3, sub3), 0.160531, 1e-6);
}

TEST(KlDivergenceScoreTest, HandComputedWithClipping) {
  // Row 0: y=(1,0) p=(0,1): 1*log(1/1e-15). Row 1: y=(.5,.5) p=(.25,.75).
  Table solution({Floats("a", {1, .5}), Floats("b", {0, .5})});
  Table submission({Floats("a", {0, .25}), Floats("b", {1, .75})});
  const double row0 = std::log(1 / 1e-15);
  const double row1 = .5 * std::log(.5 / .25) + .5 * std::log(.5 / .75);
  EXPECT_NEAR(*KlDivergenceScore(solution, submission), (row0 + row1) / 2, 1e-12);
}

TEST(KlDivergenceScoreTest, NaNPredictionsDropOutOfRowSums) {
  // NaN passes the range checks and the NaN loss is skipped by the row sum.
  Table solution({Floats("a", {.5}), Floats("b", {.5})});
  Table submission({Floats("a", {kNaN}), Floats("b", {1.0})});
  EXPECT_NEAR(*KlDivergenceScore(solution, submission), .5 * std::log(.5 / (1 - 1e-15)), 1e-15);
}

TEST(KlDivergenceScoreTest, Rejections) {
  Table solution({Floats("a", {.5}), Floats("b", {.5})});
  EXPECT_FALSE(KlDivergenceScore(solution, Table({Floats("a", {1})})).ok());  // missing b
  EXPECT_FALSE(
      KlDivergenceScore(solution, Table({Floats("a", {-.1}), Floats("b", {1.1})})).ok());
  EXPECT_FALSE(KlDivergenceScore(solution, Table({Floats("a", {.4}), Floats("b", {.5})})).ok());
  // An extra numeric column counts in the row sums.
  EXPECT_FALSE(KlDivergenceScore(solution, Table({Floats("a", {.5}), Floats("b", {.5}),
                                                  Floats("x", {.5})}))
                   .ok());
  EXPECT_TRUE(KlDivergenceScore(solution, Table({Floats("a", {.5}), Floats("b", {.5}),
                                                 Floats("x", {0})}))
                  .ok());
  // Text makes the frame non-numeric.
  Column text{"x", Dtype::kObject, {std::string("hi")}};
  absl::Status s =
      KlDivergenceScore(solution, Table({Floats("a", {.5}), Floats("b", {.5}), text})).status();
  EXPECT_NE(std::string(s.message()).find("must be numeric"), std::string::npos) << s;
  // Within np.allclose's tolerance passes, beyond it fails.
  EXPECT_TRUE(VerifyValidProbabilities(Table({Floats("a", {1 - 9e-6})}), "f").ok());
  EXPECT_FALSE(VerifyValidProbabilities(Table({Floats("a", {1 - 2e-5})}), "f").ok());
}

TEST(KlDivergenceScoreTest, IntColumnsAreNotClipped) {
  // pandas' clip casts an int64 column back to int64: 0 stays 0.
  Table solution({Floats("a", {1}), Floats("b", {0})});
  Column a{"a", Dtype::kInt64, {int64_t{0}}};
  Column b{"b", Dtype::kInt64, {int64_t{1}}};
  absl::StatusOr<double> score = KlDivergenceScore(solution, Table({a, b}));
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_TRUE(std::isinf(*score));
  Column one{"a", Dtype::kInt64, {int64_t{1}}};
  Column zero{"b", Dtype::kInt64, {int64_t{0}}};
  EXPECT_EQ(*KlDivergenceScore(solution, Table({one, zero})), 0.0);  // unclipped 1: log(1/1)
}

TEST(VerifyValidProbabilitiesTest, BoolFrames) {
  Column b1{"a", Dtype::kBool, {true}};
  Column b2{"b", Dtype::kBool, {false}};
  EXPECT_TRUE(VerifyValidProbabilities(Table({b1, b2}), "f").ok());
  // bool mixed with floats is an object array: not numeric.
  EXPECT_FALSE(VerifyValidProbabilities(Table({b1, Floats("c", {0})}), "f").ok());
}

}  // namespace
}  // namespace mlebench
