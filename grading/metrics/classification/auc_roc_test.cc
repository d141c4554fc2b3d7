#include "grading/metrics/classification/auc_roc.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "pycompat/numpy_sum.h"
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

// scikit-learn 1.5's roc_auc_score restated literally on whole arrays, as a
// reference for the streaming implementation: argsort(kind="mergesort")[::-1]
// (std::stable_sort, then reversed), the float64 cumsum of the labels at the
// last row of each run (np.where(np.diff(y_score))), fps = 1 + idx - tps,
// roc_curve's drop_intermediate via np.diff(_, 2), the (0, 0) point, the
// divisions, auc's direction check and trapz's terms summed by np.sum.
double LiteralSklearnAuc(const Vec& y, const Vec& s, double positive) {
  const size_t n = y.size();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return s[a] < s[b]; });
  std::reverse(order.begin(), order.end());
  Vec cumsum(n);
  double running = 0.0;
  for (size_t i = 0; i < n; ++i) cumsum[i] = running += y[order[i]] == positive ? 1.0 : 0.0;
  std::vector<size_t> threshold_idxs;
  for (size_t i = 0; i + 1 < n; ++i) {
    if (s[order[i + 1]] - s[order[i]] != 0.0) threshold_idxs.push_back(i);
  }
  threshold_idxs.push_back(n - 1);
  Vec tps, fps;
  for (size_t i : threshold_idxs) {
    tps.push_back(cumsum[i]);
    fps.push_back(static_cast<double>(1 + i) - cumsum[i]);
  }
  if (fps.size() > 2) {
    Vec kept_fps = {fps.front()}, kept_tps = {tps.front()};
    for (size_t i = 1; i + 1 < fps.size(); ++i) {
      const double fps_2 = (fps[i + 1] - fps[i]) - (fps[i] - fps[i - 1]);
      const double tps_2 = (tps[i + 1] - tps[i]) - (tps[i] - tps[i - 1]);
      if (fps_2 != 0.0 || tps_2 != 0.0) {
        kept_fps.push_back(fps[i]);
        kept_tps.push_back(tps[i]);
      }
    }
    kept_fps.push_back(fps.back());
    kept_tps.push_back(tps.back());
    fps.swap(kept_fps);
    tps.swap(kept_tps);
  }
  fps.insert(fps.begin(), 0.0);
  tps.insert(tps.begin(), 0.0);
  Vec fpr, tpr;
  for (double v : fps) fpr.push_back(v / fps.back());
  for (double v : tps) tpr.push_back(v / tps.back());
  Vec terms;
  for (size_t i = 0; i + 1 < fpr.size(); ++i) {
    const double dx = fpr[i + 1] - fpr[i];
    EXPECT_GE(dx, 0.0) << "fpr must never decrease (auc's direction 1)";
    terms.push_back(dx * (tpr[i + 1] + tpr[i]) / 2.0);
  }
  return NumpySum(terms);
}

uint64_t Bits(double x) { return std::bit_cast<uint64_t>(x); }

// Bit-for-bit equality, printing both values in full when they differ.
void ExpectSameBits(double ours, double reference, const std::string& what) {
  EXPECT_EQ(Bits(ours), Bits(reference))
      << what << ": ours " << std::hexfloat << ours << " vs " << reference;
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
  EXPECT_EQ(*RocAucScore(Vec{1, 0, 1}, Vec{0.0, -0.0, 1.0}), 0.75);
}

TEST(RocAucScoreTest, GreaterLabelIsPositive) {
  EXPECT_EQ(*RocAucScore(Vec{-1, 1, -1}, Vec{0.1, 0.9, 0.2}), 1.0);
  EXPECT_EQ(*RocAucScore(Vec{7, 3, 7}, Vec{0.1, 0.9, 0.2}), 0.0);
}

TEST(RocAucScoreTest, HandComputedThirds) {
  // Positives {0.4, 0.6}, negatives {0.5, 0.1, 0.7}: 0.4 beats 0.1, 0.6 beats
  // 0.5 and 0.1: 3 of 6 pairs.
  EXPECT_EQ(*RocAucScore(Vec{1, 0, 1, 0, 0}, Vec{0.4, 0.5, 0.6, 0.1, 0.7}), 0.5);
  // Positives {0.9}, negatives {0.1, 0.95, 0.3}: 2 of 3, which sklearn's
  // trapezoids (1/3 * (1 + 1) / 2 + 1/3 * 1 ...) put one bit above 2.0 / 3.0:
  // repr 0.6666666666666667, not 0.6666666666666666.
  const double auc = *RocAucScore(Vec{0, 1, 0, 0}, Vec{0.1, 0.9, 0.95, 0.3});
  EXPECT_EQ(auc, 0.6666666666666667);
  EXPECT_NE(auc, 2.0 / 3.0);
}

// Found by grading random-acts-of-pizza: the exact area is 186/384 =
// 0.484375, a tie for round(_, 5), but scikit-learn returns
// 0.48437499999999994, which Python rounds to 0.48437 (upstream's score),
// while the exact value rounds to 0.48438.
TEST(RocAucScoreTest, ReproducesSklearnsRoundingAtATie) {
  const Vec y = {1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 1,
                 0, 0, 1, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0};
  const Vec s = {0.81, 0.6,  0.41, 0.42, 0.72, 0.7,  0.13, 0.09, 0.16, 1.0,
                 0.04, 0.91, 0.44, 0.77, 0.44, 0.86, 0.99, 0.58, 0.98, 0.88,
                 0.27, 0.57, 0.6,  0.43, 0.76, 0.98, 0.31, 0.08, 0.61, 0.06,
                 0.4,  0.13, 0.69, 0.69, 0.35, 0.47, 0.76, 0.45, 0.92, 0.3};
  ASSERT_EQ(y.size(), 40u);
  ASSERT_EQ(std::count(y.begin(), y.end(), 1.0), 16);
  EXPECT_EQ(NaiveAuc(y, s, 1.0), 0.484375);
  const double auc = *RocAucScore(y, s);
  ExpectSameBits(auc, 0.48437499999999994, "sklearn's value");
  EXPECT_EQ(Bits(auc), Bits(0.484375) - 1);  // one ulp below the exact area
}

// Scores of `kind`: 0 heavy ties, 1 all equal, 2 distinct, 3 signed zeros and
// neighbouring floats, 4 wide magnitudes.
Vec RandomScores(std::mt19937_64& rng, size_t n, int kind) {
  const double specials[] = {-1e300, -2.5,   -1e-300, -0.0, 0.0, 5e-324, -5e-324, 1e-300,
                             0.5,    0.5 + 0x1p-53,   1.0, 1.0 - 0x1p-53, 3.0,  1e300};
  const int levels = 1 + static_cast<int>(rng() % 6);
  Vec s(n);
  for (double& v : s) {
    switch (kind) {
      case 0: v = static_cast<double>(rng() % levels) / 4.0; break;
      case 1: v = 0.25; break;
      case 2: v = std::ldexp(static_cast<double>(rng() >> 11), -53); break;
      case 3: v = specials[rng() % std::size(specials)]; break;
      default:
        v = std::ldexp(static_cast<double>(rng() % 1000) - 500, static_cast<int>(rng() % 40) - 20);
    }
  }
  return s;
}

// Random labels holding both classes (n >= 2), positives at a random rate.
Vec RandomLabels(std::mt19937_64& rng, size_t n) {
  const double rate = 0.02 + 0.96 * std::ldexp(static_cast<double>(rng() >> 11), -53);
  Vec y(n);
  for (double& v : y) v = std::ldexp(static_cast<double>(rng() >> 11), -53) < rate ? 1.0 : 0.0;
  const size_t negative = rng() % n;
  y[negative] = 0.0;
  y[(negative + 1 + rng() % (n - 1)) % n] = 1.0;
  return y;
}

TEST(RocAucScoreTest, BitForBitSklearnsStepsOnRandomInputs) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 400; ++trial) {
    const size_t n = trial < 20 ? 2 + trial : 2 + rng() % (trial % 10 == 0 ? 3000 : 200);
    const Vec s = RandomScores(rng, n, trial % 5);
    const Vec y = RandomLabels(rng, n);
    const absl::StatusOr<double> ours = RocAucScore(y, s);
    ASSERT_TRUE(ours.ok()) << ours.status();
    ExpectSameBits(*ours, LiteralSklearnAuc(y, s, 1.0), "trial " + std::to_string(trial));
    // And it is the AUC: the exact area up to sklearn's rounding errors.
    EXPECT_NEAR(*ours, NaiveAuc(y, s, 1.0), 1e-12) << "trial " << trial;
  }
}

// Above the radix sort's threshold, and with more than one numpy reduction
// block (8192) of trapezoids: distinct scores keep almost every point.
TEST(RocAucScoreTest, BitForBitSklearnsStepsOnLongInputs) {
  std::mt19937_64 rng(11);
  for (int kind = 0; kind < 5; ++kind) {
    for (size_t n : {size_t{4096}, size_t{9000}, size_t{40000}}) {
      const Vec s = RandomScores(rng, n, kind);
      const Vec y = RandomLabels(rng, n);
      ExpectSameBits(*RocAucScore(y, s), LiteralSklearnAuc(y, s, 1.0),
                     "kind " + std::to_string(kind) + " n " + std::to_string(n));
    }
  }
}

TEST(RocAucScoreTest, DefinitionOnTheRadixSortPath) {
  std::mt19937_64 rng(13);
  const Vec s = RandomScores(rng, 6000, 3);
  const Vec y = RandomLabels(rng, 6000);
  EXPECT_NEAR(*RocAucScore(y, s), NaiveAuc(y, s, 1.0), 1e-12);
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

TEST(MacroRocAucScoreTest, MeanOfSklearnsColumnFloats) {
  // Column 0 is the 2-of-3 case above (sklearn: 0.6666666666666667), column 1
  // its complement (1 of 3); the macro score is np.mean of those floats.
  const Vec y = {0, 1,  //
                 1, 0,  //
                 0, 1,  //
                 0, 1};
  const Vec s = {0.1, 0.1,    //
                 0.9, 0.9,    //
                 0.95, 0.95,  //
                 0.3, 0.3};
  const double col0 = *RocAucScore(Vec{0, 1, 0, 0}, Vec{0.1, 0.9, 0.95, 0.3});
  const double col1 = *RocAucScore(Vec{1, 0, 1, 1}, Vec{0.1, 0.9, 0.95, 0.3});
  EXPECT_EQ(col0, 0.6666666666666667);
  EXPECT_EQ(*MacroRocAucScore({y, 4, 2}, {s, 4, 2}), (col0 + col1) / 2.0);
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

// Matrices of 65,536 values and more are scored two columns at a time: the
// same floats as column by column, and the first failing column's error.
TEST(MacroRocAucScoreTest, LargeMatricesScoreEachColumnAsAlone) {
  constexpr size_t kRows = 40000, kCols = 5;
  std::mt19937_64 rng(5);
  Vec y(kRows * kCols), s(kRows * kCols);
  for (size_t i = 0; i < y.size(); ++i) {
    y[i] = rng() % (i % kCols + 2) == 0 ? 1.0 : 0.0;  // column c: about 1 in c + 2 positive
    s[i] = static_cast<double>(rng() % 1000) / 1000.0;  // many ties
  }
  Vec per_column;
  for (size_t c = 0; c < kCols; ++c) {
    Vec yc(kRows), sc(kRows);
    for (size_t r = 0; r < kRows; ++r) {
      yc[r] = y[r * kCols + c];
      sc[r] = s[r * kCols + c];
    }
    per_column.push_back(*RocAucScore(yc, sc));
  }
  EXPECT_EQ(*MacroRocAucScore({y, kRows, kCols}, {s, kRows, kCols}), NumpyMean(per_column));
  // Labels {0, 2}: a column with both fails for its labels, one with only
  // 0s for its single class; the first failing column gives the error.
  const std::string one_class =
      "Only one class present in y_true. ROC AUC score is not defined in that case.";
  for (double& v : y) v *= 2.0;
  Vec first_mixed = y, first_single = y;
  for (size_t r = 0; r < kRows; ++r) {
    first_mixed[r * kCols + 1] = 0.0;
    first_single[r * kCols] = 0.0;
  }
  EXPECT_EQ(
      ErrorOf(MacroRocAucScore({first_mixed, kRows, kCols}, {s, kRows, kCols})).find("y_true takes"),
      0u);
  EXPECT_EQ(ErrorOf(MacroRocAucScore({first_single, kRows, kCols}, {s, kRows, kCols})), one_class);
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

namespace mlebench {
namespace {

std::vector<std::pair<uint64_t, uint64_t>> Counts(std::vector<double> y, std::vector<double> s) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (const RocCount& c : RocCurveCounts(y, s)) out.emplace_back(c.fp, c.tp);
  return out;
}

// Expected points from scikit-learn's roc_curve (drop_intermediate=True),
// times the class totals.
TEST(RocCurveCountsTest, KeepsTheCornersSklearnKeeps) {
  using P = std::pair<uint64_t, uint64_t>;
  EXPECT_EQ(Counts({0, 0, 1, 1}, {0.1, 0.4, 0.35, 0.8}),
            (std::vector<P>{{0, 0}, {0, 1}, {1, 1}, {1, 2}, {2, 2}}));
  EXPECT_EQ(Counts({1, 1, 0, 0}, {0.5, 0.5, 0.5, 0.5}), (std::vector<P>{{0, 0}, {2, 2}}));
  // A collinear point is dropped ...
  EXPECT_EQ(Counts({1, 1, 1, 0}, {0.9, 0.8, 0.7, 0.1}),
            (std::vector<P>{{0, 0}, {0, 1}, {0, 3}, {1, 3}}));
  // ... but only among more than two points; one class only is allowed.
  EXPECT_EQ(Counts({1, 1}, {0.3, 0.2}), (std::vector<P>{{0, 0}, {0, 1}, {0, 2}}));
  EXPECT_EQ(Counts({}, {}), (std::vector<P>{{0, 0}}));
}

}  // namespace
}  // namespace mlebench
