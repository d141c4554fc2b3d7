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

// private/test.csv: rows 3 and 5 are in the expiratory phase (u_out 1).
constexpr std::string_view kAnswers =
    "id,breath_id,R,C,time_step,u_in,u_out,pressure\n"
    "1,7,20,50,0.0,0.08,0,5.5\n"
    "2,7,20,50,0.0336,18.38,0,6.25\n"
    "3,7,20,50,0.0673,0.0,1,20.0\n"
    "4,9,5,10,0.0,2.5,0,7.0\n"
    "5,9,5,10,0.0331,0.0,1,30.0\n";

absl::StatusOr<double> Grade(std::string_view submission) {
  return testing::GradeCsvText(kId, submission, kAnswers);
}

using testing::ExpectInvalid;

TEST(VentilatorGradeTest, RegisteredUnderUpstreamsConfigName) {
  // config.yaml's name; grade.py computes the mean absolute error.
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(VentilatorGradeTest, PerfectInAnyRowOrderWithExtraColumns) {
  EXPECT_EQ(*Grade("id,pressure\n1,5.5\n2,6.25\n3,20\n4,7\n5,30\n"), 0.0);
  EXPECT_EQ(*Grade("pressure,x,id\n7,a,4\n5.5,b,1\n-99,c,5\n6.25,d,2\n1e9,e,3\n"), 0.0);
}

TEST(VentilatorGradeTest, HandComputedOverTheInspiratoryPhaseOnly) {
  // Scored rows 1, 2, 4: errors 0.5, 0.25, 3; rows 3 and 5 are ignored.
  EXPECT_DOUBLE_EQ(*Grade("id,pressure\n1,5\n2,6.5\n3,0\n4,10\n5,0\n"), 3.75 / 3);
  // Integer predictions and ids written as floats.
  EXPECT_DOUBLE_EQ(*Grade("id,pressure\n1.0,6\n2.0,6\n3.0,6\n4.0,6\n5.0,6\n"), 1.75 / 3);
}

TEST(VentilatorGradeTest, RejectsMissingColumnsAndWrongLengths) {
  ExpectInvalid(Grade("ID,pressure\n1,5\n2,6.5\n3,0\n4,10\n5,0\n"), "'id' column");
  ExpectInvalid(Grade("id,p\n1,5\n2,6.5\n3,0\n4,10\n5,0\n"), "'pressure' column");
  ExpectInvalid(Grade("id,pressure\n1,5\n2,6.5\n3,0\n4,10\n"), "same length");
  ExpectInvalid(Grade("id,pressure\n1,5\n2,6.5\n3,0\n4,10\n5,0\n6,0\n"), "same length");
  ExpectInvalid(Grade("id,pressure\n"), "same length");
}

TEST(VentilatorGradeTest, RejectsIdsThatDoNotAlign) {
  for (std::string_view id : {"1", "6", "", "x"}) {
    SCOPED_TRACE(id);
    ExpectInvalid(Grade("id,pressure\n1,5\n" + std::string(id) + ",6.5\n3,0\n4,10\n5,0\n"), "");
  }
}

TEST(VentilatorGradeTest, RejectsBadPredictionsOnlyWhereScored) {
  for (std::string_view bad : {"", "nan", "inf", "high"}) {
    SCOPED_TRACE(bad);
    ExpectInvalid(Grade("id,pressure\n1,5\n2," + std::string(bad) + "\n3,0\n4,10\n5,0\n"), "");
  }
  // A NaN in an unscored row is dropped before sklearn sees it.
  EXPECT_DOUBLE_EQ(*Grade("id,pressure\n1,5\n2,6.5\n3,\n4,10\n5,nan\n"), 3.75 / 3);
}

TEST(VentilatorGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"id,pressure\n1,5\n", "id,u_out\n1,0\n",
                                   "id,pressure,u_out\n1,5,1\n", "id,pressure,u_out\n1,,0\n"}) {
    SCOPED_TRACE(answers);
    const absl::StatusOr<double> result = testing::GradeCsvText(kId, "id,pressure\n1,5\n", answers);
    ASSERT_FALSE(result.ok());
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
