#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// Like the prepared private test.csv: id, features, and the six EC labels.
constexpr std::string_view kAnswers =
    "id,BertzCT,fr_COO,EC1,EC2,EC3,EC4,EC5,EC6\n"
    "14,323.39,0,1,1,0,0,0,0\n"
    "3,102.5,1,0,1,1,0,0,0\n"
    "27,88.0,0,1,0,0,1,0,0\n"
    "8,410.25,2,0,0,0,0,1,1\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(PlaygroundS3e18GradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(PlaygroundS3e18GradeTest, PerfectSubmissionInAnyRowOrder) {
  EXPECT_EQ(*Grade("id,EC1,EC2\n3,0.2,0.9\n8,0.1,0.3\n14,0.8,0.7\n27,0.6,0.1\n"), 1.0);
  EXPECT_EQ(*Grade("id,EC1,EC2\n27,0.6,0.1\n14,0.8,0.7\n8,0.1,0.3\n3,0.2,0.9\n"), 1.0);
  // The sample submission's constant 0.5.
  EXPECT_EQ(*Grade("id,EC1,EC2\n14,0.5,0.5\n3,0.5,0.5\n27,0.5,0.5\n8,0.5,0.5\n"), 0.5);
}

TEST(PlaygroundS3e18GradeTest, HandComputedMeanOfTwoAucs) {
  // EC1: positives 14 = 0.8, 27 = 0.3; negatives 3 = 0.4, 8 = 0.1: 3 of 4
  // pairs ordered, 0.75. EC2: positives 14 = 0.5, 3 = 0.5; negatives
  // 27 = 0.5, 8 = 0.2: two ties and two wins, 0.75. Mean 0.75.
  EXPECT_EQ(*Grade("id,EC1,EC2\n14,0.8,0.5\n3,0.4,0.5\n27,0.3,0.5\n8,0.1,0.2\n"), 0.75);
  // EC1 reversed (0.0), EC2 perfect (1.0).
  EXPECT_EQ(*Grade("id,EC1,EC2\n14,0,1\n3,1,1\n27,0,0\n8,1,0\n"), 0.5);
  // EC1 perfect, EC2 3 of 4: 0.875.
  EXPECT_EQ(*Grade("id,EC1,EC2\n14,0.9,0.9\n3,0.1,0.4\n27,0.8,0.6\n8,0.2,0.1\n"), 0.875);
}

TEST(PlaygroundS3e18GradeTest, AnyFiniteScoresAndExtraColumnsAreAccepted) {
  // No range check upstream: only the ranking matters.
  EXPECT_EQ(*Grade("id,EC1,EC2\n3,-2,9\n8,-5,3\n14,8e10,7\n27,6,1\n"), 1.0);
  EXPECT_EQ(*Grade("id,EC1,EC2\n3,False,True\n8,False,False\n14,True,True\n27,True,False\n"), 1.0);
  // Other columns are not looked at, whatever they hold.
  EXPECT_EQ(
      *Grade("EC3,id,EC2,EC1,note\n,3,0.9,0.2,x\n,8,0.3,0.1,y\n,14,0.7,0.8,\n,27,0.1,0.6,z\n"),
      1.0);
  // Text that Python's float() reads (numpy converts object columns with it).
  EXPECT_EQ(*Grade("id,EC1,EC2\n3,0.2,0.9\n8,0.1,0.3\n14,1_0,0.7\n27, 5 ,0.1\n"), 1.0);
}

TEST(PlaygroundS3e18GradeTest, IdsCompareAsNumpyValues) {
  // Float ids equal the int ids (numpy compares 14.0 == 14).
  EXPECT_EQ(*Grade("id,EC1,EC2\n3.0,0.2,0.9\n8.0,0.1,0.3\n14.0,0.8,0.7\n27.0,0.6,0.1\n"), 1.0);
  ExpectInvalid(Grade("id,EC1,EC2\n3,0.2,0.9\n8,0.1,0.3\n14,0.8,0.7\n28,0.6,0.1\n"),
                "mismatched 'id' columns");
  ExpectInvalid(Grade("id,EC1,EC2\n3,0.2,0.9\n3,0.1,0.3\n14,0.8,0.7\n27,0.6,0.1\n"),
                "mismatched 'id' columns");
  ExpectInvalid(Grade("id,EC1,EC2\n3,0.2,0.9\n,0.1,0.3\n14,0.8,0.7\n27,0.6,0.1\n"),
                "mismatched 'id' columns");
  ExpectInvalid(Grade("id,EC1,EC2\nid3,0.2,0.9\nid8,0.1,0.3\nid14,0.8,0.7\nid27,0.6,0.1\n"),
                "mismatched 'id' columns");
}

TEST(PlaygroundS3e18GradeTest, ScoresMustConvertToFiniteFloats) {
  ExpectInvalid(Grade("id,EC1,EC2\n3,0.2,0.9\n8,0.1,0.3\n14,0.8,0.7\n27,0.6,\n"), "contains NaN");
  ExpectInvalid(Grade("id,EC1,EC2\n3,0.2,0.9\n8,0.1,0.3\n14,inf,0.7\n27,0.6,0.1\n"),
                "contains infinity");
  ExpectInvalid(Grade("id,EC1,EC2\n3,0.2,0.9\n8,low,0.3\n14,0.8,0.7\n27,0.6,0.1\n"),
                "could not convert string to float: 'low' (column 'EC1')");
}

TEST(PlaygroundS3e18GradeTest, StructuralChecks) {
  ExpectInvalid(Grade("ID,EC1,EC2\n3,0.2,0.9\n8,0.1,0.3\n14,0.8,0.7\n27,0.6,0.1\n"),
                "must contain an 'id' column");
  ExpectInvalid(Grade("id,EC1\n3,0.2\n8,0.1\n14,0.8\n27,0.6\n"), "must contain 'EC1' and 'EC2'");
  ExpectInvalid(Grade("id,ec1,EC2\n3,0.2,0.9\n8,0.1,0.3\n14,0.8,0.7\n27,0.6,0.1\n"),
                "must contain 'EC1' and 'EC2'");
  ExpectInvalid(Grade(""), "must contain an 'id' column");
  ExpectInvalid(Grade("id,EC1,EC2\n3,0.2,0.9\n8,0.1,0.3\n14,0.8,0.7\n"), "same length");
  ExpectInvalid(Grade("id,EC1,EC2\n3,0.2,0.9\n8,0.1,0.3\n14,0.8,0.7\n27,0.6,0.1\n99,0,0\n"),
                "same length");
  ExpectInvalid(Grade("id,EC1,EC2\n"), "same length");
}

TEST(PlaygroundS3e18GradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {
           "id,EC1,EC2\n3,1,1\n8,1,0\n",     // EC1 has one class
           "id,EC1\n3,1\n8,0\n",             // no EC2
           "key,EC1,EC2\n3,1,1\n8,0,0\n",    // no id
           "id,EC1,EC2\n3,1,yes\n8,0,no\n",  // text labels
           "id,EC1,EC2\n3,1,2\n8,0,0\n",     // not binary
       }) {
    absl::StatusOr<double> result = Grade("id,EC1,EC2\n3,0.2,0.9\n8,0.1,0.3\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
