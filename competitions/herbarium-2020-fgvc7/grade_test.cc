#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

constexpr std::string_view kAnswers = "Id,Predicted\n3,7\n0,3\n4,7\n1,3\n2,5\n";

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(Herbarium2020GradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(Herbarium2020GradeTest, PerfectInAnyRowOrder) {
  EXPECT_EQ(*Grade("Id,Predicted\n0,3\n1,3\n2,5\n3,7\n4,7\n"), 1.0);
  EXPECT_EQ(*Grade("Predicted,extra,Id\n7,a,4\n5,b,2\n3,c,1\n7,d,3\n3,e,0\n"), 1.0);
  // Ids and labels written as floats are the same numbers to pandas/int().
  EXPECT_EQ(*Grade("Id,Predicted\n0.0,3.0\n1.0,3.9\n2.0,5\n3.0,7\n4.0,7\n"), 1.0);
}

TEST(Herbarium2020GradeTest, HandComputedMacroF1) {
  // Labels {0, 3, 5, 7}: F1 of 0 is 0 (predicted once, never true); 3, 5 and 7
  // each have F1 = 2/3, so the mean is 0.5.
  EXPECT_DOUBLE_EQ(*Grade("Id,Predicted\n0,3\n1,5\n2,5\n3,7\n4,0\n"), 0.5);
  // The sample submission (all 0): every class scores 0.
  EXPECT_EQ(*Grade("Id,Predicted\n0,0\n1,0\n2,0\n3,0\n4,0\n"), 0.0);
  // 3 all right (F1 1); 5 predicted for both 7s: 5 has tp 1, predicted 3,
  // actual 1 (F1 0.5); 7 never predicted (F1 0).
  EXPECT_DOUBLE_EQ(*Grade("Id,Predicted\n0,3\n1,3\n2,5\n3,5\n4,5\n"), (1.0 + 0.5 + 0.0) / 3);
}

TEST(Herbarium2020GradeTest, RejectsWrongShape) {
  ExpectInvalid(Grade("Id,Predicted\n0,3\n1,3\n2,5\n3,7\n"), "length");
  ExpectInvalid(Grade("Id,Predicted\n0,3\n1,3\n2,5\n3,7\n4,7\n5,1\n"), "length");
  ExpectInvalid(Grade("Id,Category\n0,3\n1,3\n2,5\n3,7\n4,7\n"), "columns");
  ExpectInvalid(Grade("id,Predicted\n0,3\n1,3\n2,5\n3,7\n4,7\n"), "columns");
}

TEST(Herbarium2020GradeTest, RejectsWrongIds) {
  ExpectInvalid(Grade("Id,Predicted\n0,3\n1,3\n2,5\n3,7\n3,7\n"), "mismatched");
  ExpectInvalid(Grade("Id,Predicted\n0,3\n1,3\n2,5\n3,7\n5,7\n"), "mismatched");
  ExpectInvalid(Grade("Id,Predicted\n0,3\n1,3\n2,5\n3,7\n,7\n"), "mismatched");
  // Text ids never equal the numbers (a column with one text id is all text).
  ExpectInvalid(Grade("Id,Predicted\na,3\nb,3\nc,5\nd,7\ne,7\n"), "mismatched");
  ExpectInvalid(Grade("Id,Predicted\n0,3\n1,3\n2,5\n3,7\nx,7\n"), "mismatched");
}

TEST(Herbarium2020GradeTest, RejectsLabelsIntCannotTake) {
  ExpectInvalid(Grade("Id,Predicted\n0,3\n1,3\n2,5\n3,7\n4,\n"), "int()");
  ExpectInvalid(Grade("Id,Predicted\n0,3\n1,3\n2,5\n3,7\n4,x\n"), "int()");
  ExpectInvalid(Grade("Id,Predicted\n0,3\n1,3\n2,5\n3,7\n4,inf\n"), "int()");
  ExpectInvalid(Grade("Id,Predicted\n0,3\n1,3\n2,5\n3,7\n4,1e30\n"), "int()");
  // Mixed with numbers, "True" stays text, which int() rejects.
  ExpectInvalid(Grade("Id,Predicted\n0,True\n1,3\n2,5\n3,7\n4,7\n"), "int()");
  // Whitespace around a number is fine.
  EXPECT_EQ(*Grade("Id,Predicted\n0,3\n1,3\n2,5\n3,7\n4, 7\n"), 1.0);
}

// Upstream on Python 3.11, scikit-learn 1.5.1: 1.0, then a ValueError.
TEST(Herbarium2020GradeTest, IntTakesUnicodeDigitsAndSpaces) {
  EXPECT_EQ(*Grade("Id,Predicted\n0,\u0663\n1,\uff13\n2,5\n3,7\n4,\u00a07\n"), 1.0);
  ExpectInvalid(Grade("Id,Predicted\n0,\u0663\n1,\u00b3\n2,5\n3,7\n4,7\n"), "int()");
}

// numpy makes a list of ints all in [2**63, 2**64) uint64, which sklearn
// scores (0.0 here, as upstream); among smaller ints they make floats, and
// beyond 2**64 objects, which it rejects.
TEST(Herbarium2020GradeTest, LabelsBeyondInt64) {
  EXPECT_EQ(*Grade("Id,Predicted\n0,9223372036854775808\n1,18446744073709551615\n"
                   "2,9223372036854775808\n3,10000000000000000000\n4,9999999999999999999\n"),
            0.0);
  EXPECT_EQ(*Grade("Id,Predicted\n0,1e19\n1,9.3e18\n2,1.8e19\n3,1e19\n4,9.3e18\n"), 0.0);
  ExpectInvalid(Grade("Id,Predicted\n0,3\n1,9223372036854775808\n2,9223372036854775808\n"
                      "3,9223372036854775808\n4,9223372036854775808\n"),
                "beyond int64");
  ExpectInvalid(Grade("Id,Predicted\n0,18446744073709551616\n1,9223372036854775808\n"
                      "2,9223372036854775808\n3,9223372036854775808\n4,9223372036854775808\n"),
                "int()");
}

TEST(Herbarium2020GradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  absl::StatusOr<double> result =
      Grade("Id,Predicted\n0,3\n", "Id,Category\n0,3\n");
  ASSERT_FALSE(result.ok());
  EXPECT_FALSE(IsInvalidSubmission(result.status()));
}

}  // namespace
}  // namespace mlebench::grade_test
