#include "grading/metrics/classification/f1_score.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

FScoreOptions Micro(double beta = 1.0, double zero_division = 0.0) {
  return {beta, FScoreAverage::kMicro, zero_division};
}
FScoreOptions Macro(double beta = 1.0, double zero_division = 0.0) {
  return {beta, FScoreAverage::kMacro, zero_division};
}

using Rows = std::vector<std::vector<std::string>>;

TEST(MulticlassFScoreTest, MicroIsAccuracy) {
  const std::vector<std::string> t = {"a", "b", "c", "a"};
  const std::vector<std::string> p = {"a", "c", "c", "b"};
  EXPECT_DOUBLE_EQ(*MulticlassFScore(t, p, Micro()), 0.5);
}

TEST(MulticlassFScoreTest, MacroHandComputed) {
  // sklearn's doc example: f1_score([0,1,2,0,1,2], [0,2,1,0,0,1], average="macro") = 0.2666...
  const std::vector<int64_t> t = {0, 1, 2, 0, 1, 2};
  const std::vector<int64_t> p = {0, 2, 1, 0, 0, 1};
  // Label 0: tp 2, predicted 3, actual 2 -> F = 4/5; labels 1 and 2: F = 0.
  EXPECT_DOUBLE_EQ(*MulticlassFScore(t, p, Macro()), (0.8 + 0 + 0) / 3);
  EXPECT_DOUBLE_EQ(*MulticlassFScore(t, p, Micro()), 1.0 / 3);
  const PrecisionRecallFScore s = *MulticlassPrecisionRecallFScore(t, p, Macro());
  EXPECT_DOUBLE_EQ(s.precision, (2.0 / 3) / 3);
  EXPECT_DOUBLE_EQ(s.recall, 1.0 / 3);
}

TEST(MulticlassFScoreTest, LabelOnlyInPredictionsCountsForMacro) {
  const std::vector<std::string> t = {"a", "a"};
  const std::vector<std::string> p = {"a", "z"};
  // a: tp 1, predicted 1, actual 2 -> F = 2/3; z: F = 0 (no zero division).
  EXPECT_DOUBLE_EQ(*MulticlassFScore(t, p, Macro(1.0, 1.0)), (2.0 / 3) / 2);
  // Precision of z is 0/1, recall of z is 0/0 -> zero_division.
  EXPECT_DOUBLE_EQ(MulticlassPrecisionRecallFScore(t, p, Macro(1.0, 1.0))->recall, (0.5 + 1) / 2);
  EXPECT_DOUBLE_EQ(MulticlassPrecisionRecallFScore(t, p, Macro())->recall, 0.25);
  // NaN zero_division: nanmean skips z's recall.
  EXPECT_DOUBLE_EQ(MulticlassPrecisionRecallFScore(t, p, Macro(1.0, kNan))->recall, 0.5);
}

TEST(MulticlassFScoreTest, FBeta) {
  const std::vector<int64_t> t = {1, 1, 1, 0};
  const std::vector<int64_t> p = {1, 0, 0, 1};
  // Label 1: tp 1, predicted 2, actual 3. F0.5 = 1.25 / (0.25*3 + 2).
  // Label 0: tp 0 -> 0.
  EXPECT_DOUBLE_EQ(*MulticlassFScore(t, p, Macro(0.5)), (1.25 / 2.75) / 2);
  EXPECT_DOUBLE_EQ(*MulticlassFScore(t, p, Macro(0.0)), 0.25);        // precision
  EXPECT_DOUBLE_EQ(*MulticlassFScore(t, p, Macro(kInf)), 1.0 / 6);    // recall
  EXPECT_DOUBLE_EQ(*MulticlassFScore(t, p, Macro(2.0)), (5.0 / 14) / 2);
}

TEST(MulticlassFScoreTest, StringsSortByBytes) {
  // The result must not depend on the order labels first appear in.
  const std::vector<std::string> t = {"\xc3\xa9", "B", "a", "B"};
  const std::vector<std::string> p = {"B", "B", "a", "\xc3\xa9"};
  const std::vector<std::string> t2 = {"B", "a", "B", "\xc3\xa9"};
  const std::vector<std::string> p2 = {"B", "a", "\xc3\xa9", "B"};
  EXPECT_EQ(*MulticlassFScore(t, p, Macro()), *MulticlassFScore(t2, p2, Macro()));
}

TEST(MulticlassFScoreTest, ViewsScoreAsStrings) {
  const std::vector<std::string> t = {"\xc3\xa9", "B", "a", "B", "c", "a"};
  const std::vector<std::string> p = {"B", "B", "a", "\xc3\xa9", "a", "d"};
  const std::vector<std::string_view> tv(t.begin(), t.end()), pv(p.begin(), p.end());
  for (const FScoreOptions& options : {Micro(), Macro(), Macro(2.0)}) {
    EXPECT_EQ(*MulticlassFScore(tv, pv, options), *MulticlassFScore(t, p, options));
  }
  EXPECT_FALSE(MulticlassFScore(tv, std::vector<std::string_view>{"a"}, Micro()).ok());
}

TEST(MulticlassFScoreTest, MacroSumsInSortedLabelOrder) {
  // Hundreds of labels (the label map rehashes many times), first seen in
  // reverse order: macro must average in sorted order, as numpy sums.
  std::vector<int64_t> t, p;
  for (int64_t label = 400; label >= 1; --label) {
    for (int64_t k = 0; k < label % 7 + 1; ++k) {
      t.push_back(label);
      p.push_back(k % 3 == 0 ? label : (label * 31) % 401 + 1);
    }
  }
  std::vector<int64_t> t_sorted = t, p_sorted = p;
  std::reverse(t_sorted.begin(), t_sorted.end());
  std::reverse(p_sorted.begin(), p_sorted.end());
  const double reversed = *MulticlassFScore(t, p, Macro());
  EXPECT_EQ(reversed, *MulticlassFScore(t_sorted, p_sorted, Macro()));
  std::vector<std::string> ts, ps;
  for (int64_t v : t) ts.push_back(std::to_string(v));
  for (int64_t v : p) ps.push_back(std::to_string(v));
  // As strings the labels sort differently ("10" < "9"), which changes only
  // the rounding of the mean.
  EXPECT_NEAR(*MulticlassFScore(ts, ps, Macro()), reversed, 1e-12);
}

TEST(MulticlassFScoreTest, Empty) {
  const std::vector<int64_t> none;
  EXPECT_EQ(*MulticlassFScore(none, none, Micro()), 0.0);
  EXPECT_EQ(*MulticlassFScore(none, none, Micro(1.0, 1.0)), 1.0);
  EXPECT_TRUE(std::isnan(*MulticlassFScore(none, none, Macro())));
}

TEST(MulticlassFScoreTest, Errors) {
  const std::vector<int64_t> one = {1}, two = {1, 2};
  EXPECT_FALSE(MulticlassFScore(one, two, Micro()).ok());
  EXPECT_FALSE(MulticlassFScore(one, one, Micro(-1.0)).ok());
  EXPECT_FALSE(MulticlassFScore(one, one, Micro(kNan)).ok());
  EXPECT_FALSE(MulticlassFScore(one, one, Micro(1.0, 0.5)).ok());
  EXPECT_TRUE(MulticlassFScore(one, one, Micro(1.0, kNan)).ok());
}

TEST(FromCountsTest, RejectsInconsistentCounts) {
  EXPECT_FALSE(PrecisionRecallFScoreFromCounts({{2, 1, 5}}, Micro()).ok());
  EXPECT_FALSE(PrecisionRecallFScoreFromCounts({{2, 5, 1}}, Micro()).ok());
  EXPECT_FALSE(PrecisionRecallFScoreFromCounts({{-1, 5, 5}}, Micro()).ok());
  EXPECT_DOUBLE_EQ(PrecisionRecallFScoreFromCounts({{1, 2, 4}}, Micro())->f_score, 2.0 / 6);
}

TEST(FromCountsTest, ZeroDivisionNanMacroAllNan) {
  const PrecisionRecallFScore s =
      *PrecisionRecallFScoreFromCounts({{0, 0, 0}, {0, 0, 0}}, Macro(1.0, kNan));
  EXPECT_TRUE(std::isnan(s.f_score));
  EXPECT_TRUE(std::isnan(s.precision));
  EXPECT_TRUE(std::isnan(PrecisionRecallFScoreFromCounts({}, Macro())->f_score));
}

TEST(MultilabelFScoreTest, HandComputed) {
  const Rows t = {{"a", "b"}, {"c"}, {}};
  const Rows p = {{"a"}, {"c", "b"}, {"a"}};
  // tp 2 (a, c), predicted 4, actual 3 -> 4 / 7.
  EXPECT_DOUBLE_EQ(*MultilabelFScore(t, p, {"a", "b", "c"}, Micro()), 4.0 / 7);
  const PrecisionRecallFScore s = *MultilabelPrecisionRecallFScore(t, p, {"a", "b", "c"}, Micro());
  EXPECT_DOUBLE_EQ(s.precision, 0.5);
  EXPECT_DOUBLE_EQ(s.recall, 2.0 / 3);
  // Macro: a: tp1 pred2 act1 -> 2/3; b: tp0 -> 0; c: tp1 pred1 act1 -> 1.
  EXPECT_DOUBLE_EQ(*MultilabelFScore(t, p, {"a", "b", "c"}, Macro()), (2.0 / 3 + 0 + 1) / 3);
}

TEST(MultilabelFScoreTest, DuplicatesCountOnceUnknownLabelsIgnored) {
  const Rows t = {{"a", "a"}, {"b", "x"}};
  const Rows p = {{"a", "a", "zz"}, {"b", "b", "y"}};
  EXPECT_DOUBLE_EQ(*MultilabelFScore(t, p, {"a", "b"}, Micro()), 1.0);
}

TEST(MultilabelFScoreTest, AllEmpty) {
  const Rows empty_rows = {{}, {}};
  EXPECT_EQ(*MultilabelFScore(empty_rows, empty_rows, {"a", "b"}, Micro()), 0.0);
  EXPECT_EQ(*MultilabelFScore(empty_rows, empty_rows, {"a", "b"}, Micro(1.0, 1.0)), 1.0);
  const Rows some = {{"a"}, {}};
  EXPECT_EQ(*MultilabelFScore(some, empty_rows, {"a", "b"}, Micro()), 0.0);
}

TEST(MultilabelFScoreTest, Errors) {
  const Rows t = {{"a"}}, p = {{"a"}}, two = {{"a"}, {"b"}};
  EXPECT_FALSE(MultilabelFScore(t, two, {"a", "b"}, Micro()).ok());
  EXPECT_FALSE(MultilabelFScore(t, p, {"a", "b", "a"}, Micro()).ok());
  EXPECT_FALSE(MultilabelFScore(t, p, {"a"}, Micro()).ok());
  EXPECT_FALSE(MultilabelFScore(t, p, {}, Micro()).ok());
  EXPECT_FALSE(MultilabelFScore(t, p, {"a", "b"}, Micro(-0.5)).ok());
  EXPECT_TRUE(MultilabelFScore(t, p, {"a", "b"}, Micro()).ok());
}

}  // namespace
}  // namespace mlebench
