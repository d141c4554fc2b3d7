#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// Five test rows, four classes (the real answers hold classes 1-7).
constexpr std::string_view kAnswers =
    "Id,Elevation,Cover_Type\n"
    "4000003,3010,1\n"
    "4000000,2861,2\n"
    "4000004,2503,3\n"
    "4000001,3346,7\n"
    "4000002,2905,2\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

const CompetitionGrader& Grader() { return testing::RegisteredGrader(kId); }

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(TabularPlaygroundDec2021GradeTest, Registered) {
  EXPECT_EQ(Grader().id, MLEBENCH_COMPETITION_ID);
  EXPECT_NE(Grader().grade_typed, nullptr);
}

TEST(TabularPlaygroundDec2021GradeTest, PerfectSubmissionInAnyRowOrder) {
  EXPECT_EQ(*Grade("Id,Cover_Type\n4000000,2\n4000001,7\n4000002,2\n4000003,1\n4000004,3\n"), 1.0);
  EXPECT_EQ(*Grade("Id,Cover_Type\n4000004,3\n4000002,2\n4000000,2\n4000003,1\n4000001,7\n"), 1.0);
}

TEST(TabularPlaygroundDec2021GradeTest, HandComputedAccuracy) {
  // The sample submission's constant class 2 gets the two rows of class 2.
  EXPECT_EQ(*Grade("Id,Cover_Type\n4000000,2\n4000001,2\n4000002,2\n4000003,2\n4000004,2\n"), 0.4);
  // Two of five wrong (4000001 and 4000004).
  EXPECT_EQ(*Grade("Id,Cover_Type\n4000000,2\n4000001,1\n4000002,2\n4000003,1\n4000004,6\n"), 0.6);
  // Classes the answers never hold are simply wrong.
  EXPECT_EQ(*Grade("Id,Cover_Type\n4000000,9\n4000001,0\n4000002,-2\n4000003,1\n4000004,3\n"), 0.4);
  // Extra columns are ignored; column order does not matter.
  EXPECT_EQ(*Grade("Cover_Type,Note,Id\n2,a,4000000\n7,b,4000001\n1,c,4000002\n1,d,4000003\n"
                   "1,e,4000004\n"),
            0.6);
}

TEST(TabularPlaygroundDec2021GradeTest, ClassesAndIdsCompareByValue) {
  // Classes and ids written as floats equal the answers' integers.
  EXPECT_EQ(*Grade("Id,Cover_Type\n4000000.0,2.0\n4000001,7.0\n4000002,2\n4000003,1\n4000004,3\n"),
            1.0);
  // Class names are text, which never equals a number: sklearn scores them.
  EXPECT_EQ(*Grade("Id,Cover_Type\n4000000,Spruce\n4000001,Krummholz\n4000002,Spruce\n"
                   "4000003,Lodgepole\n4000004,Ponderosa\n"),
            0.0);
  // Booleans are numbers 0 and 1: True is class 1.
  EXPECT_EQ(*Grade("Id,Cover_Type\n4000000,False\n4000001,False\n4000002,False\n4000003,True\n"
                   "4000004,False\n"),
            0.2);
}

TEST(TabularPlaygroundDec2021GradeTest, NonClassPredictionsAreInvalid) {
  ExpectInvalid(Grade("Id,Cover_Type\n4000000,2\n4000001,7\n4000002,2.5\n4000003,1\n4000004,3\n"),
                "mix of multiclass and continuous");
  ExpectInvalid(Grade("Id,Cover_Type\n4000000,2\n4000001,7\n4000002,\n4000003,1\n4000004,3\n"),
                "contains NaN");
  ExpectInvalid(Grade("Id,Cover_Type\n4000000,2\n4000001,inf\n4000002,2\n4000003,1\n4000004,3\n"),
                "infinity");
  // Text with a hole: numpy cannot sort str against float NaN.
  ExpectInvalid(Grade("Id,Cover_Type\n4000000,two\n4000001,\n4000002,two\n4000003,one\n"
                      "4000004,three\n"),
                "not supported between");
}

TEST(TabularPlaygroundDec2021GradeTest, StructuralChecksInUpstreamOrder) {
  // Length first, even when columns are missing too.
  ExpectInvalid(Grade("Id,Prediction\n4000000,2\n"), "same length");
  ExpectInvalid(Grade("Id,Cover_Type\n4000000,2\n4000001,7\n4000002,2\n4000003,1\n"),
                "same length");
  ExpectInvalid(Grade("Id,Cover_Type\n4000000,2\n4000001,7\n4000002,2\n4000003,1\n4000004,3\n"
                      "4000005,2\n"),
                "same length");
  ExpectInvalid(Grade("Id,Prediction\n4000000,2\n4000001,7\n4000002,2\n4000003,1\n4000004,3\n"),
                "must have a `Cover_Type` column");
  ExpectInvalid(Grade("id,Cover_Type\n4000000,2\n4000001,7\n4000002,2\n4000003,1\n4000004,3\n"),
                "must have a `Id` column");
  ExpectInvalid(Grade(""), "same length");
  ExpectInvalid(Grade("Id,Cover_Type\n"), "same length");
}

TEST(TabularPlaygroundDec2021GradeTest, IdsMustMatch) {
  // An unknown id.
  ExpectInvalid(Grade("Id,Cover_Type\n4000000,2\n4000001,7\n4000002,2\n4000003,1\n4000009,3\n"),
                "do not match");
  // A duplicate id in place of another.
  ExpectInvalid(Grade("Id,Cover_Type\n4000000,2\n4000001,7\n4000002,2\n4000003,1\n4000003,3\n"),
                "do not match");
  // A missing id sorts last and equals nothing.
  ExpectInvalid(Grade("Id,Cover_Type\n4000000,2\n4000001,7\n4000002,2\n4000003,1\n,3\n"),
                "do not match");
  // Text ids never equal the answers' integers.
  ExpectInvalid(Grade("Id,Cover_Type\nA,2\nB,7\nC,2\nD,1\nE,3\n"), "do not match");
  // One text id makes the whole column text, which never equals a number.
  ExpectInvalid(Grade("Id,Cover_Type\n4000000,2\n4000001,7\n4000002,2\n4000003,1\nlast,3\n"),
                "do not match");
}

TEST(TabularPlaygroundDec2021GradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {
           "Id,Label\n1,2\n2,1\n",          // no target
           "Index,Cover_Type\n1,2\n2,1\n",  // no id
           "Id,Cover_Type\n1,2.5\n2,1\n",   // not classes
           "Id,Cover_Type\n1,\n2,1\n",      // a hole
       }) {
    absl::StatusOr<double> result = Grade("Id,Cover_Type\n1,2\n2,1\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
