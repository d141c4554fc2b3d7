#include "grading/metrics/correlation/quadratic_weighted_kappa.h"

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

Column Ints(std::vector<int64_t> values) {
  Column c{"score", Dtype::kInt64, {}};
  for (int64_t v : values) c.cells.push_back(v);
  return c;
}

Column Floats(std::vector<double> values) {
  Column c{"score", Dtype::kFloat64, {}};
  for (double v : values) c.cells.push_back(v);
  return c;
}

// The int64 overload gives the Column overload's result bit for bit, with
// few labels and with more than the 64 that are collected one by one.
TEST(QuadraticWeightedKappaTest, Int64ValuesAsInt64Columns) {
  std::mt19937_64 rng(5);
  for (int64_t labels : {int64_t{2}, int64_t{5}, int64_t{64}, int64_t{65}, int64_t{1000}}) {
    std::vector<int64_t> y1, y2;
    for (int i = 0; i < 5000; ++i) {
      y1.push_back(static_cast<int64_t>(rng() % labels) * 3 - 7);
      y2.push_back(rng() % 4 == 0 ? y1.back() : static_cast<int64_t>(rng() % labels) * 3 - 7);
    }
    const absl::StatusOr<double> from_values = QuadraticWeightedKappa(y1, y2);
    ASSERT_TRUE(from_values.ok()) << from_values.status();
    EXPECT_EQ(*from_values, *QuadraticWeightedKappa(Ints(y1), Ints(y2))) << labels;
  }
  EXPECT_TRUE(std::isnan(*QuadraticWeightedKappa(std::vector<int64_t>{3, 3}, std::vector<int64_t>{3, 3})));
  EXPECT_FALSE(QuadraticWeightedKappa(std::vector<int64_t>{}, std::vector<int64_t>{}).ok());
  EXPECT_FALSE(QuadraticWeightedKappa(std::vector<int64_t>{1}, std::vector<int64_t>{1, 2}).ok());
}

// Values over a span too wide for the class table, or beyond +-2**53
// (where distinct int64 values can meet as float64, as they do in the Column
// overload), take the searched path; values just inside take the table. All
// agree with the Column overload bit for bit.
TEST(QuadraticWeightedKappaTest, Int64ValuesOutsideTheDenseSpan) {
  constexpr int64_t kExact = int64_t{1} << 53;
  const std::vector<std::vector<int64_t>> bases = {
      {0, 65535},                     // span 65,536: just too wide
      {0, 65534},                     // just inside
      {-kExact, -kExact + 3},         // at -2**53: inside
      {kExact - 2, kExact},           // at 2**53: inside
      {kExact, kExact + 1},           // 2**53 + 1 meets 2**53 as float64
      {-kExact - 1, -kExact},         // the same below
      {INT64_MIN, INT64_MAX, 0, 7},   // the whole range
  };
  std::mt19937_64 rng(11);
  for (const std::vector<int64_t>& base : bases) {
    std::vector<int64_t> y1, y2;
    for (int i = 0; i < 2000; ++i) {
      y1.push_back(base[rng() % base.size()]);
      y2.push_back(rng() % 3 == 0 ? y1.back() : base[rng() % base.size()]);
    }
    const absl::StatusOr<double> from_values = QuadraticWeightedKappa(y1, y2);
    const absl::StatusOr<double> from_cells = QuadraticWeightedKappa(Ints(y1), Ints(y2));
    ASSERT_TRUE(from_values.ok()) << from_values.status();
    ASSERT_TRUE(from_cells.ok()) << from_cells.status();
    if (std::isnan(*from_cells)) {
      EXPECT_TRUE(std::isnan(*from_values)) << base[0];
    } else {
      EXPECT_EQ(*from_values, *from_cells) << base[0];
    }
  }
  // 2**53 and 2**53 + 1 are one class as float64: every pair agrees.
  EXPECT_TRUE(std::isnan(*QuadraticWeightedKappa(std::vector<int64_t>{kExact, kExact + 1},
                                                 std::vector<int64_t>{kExact + 1, kExact})));
}

TEST(QuadraticWeightedKappaTest, PerfectAgreementIsOne) {
  EXPECT_EQ(*QuadraticWeightedKappa(Ints({1, 2, 3, 6}), Ints({1, 2, 3, 6})), 1.0);
}

TEST(QuadraticWeightedKappaTest, HandComputed) {
  // y1 = 1, 2, 3; y2 = 1, 3, 3. Labels 1, 2, 3 at positions 0, 1, 2.
  // Confusion (rows y1): [[1,0,0],[0,0,1],[0,0,1]]; observed weighted
  // disagreement = 1 (the 2 -> 3 pair).
  // Row sums 1, 1, 1; column sums 1, 0, 2; expected[i][j] = col[i] * row[j] / 3:
  // sum of w * expected = (1 * (0 + 1 + 4) + 2 * (4 + 1 + 0)) / 3 = 15 / 3 = 5.
  EXPECT_DOUBLE_EQ(*QuadraticWeightedKappa(Ints({1, 2, 3}), Ints({1, 3, 3})), 1.0 - 1.0 / 5.0);
}

TEST(QuadraticWeightedKappaTest, WeightsUseLabelPositionsNotValues) {
  // Labels {1, 2, 6}: 2 vs 6 are neighbours (weight 1), as in sklearn; with
  // labels {2, 3, 6} the same as {1, 2, 6}.
  const double a = *QuadraticWeightedKappa(Ints({1, 2, 6}), Ints({1, 6, 6}));
  const double b = *QuadraticWeightedKappa(Ints({1, 2, 3}), Ints({1, 3, 3}));
  EXPECT_EQ(a, b);
}

TEST(QuadraticWeightedKappaTest, NumbersMeetByValue) {
  EXPECT_EQ(*QuadraticWeightedKappa(Floats({1.0, 2.0, 3.0}), Ints({1, 2, 3})), 1.0);
  EXPECT_EQ(*QuadraticWeightedKappa(Column{"s", Dtype::kBool, {true, false}}, Ints({1, 0})), 1.0);
}

TEST(QuadraticWeightedKappaTest, SingleLabelIsNaN) {
  EXPECT_TRUE(std::isnan(*QuadraticWeightedKappa(Ints({3, 3, 3}), Ints({3, 3, 3}))));
  // A constant prediction against varied answers scores 0.
  EXPECT_EQ(*QuadraticWeightedKappa(Ints({3, 3, 3, 3}), Ints({1, 2, 3, 4})), 0.0);
}

TEST(QuadraticWeightedKappaTest, Strings) {
  const Column words{"s", Dtype::kObject, {std::string("a"), std::string("b")}};
  EXPECT_EQ(*QuadraticWeightedKappa(words, words), 1.0);
  EXPECT_FALSE(QuadraticWeightedKappa(words, Ints({1, 2})).ok());
  EXPECT_FALSE(QuadraticWeightedKappa(Ints({1, 2}), words).ok());
  EXPECT_FALSE(QuadraticWeightedKappa(
                   Column{"s", Dtype::kObject, {std::string("a"), std::monostate{}}}, words)
                   .ok());
  EXPECT_FALSE(
      QuadraticWeightedKappa(Column{"s", Dtype::kObject, {true, std::monostate{}}}, Ints({1, 0}))
          .ok());
}

TEST(QuadraticWeightedKappaTest, Errors) {
  EXPECT_EQ(QuadraticWeightedKappa(Ints({1, 2}), Ints({1, 2, 3})).status().message(),
            "Found input variables with inconsistent numbers of samples: [2, 3]");
  EXPECT_FALSE(QuadraticWeightedKappa(Ints({}), Ints({})).ok());
  EXPECT_EQ(QuadraticWeightedKappa(Floats({1.0, NAN}), Ints({1, 2})).status().message(),
            "Input contains NaN.");
  EXPECT_EQ(QuadraticWeightedKappa(Floats({1.0, INFINITY}), Ints({1, 2})).status().message(),
            "Input contains infinity or a value too large for dtype('float64').");
  EXPECT_FALSE(QuadraticWeightedKappa(Floats({1.0, 2.5}), Ints({1, 2})).ok());
  EXPECT_FALSE(QuadraticWeightedKappa(Floats({1.0, 1e19}), Ints({1, 2})).ok());
  EXPECT_TRUE(QuadraticWeightedKappa(Floats({1.0, 1e18}), Ints({1, 2})).ok());
}

}  // namespace
}  // namespace mlebench
