#include "grading/metrics/classification/matthews_correlation.h"

#include <cmath>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

Column Ints(std::vector<int64_t> values) {
  Column c{.name = "y", .dtype = Dtype::kInt64, .cells = {}};
  for (int64_t v : values) c.cells.push_back(v);
  return c;
}

Column Texts(std::vector<std::string> values) {
  Column c{.name = "y", .dtype = Dtype::kObject, .cells = {}};
  for (const std::string& v : values) c.cells.push_back(v);
  return c;
}

TEST(MatthewsCorrCoefTest, BinaryHandComputed) {
  // tp 2, tn 1, fp 1, fn 0: (2*1 - 1*0) / sqrt(3 * 2 * 2 * 1).
  absl::StatusOr<double> mcc = MatthewsCorrCoef(Ints({1, 1, 0, 0}), Ints({1, 1, 1, 0}));
  ASSERT_TRUE(mcc.ok()) << mcc.status();
  EXPECT_NEAR(*mcc, 2.0 / std::sqrt(12.0), 1e-15);
  EXPECT_EQ(*MatthewsCorrCoef(Ints({1, 0, 1}), Ints({1, 0, 1})), 1.0);
  EXPECT_EQ(*MatthewsCorrCoef(Ints({1, 0, 1}), Ints({0, 1, 0})), -1.0);
}

TEST(MatthewsCorrCoefTest, ConstantPredictionScoresZero) {
  EXPECT_EQ(*MatthewsCorrCoef(Ints({1, 0, 1}), Ints({0, 0, 0})), 0.0);
  EXPECT_EQ(*MatthewsCorrCoef(Ints({1, 1}), Ints({1, 1})), 0.0);
}

TEST(MatthewsCorrCoefTest, FloatsAndStrings) {
  Column floats{.name = "y", .dtype = Dtype::kFloat64, .cells = {1.0, 0.0, 1.0}};
  EXPECT_EQ(*MatthewsCorrCoef(Ints({1, 0, 1}), floats), 1.0);
  EXPECT_EQ(*MatthewsCorrCoef(Texts({"a", "b", "c"}), Texts({"a", "b", "c"})), 1.0);
}

TEST(MatthewsCorrCoefTest, RejectsWhatSklearnRejects) {
  Column halves{.name = "y", .dtype = Dtype::kFloat64, .cells = {0.5, 0.0, 1.0}};
  EXPECT_FALSE(MatthewsCorrCoef(Ints({1, 0, 1}), halves).ok());  // continuous
  Column nan{.name = "y", .dtype = Dtype::kFloat64, .cells = {NAN, 0.0, 1.0}};
  EXPECT_FALSE(MatthewsCorrCoef(Ints({1, 0, 1}), nan).ok());
  EXPECT_FALSE(MatthewsCorrCoef(Ints({1, 0, 1}), Texts({"a", "b", "a"})).ok());
  EXPECT_FALSE(MatthewsCorrCoef(Ints({1, 0, 2}), Texts({"a", "b", "c"})).ok());  // multiclass mix
  EXPECT_FALSE(MatthewsCorrCoef(Ints({1, 0}), Ints({1})).ok());
  EXPECT_FALSE(MatthewsCorrCoef(Ints({}), Ints({})).ok());
}

}  // namespace
}  // namespace mlebench
