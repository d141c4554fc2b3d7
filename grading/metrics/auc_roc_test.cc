#include "grading/metrics/auc_roc.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

using Vec = std::vector<double>;

std::string ErrorOf(const absl::StatusOr<double>& r) {
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(r.status().message());
}

// The definition: pairs ranked right, ties half, over all pairs.
double NaiveAuc(const Vec& y, const Vec& s, double positive) {
  double good = 0, pairs = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    for (size_t j = 0; j < y.size(); ++j) {
      if (y[i] != positive || y[j] == positive) continue;
      pairs += 1;
      good += s[i] > s[j] ? 1.0 : (s[i] == s[j] ? 0.5 : 0.0);
    }
  }
  return good / pairs;
}

TEST(RocAucScoreTest, PerfectAndReversed) {
  EXPECT_EQ(*RocAucScore(Vec{0, 0, 1, 1}, Vec{0.1, 0.2, 0.3, 0.4}), 1.0);
  EXPECT_EQ(*RocAucScore(Vec{1, 1, 0, 0}, Vec{0.1, 0.2, 0.3, 0.4}), 0.0);
}

TEST(RocAucScoreTest, TiesCountHalf) {
  // Positives {0.5, 0.8}, negatives {0.5, 0.2}: 0.5 + 1 + 1 + 1 of 4 pairs.
  EXPECT_EQ(*RocAucScore(Vec{0, 1, 0, 1}, Vec{0.5, 0.5, 0.2, 0.8}), 0.875);
  EXPECT_EQ(*RocAucScore(Vec{0, 1, 0, 1, 1}, Vec{3, 3, 3, 3, 3}), 0.5);
  // -0.0 and 0.0 are one threshold.
  EXPECT_EQ(*RocAucScore(Vec{0, 1}, Vec{-0.0, 0.0}), 0.5);
}

TEST(RocAucScoreTest, GreaterLabelIsPositive) {
  EXPECT_EQ(*RocAucScore(Vec{-1, 1, -1}, Vec{0.1, 0.9, 0.2}), 1.0);
  EXPECT_EQ(*RocAucScore(Vec{7, 3, 7}, Vec{0.1, 0.9, 0.2}), 0.0);
}

TEST(RocAucScoreTest, HandComputedThirds) {
  // Positives {0.4, 0.6}, negatives {0.5, 0.1, 0.7}: 0.4 beats 0.1, 0.6 beats
  // 0.5 and 0.1: 3 of 6 pairs.
  EXPECT_EQ(*RocAucScore(Vec{1, 0, 1, 0, 0}, Vec{0.4, 0.5, 0.6, 0.1, 0.7}), 0.5);
  // Positives {0.9}, negatives {0.1, 0.95, 0.3}: 2 of 3.
  EXPECT_EQ(*RocAucScore(Vec{0, 1, 0, 0}, Vec{0.1, 0.9, 0.95, 0.3}), 2.0 / 3.0);
}

TEST(RocAucScoreTest, MatchesTheDefinitionOnRandomTiedScores) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    const size_t n = 2 + rng() % 300;
    Vec y(n), s(n);
    for (size_t i = 0; i < n; ++i) {
      y[i] = static_cast<double>(rng() % 2);
      s[i] = static_cast<double>(rng() % 7) / 7.0;
    }
    y[0] = 0;
    y[1] = 1;
    EXPECT_DOUBLE_EQ(*RocAucScore(y, s), NaiveAuc(y, s, 1.0)) << "trial " << trial;
  }
}

TEST(RocAucScoreTest, MatchesTheDefinitionAboveTheRadixSortThreshold) {
  // Long enough for the radix sort; signs, zeros of both signs, wide magnitudes.
  std::mt19937_64 rng(11);
  const double values[] = {-1e300, -2.5, -1e-300, -0.0, 0.0, 1e-300, 0.5, 3.0, 1e300};
  const size_t n = 6000;
  Vec y(n), s(n);
  for (size_t i = 0; i < n; ++i) {
    y[i] = static_cast<double>(rng() % 3 == 0);
    s[i] = rng() % 2 == 0 ? values[rng() % 9]
                          : std::ldexp(static_cast<double>(rng() % 1000) - 500,
                                       static_cast<int>(rng() % 40) - 20);
  }
  EXPECT_DOUBLE_EQ(*RocAucScore(y, s), NaiveAuc(y, s, 1.0));
}

TEST(RocAucScoreTest, Errors) {
  const std::string one_class =
      "Only one class present in y_true. ROC AUC score is not defined in that case.";
  EXPECT_EQ(ErrorOf(RocAucScore(Vec{1, 1}, Vec{0.1, 0.2})), one_class);
  EXPECT_EQ(ErrorOf(RocAucScore(Vec{1, 0}, Vec{0.1, kNaN})), "Input contains NaN.");
  EXPECT_EQ(ErrorOf(RocAucScore(Vec{1, 0}, Vec{kInf, 0.1})),
            "Input contains infinity or a value too large for dtype('float64').");
  // sklearn checks y_score before counting classes.
  EXPECT_EQ(ErrorOf(RocAucScore(Vec{1, 1}, Vec{0.1, kNaN})), "Input contains NaN.");
  EXPECT_EQ(ErrorOf(RocAucScore(Vec{1, 0, 2}, Vec{0.1, 0.2, 0.3})),
            "multi_class must be in ('ovo', 'ovr')");
  EXPECT_EQ(ErrorOf(RocAucScore(Vec{1, 0.5}, Vec{0.1, 0.2})), "continuous format is not supported");
  EXPECT_EQ(ErrorOf(RocAucScore(Vec{1, kNaN}, Vec{0.1, 0.2})), "Input y_true contains NaN.");
  EXPECT_EQ(ErrorOf(RocAucScore(Vec{1, 0}, Vec{0.1, 0.2, 0.3})),
            "Found input variables with inconsistent numbers of samples: [2, 3]");
  EXPECT_EQ(ErrorOf(RocAucScore(Vec{}, Vec{})),
            "Found array with 0 sample(s) (shape=(0,)) while a minimum of 1 is required.");
  EXPECT_EQ(ErrorOf(RocAucScore(Vec{0, 1}, Vec{})),
            "Found array with 0 sample(s) (shape=(0,)) while a minimum of 1 is required.");
}

TEST(CheckRocAucTrueTest, ChecksLabelsAlone) {
  EXPECT_TRUE(CheckRocAucTrue(Vec{0, 1, 1}).ok());
  EXPECT_FALSE(CheckRocAucTrue(Vec{1, 1}).ok());
  EXPECT_FALSE(CheckRocAucTrue(Vec{}).ok());
  EXPECT_FALSE(CheckRocAucTrue(Vec{0, 1, 2}).ok());
  EXPECT_FALSE(CheckRocAucTrue(Vec{0, 0.5}).ok());
  EXPECT_FALSE(CheckRocAucTrue(Vec{0, kNaN}).ok());
}

TEST(MacroRocAucScoreTest, AveragesColumns) {
  // Column 0 is perfect (1.0), column 1 all tied (0.5).
  const Vec y = {1, 0,  //
                 0, 1,  //
                 1, 1,  //
                 0, 0};
  const Vec s = {0.9, 0.3,  //
                 0.1, 0.3,  //
                 0.8, 0.3,  //
                 0.2, 0.3};
  EXPECT_EQ(*MacroRocAucScore({y, 4, 2}, {s, 4, 2}), 0.75);
}

TEST(MacroRocAucScoreTest, MinusOneOneLabels) {
  const Vec y = {1, -1, -1, 1};
  const Vec s = {0.9, 0.1, 0.2, 0.8};
  EXPECT_EQ(*MacroRocAucScore({y, 2, 2}, {s, 2, 2}), 1.0);
}

TEST(MacroRocAucScoreTest, Errors) {
  const Vec s = {0.1, 0.2, 0.3, 0.4};
  EXPECT_EQ(ErrorOf(MacroRocAucScore({Vec{1, 0, 1, 1}, 2, 2}, {s, 2, 2})),
            "Only one class present in y_true. ROC AUC score is not defined in that case.");
  EXPECT_NE(ErrorOf(MacroRocAucScore({Vec{2, 0, 0, 2}, 2, 2}, {s, 2, 2}))
                .find("y_true takes value in {0.0, 2.0}"),
            std::string::npos);
  EXPECT_EQ(ErrorOf(MacroRocAucScore({Vec{2, 0, 1, 2}, 2, 2}, {s, 2, 2})),
            "multiclass-multioutput format is not supported");
  EXPECT_EQ(ErrorOf(MacroRocAucScore({Vec{0.5, 0, 1, 1}, 2, 2}, {s, 2, 2})),
            "continuous-multioutput format is not supported");
  EXPECT_EQ(ErrorOf(MacroRocAucScore({Vec{1, 0, 0, 1}, 2, 2}, {Vec{0.1, kNaN, 0.3, 0.4}, 2, 2})),
            "Input contains NaN.");
  EXPECT_FALSE(MacroRocAucScore({Vec{1, 0, 0, 1}, 2, 2}, {Vec{0.1, 0.2}, 1, 2}).ok());
  EXPECT_FALSE(MacroRocAucScore({Vec{1, 0, 0, 1}, 2, 2}, {s, 1, 4}).ok());
  EXPECT_FALSE(MacroRocAucScore({Vec{1, 0, 0}, 2, 2}, {s, 2, 2}).ok());  // size != rows * cols
  EXPECT_FALSE(MacroRocAucScore({Vec{}, 0, 2}, {Vec{}, 0, 2}).ok());
}

TEST(MacroRocAucScoreTest, SingleColumnIsBinary) {
  EXPECT_EQ(*MacroRocAucScore({Vec{0, 1}, 2, 1}, {Vec{0.2, 0.1}, 2, 1}), 0.0);
}

TEST(CheckMacroRocAucTrueTest, ChecksLabelMatricesAlone) {
  EXPECT_TRUE(CheckMacroRocAucTrue({Vec{1, 0, 0, 1}, 2, 2}).ok());
  EXPECT_TRUE(CheckMacroRocAucTrue({Vec{1, -1, -1, 1}, 2, 2}).ok());
  EXPECT_TRUE(CheckMacroRocAucTrue({Vec{0, 1}, 2, 1}).ok());  // one column: binary
  EXPECT_FALSE(CheckMacroRocAucTrue({Vec{1, 1}, 2, 1}).ok());
  // Each failure is the one MacroRocAucScore reports for any finite y_score.
  const Vec s = {0.1, 0.2, 0.3, 0.4};
  for (const Vec& y : {Vec{1, 0, 1, 1}, Vec{2, 0, 0, 2}, Vec{2, 0, 1, 2}, Vec{0.5, 0, 1, 1},
                       Vec{kNaN, 0, 1, 1}, Vec{kInf, 0.5, 1, 1}}) {
    const absl::Status check = CheckMacroRocAucTrue({y, 2, 2});
    ASSERT_FALSE(check.ok());
    EXPECT_EQ(check.message(), ErrorOf(MacroRocAucScore({y, 2, 2}, {s, 2, 2})));
  }
  EXPECT_FALSE(CheckMacroRocAucTrue({Vec{}, 0, 2}).ok());
  EXPECT_FALSE(CheckMacroRocAucTrue({Vec{}, 2, 0}).ok());
  EXPECT_FALSE(CheckMacroRocAucTrue({Vec{1, 0, 0}, 2, 2}).ok());  // size != rows * cols
}

}  // namespace
}  // namespace mlebench
