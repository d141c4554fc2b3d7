#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

constexpr std::string_view kAnswers =
    "Id,Label\n"
    "0003.jpg,1\n"
    "0001.jpg,0\n"
    "0004.jpg,1\n"
    "0002.jpg,0\n";

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(Alaska2GradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(Alaska2GradeTest, PerfectInAnyOrder) {
  EXPECT_EQ(*Grade("Id,Label\n0001.jpg,0.1\n0002.jpg,0.2\n0003.jpg,0.8\n0004.jpg,0.9\n"), 1.0);
  EXPECT_EQ(*Grade("Label,x,Id\n5,a,0004.jpg\n-1,b,0001.jpg\n3,c,0003.jpg\n0,d,0002.jpg\n"), 1.0);
}

TEST(Alaska2GradeTest, HandComputedScores) {
  // The sample submission's constant 0: (2 * 0.32 + 0.18) / 1.4.
  EXPECT_NEAR(*Grade("Id,Label\n0001.jpg,0\n0002.jpg,0\n0003.jpg,0\n0004.jpg,0\n"), 0.82 / 1.4, 1e-15);
  EXPECT_EQ(*Grade("Id,Label\n0001.jpg,0.9\n0002.jpg,0.8\n0003.jpg,0.2\n0004.jpg,0.1\n"), 0.0);
  // Ranking 0003 (positive), 0001, 0002, 0004 (positive): see
  // weighted_auroc_test's WeightsTheLowTprBandTwice.
  EXPECT_DOUBLE_EQ(*Grade("Id,Label\n0003.jpg,0.9\n0001.jpg,0.8\n0002.jpg,0.7\n0004.jpg,0.6\n"),
                   (2 * 0.4 + 0.1) / 1.4);
  // Booleans are numbers.
  EXPECT_EQ(*Grade("Id,Label\n0001.jpg,False\n0002.jpg,False\n0003.jpg,True\n0004.jpg,True\n"), 1.0);
}

TEST(Alaska2GradeTest, InvalidSubmissions) {
  // Length is checked before the columns.
  ExpectInvalid(Grade("Id,Label\n0001.jpg,0\n"), "same length");
  ExpectInvalid(Grade(""), "same length");
  ExpectInvalid(Grade("id,Label\n0001.jpg,0\n0002.jpg,0\n0003.jpg,0\n0004.jpg,0\n"), "'Id' column");
  ExpectInvalid(Grade("Id,label\n0001.jpg,0\n0002.jpg,0\n0003.jpg,0\n0004.jpg,0\n"), "'Label' column");
  ExpectInvalid(Grade("Id,Label\n0001.jpg,0\n0002.jpg,0\n0003.jpg,0\n0005.jpg,0\n"), "same ids");
  ExpectInvalid(Grade("Id,Label\n0001.jpg,0\n0002.jpg,0\n0003.jpg,0\n0003.jpg,0\n"), "same ids");
  ExpectInvalid(Grade("Id,Label\n0001.jpg,0\n0002.jpg,0\n0003.jpg,0\n,0\n"), "same ids");
  ExpectInvalid(Grade("Id,Label\n0001.jpg,0\n0002.jpg,high\n0003.jpg,0\n0004.jpg,0\n"), "must be numbers");
  ExpectInvalid(Grade("Id,Label\n0001.jpg,0\n0002.jpg,\n0003.jpg,0\n0004.jpg,0\n"), "NaNs");
  ExpectInvalid(Grade("Id,Label\n0001.jpg,0\n0002.jpg,inf\n0003.jpg,0\n0004.jpg,0\n"), "infinity");
}

TEST(Alaska2GradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"Id,y\n0001.jpg,1\n0002.jpg,0\n", "Id,Label\n0001.jpg,1\n0002.jpg,\n",
                                   "Id,Label\n0001.jpg,1\n0002.jpg,1\n",
                                   "Id,Label\n0001.jpg,1\n0002.jpg,x\n"}) {
    absl::StatusOr<double> result = Grade("Id,Label\n0001.jpg,0.5\n0002.jpg,0.5\n", answers);
    EXPECT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
