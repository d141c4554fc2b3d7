#include "grading/metrics/classification/accuracy.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

Column Ints(std::vector<int64_t> v) {
  Column c{"ints", Dtype::kInt64, {}};
  for (int64_t x : v) c.cells.emplace_back(x);
  return c;
}
Column Floats(std::vector<double> v) {
  Column c{"floats", Dtype::kFloat64, {}};
  for (double x : v) c.cells.emplace_back(x);
  return c;
}
Column Bools(std::vector<bool> v) {
  Column c{"bools", Dtype::kBool, {}};
  for (bool x : v) c.cells.emplace_back(x);
  return c;
}
Column Objects(std::vector<Cell> v) { return Column{"objects", Dtype::kObject, std::move(v)}; }
Cell S(const char* s) { return Cell{std::string(s)}; }

std::string ErrorOf(const absl::StatusOr<double>& r) {
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(r.status().message());
}

TEST(AccuracyScoreTest, BoolLabels) {
  EXPECT_EQ(*AccuracyScore(Bools({true, false, true, true}), Bools({true, false, false, true})),
            0.75);
}

TEST(AccuracyScoreTest, BoolsEqualOneAndZero) {
  EXPECT_DOUBLE_EQ(*AccuracyScore(Bools({true, false, true}), Ints({1, 0, 0})), 2.0 / 3.0);
  EXPECT_EQ(*AccuracyScore(Bools({true, false}), Floats({1.0, 0.0})), 1.0);
}

TEST(AccuracyScoreTest, IntLabelsOutsideTheAnswersNeverMatch) {
  // {True, False} with {5, 7} is multiclass after the union; no error.
  EXPECT_EQ(*AccuracyScore(Bools({true, false, true}), Ints({5, 7, 5})), 0.0);
}

TEST(AccuracyScoreTest, StringLabels) {
  EXPECT_DOUBLE_EQ(
      *AccuracyScore(Objects({S("a"), S("b"), S("c")}), Objects({S("a"), S("c"), S("c")})),
      2.0 / 3.0);
}

TEST(AccuracyScoreTest, BinaryStringsAgainstBinaryBoolsRaise) {
  EXPECT_NE(ErrorOf(AccuracyScore(Bools({true, false}), Objects({S("yes"), S("no")})))
                .find("Labels in y_true and y_pred should be of the same type"),
            std::string::npos);
  EXPECT_FALSE(AccuracyScore(Objects({S("1"), S("0")}), Ints({1, 0})).ok());
}

TEST(AccuracyScoreTest, ThreeStringLabelsAgainstBoolsScoreZero) {
  // Multiclass: np.union1d is skipped and elementwise == is all False.
  EXPECT_EQ(*AccuracyScore(Bools({true, false, true}), Objects({S("yes"), S("no"), S("maybe")})),
            0.0);
}

TEST(AccuracyScoreTest, NaNAndInfinityInFloatLabels) {
  EXPECT_EQ(ErrorOf(AccuracyScore(Ints({1, 0}), Floats({1.0, kNaN}))),
            "Input y_pred contains NaN.");
  EXPECT_EQ(ErrorOf(AccuracyScore(Floats({kInf, 0}), Ints({1, 0}))),
            "Input y_true contains infinity or a value too large for dtype('float64').");
  // The first non-finite value decides the message.
  EXPECT_EQ(ErrorOf(AccuracyScore(Ints({1, 0, 1}), Floats({0.5, -kInf, kNaN}))),
            "Input y_pred contains infinity or a value too large for dtype('float64').");
}

TEST(AccuracyScoreTest, ContinuousLabels) {
  EXPECT_EQ(ErrorOf(AccuracyScore(Ints({1, 0}), Floats({1.0, 0.5}))),
            "Classification metrics can't handle a mix of binary and continuous targets");
  EXPECT_EQ(ErrorOf(AccuracyScore(Floats({0.25, 0.5}), Floats({1.0, 0.5}))),
            "continuous is not supported");
  // Beyond int64 a float is never integral; -2**63 is.
  EXPECT_FALSE(AccuracyScore(Ints({1, 0}), Floats({1.0, 1e300})).ok());
  EXPECT_EQ(*AccuracyScore(Ints({1, 0}), Floats({1.0, -9223372036854775808.0})), 0.5);
}

TEST(AccuracyScoreTest, ObjectColumnsThatAreNotStrings) {
  // Bools with missing values: first element not a str, so "unknown".
  EXPECT_EQ(ErrorOf(AccuracyScore(Bools({true, false}), Objects({true, Cell{}}))),
            "Classification metrics can't handle a mix of binary and unknown targets");
  EXPECT_EQ(ErrorOf(AccuracyScore(Objects({Cell{}, S("a")}), Objects({Cell{}, S("a")}))),
            "unknown is not supported");
  // Strings then a NaN: np.unique cannot sort them.
  EXPECT_NE(ErrorOf(AccuracyScore(Objects({S("a"), S("b")}), Objects({S("a"), Cell{}})))
                .find("'<' not supported"),
            std::string::npos);
}

TEST(AccuracyScoreTest, LengthMismatch) {
  EXPECT_EQ(ErrorOf(AccuracyScore(Ints({1, 0}), Ints({1, 0, 1}))),
            "Found input variables with inconsistent numbers of samples: [2, 3]");
}

TEST(AccuracyScoreTest, EmptyIsNaN) {
  absl::StatusOr<double> score = AccuracyScore(Ints({}), Ints({}));
  ASSERT_TRUE(score.ok());
  EXPECT_TRUE(std::isnan(*score));
}

TEST(TypeOfTargetTest, Types) {
  EXPECT_EQ(*TypeOfTarget(Ints({}), "y"), TargetType::kBinary);
  EXPECT_EQ(*TypeOfTarget(Ints({3, 3, 7}), "y"), TargetType::kBinary);
  EXPECT_EQ(*TypeOfTarget(Ints({1, 2, 3}), "y"), TargetType::kMulticlass);
  EXPECT_EQ(*TypeOfTarget(Floats({1.0, 2.0, -0.0, 0.0}), "y"), TargetType::kMulticlass);
  EXPECT_EQ(*TypeOfTarget(Floats({-0.0, 0.0, 1.0}), "y"), TargetType::kBinary);
  EXPECT_EQ(*TypeOfTarget(Floats({0.5}), "y"), TargetType::kContinuous);
  EXPECT_EQ(*TypeOfTarget(Bools({true}), "y"), TargetType::kBinary);
  EXPECT_EQ(*TypeOfTarget(Objects({S("a"), S("b"), S("a")}), "y"), TargetType::kBinary);
  EXPECT_EQ(*TypeOfTarget(Objects({S("a"), S("b"), S("c")}), "y"), TargetType::kMulticlass);
  EXPECT_EQ(*TypeOfTarget(Objects({true, false}), "y"), TargetType::kUnknown);
  EXPECT_EQ(TypeOfTarget(Floats({kNaN}), "y").status().message(), "Input y contains NaN.");
}

TEST(TypeOfTargetTest, MalformedColumnIsAnErrorNotACrash) {
  Column bad{"bad", Dtype::kInt64, {Cell{std::string("x")}}};
  EXPECT_FALSE(TypeOfTarget(bad, "y").ok());
  Column bad_float{"bad", Dtype::kFloat64, {Cell{std::string("x")}}};
  EXPECT_FALSE(TypeOfTarget(bad_float, "y").ok());
}

}  // namespace
}  // namespace mlebench
