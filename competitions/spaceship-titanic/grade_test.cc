#include <cmath>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/csv.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "base/table.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr std::string_view kAnswers =
    "PassengerId,Transported\n"
    "0001_01,True\n"
    "0002_01,False\n"
    "0003_01,True\n"
    "0004_01,False\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

const CompetitionGrader& Grader() { return testing::RegisteredGrader(kId); }

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(SpaceshipTitanicGradeTest, Registered) {
  EXPECT_EQ(Grader().id, MLEBENCH_COMPETITION_ID);
  EXPECT_NE(Grader().grade_typed, nullptr);
}

TEST(SpaceshipTitanicGradeTest, PerfectSubmissionInAnyRowOrder) {
  EXPECT_EQ(*Grade("PassengerId,Transported\n"
                   "0003_01,True\n0001_01,True\n0004_01,False\n0002_01,False\n"),
            1.0);
}

TEST(SpaceshipTitanicGradeTest, WrongPredictions) {
  // One of four wrong.
  EXPECT_EQ(*Grade("PassengerId,Transported\n"
                   "0001_01,True\n0002_01,True\n0003_01,True\n0004_01,False\n"),
            0.75);
  // Extra columns are ignored.
  EXPECT_EQ(*Grade("Transported,PassengerId,Note\n"
                   "False,0001_01,x\nTrue,0002_01,y\nFalse,0003_01,z\nTrue,0004_01,w\n"),
            0.0);
}

TEST(SpaceshipTitanicGradeTest, LabelsWrittenAsNumbersCompareWithBools) {
  // pandas reads 1/0 as int64 and sklearn compares True == 1.
  EXPECT_EQ(*Grade("PassengerId,Transported\n0001_01,1\n0002_01,0\n0003_01,0\n0004_01,0\n"), 0.75);
  EXPECT_EQ(*Grade("PassengerId,Transported\n0001_01,1.0\n0002_01,0.0\n0003_01,1.0\n0004_01,0.0\n"),
            1.0);
  // Other spellings pandas accepts as booleans.
  EXPECT_EQ(
      *Grade("PassengerId,Transported\n0001_01,TRUE\n0002_01,false\n0003_01,true\n0004_01,FALSE\n"),
      1.0);
}

TEST(SpaceshipTitanicGradeTest, OtherLabelTypesFollowSklearn) {
  // Two string labels against boolean answers: np.union1d cannot sort them.
  ExpectInvalid(
      Grade("PassengerId,Transported\n0001_01,yes\n0002_01,no\n0003_01,yes\n0004_01,no\n"),
      "same type");
  // Three string labels make the task multiclass, where sklearn skips that
  // check: upstream scores 0.0 instead of rejecting.
  EXPECT_EQ(*Grade("PassengerId,Transported\n0001_01,yes\n0002_01,no\n0003_01,maybe\n0004_01,no\n"),
            0.0);
  // Integer labels other than 0/1 never match.
  EXPECT_EQ(*Grade("PassengerId,Transported\n0001_01,2\n0002_01,0\n0003_01,5\n0004_01,0\n"), 0.5);
}

TEST(SpaceshipTitanicGradeTest, MissingOrFractionalLabelsAreInvalid) {
  // Booleans with a hole: an object column starting with a bool ("unknown").
  ExpectInvalid(
      Grade("PassengerId,Transported\n0001_01,True\n0002_01,\n0003_01,True\n0004_01,False\n"),
      "mix of binary and unknown");
  // Numbers with a hole: float64 with NaN.
  ExpectInvalid(Grade("PassengerId,Transported\n0001_01,1\n0002_01,\n0003_01,0.5\n0004_01,0\n"),
                "contains NaN");
  ExpectInvalid(Grade("PassengerId,Transported\n0001_01,1\n0002_01,0\n0003_01,0.5\n0004_01,0\n"),
                "mix of binary and continuous");
  // Text with a hole: np.unique cannot sort str and NaN.
  ExpectInvalid(Grade("PassengerId,Transported\n0001_01,yes\n0002_01,\n0003_01,no\n0004_01,no\n"),
                "not supported between");
}

TEST(SpaceshipTitanicGradeTest, StructuralChecksInUpstreamOrder) {
  // Length first, even when columns are missing too.
  ExpectInvalid(Grade("PassengerId,Prediction\n0001_01,True\n"), "same length");
  ExpectInvalid(
      Grade("PassengerId,Prediction\n0001_01,True\n0002_01,False\n0003_01,True\n0004_01,False\n"),
      "must have a `Transported` column");
  ExpectInvalid(Grade("Id,Transported\n0001_01,True\n0002_01,False\n0003_01,True\n0004_01,False\n"),
                "must have a `PassengerId` column");
  ExpectInvalid(Grade(""), "same length");
  ExpectInvalid(Grade("PassengerId,Transported\n"), "same length");
}

TEST(SpaceshipTitanicGradeTest, IdsMustMatch) {
  ExpectInvalid(
      Grade("PassengerId,Transported\n0001_01,True\n0002_01,False\n0003_01,True\n0005_01,False\n"),
      "do not match");
  ExpectInvalid(
      Grade("PassengerId,Transported\n0001_01,True\n0001_01,False\n0003_01,True\n0004_01,False\n"),
      "do not match");
  // A missing id sorts last and equals nothing.
  ExpectInvalid(
      Grade("PassengerId,Transported\n0001_01,True\n,False\n0003_01,True\n0004_01,False\n"),
      "do not match");
  // Numeric ids against text ids.
  ExpectInvalid(Grade("PassengerId,Transported\n1,True\n2,False\n3,True\n4,False\n"),
                "do not match");
}

TEST(SpaceshipTitanicGradeTest, NumericIdsWorkWhenBothSidesAreNumeric) {
  EXPECT_EQ(*Grade("PassengerId,Transported\n10,True\n9,True\n",
                   "PassengerId,Transported\n9,True\n10,False\n"),
            0.5);
}

TEST(SpaceshipTitanicGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  absl::StatusOr<double> result =
      Grade("PassengerId,Transported\n0001_01,True\n", "PassengerId,Label\n0001_01,True\n");
  ASSERT_FALSE(result.ok());
  EXPECT_FALSE(IsInvalidSubmission(result.status()));
  result =
      Grade("PassengerId,Transported\n0001_01,True\n", "PassengerId,Transported\n0001_01,0.5\n");
  ASSERT_FALSE(result.ok());
  EXPECT_FALSE(IsInvalidSubmission(result.status()));
}

}  // namespace
}  // namespace mlebench::grade_test
