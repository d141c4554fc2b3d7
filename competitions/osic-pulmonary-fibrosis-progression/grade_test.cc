#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// private/test.csv: patient A measured at weeks 0, 1, 3 and 4 (week 2 is a
// dummy row without FVC), patient B at weeks 1 and 4.
constexpr std::string_view kAnswers =
    "Patient,Weeks,FVC,Percent,Age,Sex,SmokingStatus,Patient_Week,Confidence\n"
    "A,0,3000.0,80.1,70.0,Male,Ex-smoker,A_0,100\n"
    "A,1,2950.0,79.0,70.0,Male,Ex-smoker,A_1,100\n"
    "A,2,,,,,,A_2,100\n"
    "A,3,2900.0,78.2,70.0,Male,Ex-smoker,A_3,100\n"
    "A,4,2800.0,77.0,70.0,Male,Ex-smoker,A_4,100\n"
    "B,0,,,,,,B_0,100\n"
    "B,1,2000.0,60.0,65.0,Female,Never smoked,B_1,100\n"
    "B,2,,,,,,B_2,100\n"
    "B,3,,,,,,B_3,100\n"
    "B,4,1900.0,58.0,65.0,Female,Never smoked,B_4,100\n";


absl::StatusOr<double> Grade(std::string_view submission) {
  return testing::GradeCsvText(kId, submission, kAnswers);
}

// One scored row's value: error `delta` at `confidence`, clipped as upstream.
double Term(double delta, double confidence) {
  const double sd = std::max(confidence, 70.0);
  return -std::sqrt(2.0) * std::min(delta, 1000.0) / sd - std::log(std::sqrt(2.0) * sd);
}

using testing::ExpectInvalid;

TEST(OsicGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(OsicGradeTest, ScoresTheThreeLatestMeasuredWeeksPerPatient) {
  // Scored: A_1, A_3, A_4, B_1, B_4 (A_0 is not among A's latest three).
  const std::string perfect =
      "Patient_Week,FVC,Confidence\nA_0,0,100\nA_1,2950,100\nA_2,0,100\nA_3,2900,100\n"
      "A_4,2800,100\nB_0,0,100\nB_1,2000,100\nB_2,0,100\nB_3,0,100\nB_4,1900,100\n";
  EXPECT_DOUBLE_EQ(*Grade(perfect), Term(0, 100));
  // Errors 50, 0, 2000 (clipped to 1000), 0, 100; confidences 100, 50 (to
  // 70), 100, missing (0, to 70), 300; rows in any order, extra columns.
  EXPECT_DOUBLE_EQ(
      *Grade("x,Confidence,FVC,Patient_Week\n1,300,2000,B_4\n2,100,3000,A_1\n3,50,2900,A_3\n"
             "4,100,4800,A_4\n5,,2000,B_1\n6,1,1,A_0\n"),
      (Term(50, 100) + Term(0, 70) + Term(1000, 100) + Term(0, 70) + Term(100, 300)) / 5);
}

TEST(OsicGradeTest, PartialSubmissionsAndUpstreamsQuirks) {
  // Only some scored weeks: only those count (no completeness check).
  EXPECT_DOUBLE_EQ(*Grade("Patient_Week,FVC,Confidence\nA_4,2700,100\nB_1,2000,100\n"),
                   (Term(100, 100) + Term(0, 100)) / 2);
  // No scored week at all: the mean of nothing, NaN.
  EXPECT_TRUE(std::isnan(*Grade("Patient_Week,FVC,Confidence\nA_0,1,100\nB_2,1,100\n")));
  // A missing FVC prediction: NaN.
  EXPECT_TRUE(std::isnan(*Grade("Patient_Week,FVC,Confidence\nA_4,,100\nB_1,2000,100\n")));
  // A repeated scored week makes the arrays' lengths differ: numpy raises...
  ExpectInvalid(Grade("Patient_Week,FVC,Confidence\nA_4,1,100\nA_4,1,100\nB_1,1,100\n"),
                "could not be broadcast");
  // ...unless a single answer broadcasts against the repeats.
  EXPECT_DOUBLE_EQ(*Grade("Patient_Week,FVC,Confidence\nA_4,2700,100\nA_4,2800,100\n"),
                   (Term(100, 100) + Term(0, 100)) / 2);
  // Booleans are numeric.
  EXPECT_DOUBLE_EQ(*Grade("Patient_Week,FVC,Confidence\nB_1,True,True\n"), Term(1999, 70));
}

TEST(OsicGradeTest, RejectsMissingColumns) {
  ExpectInvalid(Grade("FVC,Confidence\n1,1\n"), "'Patient_Week' column");
  ExpectInvalid(Grade("Patient_Week,fvc,Confidence\nA_1,1,1\n"), "'FVC' column");
  ExpectInvalid(Grade("Patient_Week,FVC\nA_x,1\n"), "'Confidence' column");
}

TEST(OsicGradeTest, RejectsUnknownWeeksAndNonNumericColumns) {
  ExpectInvalid(Grade("Patient_Week,FVC,Confidence\nA_1,1,1\nC_1,1,1\n"),
                "Patient_Week C_1 in submission does not exist in answers");
  ExpectInvalid(Grade("Patient_Week,FVC,Confidence\nA_1,1,1\n,1,1\n"), "does not exist");
  ExpectInvalid(Grade("Patient_Week,FVC,Confidence\nA_1,high,1\n"), "FVC column");
  ExpectInvalid(Grade("Patient_Week,FVC,Confidence\nA_1,1,sure\n"), "Confidence column");
  ExpectInvalid(Grade("Patient_Week,FVC,Confidence\n"), "FVC column");
}

TEST(OsicGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"Patient,FVC\nA,1\n", "Patient_Week,FVC\nA_x,1\n",
                                   "Patient,Patient_Week,FVC\nA,A_x,1\n"}) {
    SCOPED_TRACE(answers);
    const absl::StatusOr<double> result =
        testing::GradeCsvText(kId, "Patient_Week,FVC,Confidence\nA_x,1,1\n", answers);
    ASSERT_FALSE(result.ok());
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
