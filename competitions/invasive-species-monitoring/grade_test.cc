#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// As prepare writes it: `name` is the image number, read as int64.
constexpr std::string_view kAnswers =
    "name,invasive\n"
    "12,1\n"
    "3,0\n"
    "7,1\n"
    "100,0\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(InvasiveSpeciesGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(InvasiveSpeciesGradeTest, PerfectRankingInAnyRowOrder) {
  EXPECT_EQ(*Grade("name,invasive\n100,0.1\n7,0.8\n3,0.2\n12,0.9\n"), 1.0);
  EXPECT_EQ(*Grade("name,invasive\n3,0.5\n7,0.52\n12,0.51\n100,0\n"), 1.0);
}

TEST(InvasiveSpeciesGradeTest, HandComputedAreas) {
  // Positives 12=0.4, 7=0.6; negatives 3=0.5, 100=0.1: 3 of 4 pairs ordered.
  EXPECT_EQ(*Grade("name,invasive\n12,0.4\n3,0.5\n7,0.6\n100,0.1\n"), 0.75);
  // A tie between 12 and 3 counts half: (0.5 + 1 + 1 + 1) / 4.
  EXPECT_EQ(*Grade("name,invasive\n12,0.5\n3,0.5\n7,0.6\n100,0.1\n"), 0.875);
  // The sample submission's constant 0.5.
  EXPECT_EQ(*Grade("name,invasive\n12,0.5\n3,0.5\n7,0.5\n100,0.5\n"), 0.5);
  EXPECT_EQ(*Grade("name,invasive\n12,0\n3,1\n7,0\n100,1\n"), 0.0);
  EXPECT_EQ(*Grade("name,invasive\n12,True\n3,False\n7,True\n100,False\n"), 1.0);
}

TEST(InvasiveSpeciesGradeTest, NumericIdsSortNumerically) {
  // Sorted as numbers (3, 7, 12, 100), not as text: ids written as floats
  // still compare equal to the answers' integers, as numpy compares them.
  EXPECT_EQ(*Grade("name,invasive\n12.0,0.9\n3.0,0.1\n7.0,0.8\n100.0,0.2\n"), 1.0);
}

TEST(InvasiveSpeciesGradeTest, ScoresMustBeNumericProbabilities) {
  ExpectInvalid(Grade("name,invasive\n12,0.9\n3,low\n7,0.8\n100,0.2\n"), "to be numeric");
  ExpectInvalid(Grade("name,invasive\n12,1.5\n3,0.1\n7,0.8\n100,0.2\n"), "between 0 and 1");
  ExpectInvalid(Grade("name,invasive\n12,0.9\n3,-0.1\n7,0.8\n100,0.2\n"), "between 0 and 1");
  ExpectInvalid(Grade("name,invasive\n12,0.9\n3,\n7,0.8\n100,0.2\n"), "contains NaN");
}

TEST(InvasiveSpeciesGradeTest, StructuralChecksInUpstreamOrder) {
  ExpectInvalid(Grade("id,invasive\n12,0.9\n"), "should have an name column");
  ExpectInvalid(Grade("name,score\n12,0.9\n"), "should have a invasive column");
  ExpectInvalid(Grade("name,invasive\n12,0.9\n3,0.1\n7,0.8\n"), "same number of rows");
  ExpectInvalid(Grade("name,invasive\n12,0.9\n3,0.1\n7,0.8\n100,0.2\n5,0.5\n"),
                "same number of rows");
  ExpectInvalid(Grade(""), "should have an name column");
}

TEST(InvasiveSpeciesGradeTest, IdsMustMatch) {
  ExpectInvalid(Grade("name,invasive\n12,0.9\n3,0.1\n7,0.8\n101,0.2\n"), "same name values");
  ExpectInvalid(Grade("name,invasive\n12,0.9\n12,0.1\n7,0.8\n100,0.2\n"), "same name values");
  ExpectInvalid(Grade("name,invasive\n12,0.9\n,0.1\n7,0.8\n100,0.2\n"), "same name values");
  // File names are not image numbers.
  ExpectInvalid(Grade("name,invasive\n12.jpg,0.9\n3.jpg,0.1\n7.jpg,0.8\n100.jpg,0.2\n"),
                "same name values");
}

TEST(InvasiveSpeciesGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"name,invasive\n1,1\n2,1\n",      // one class
                                   "name,label\n1,1\n2,0\n",         // no target
                                   "name,invasive\n1,1\n2,yes\n"}) {  // not numeric
    absl::StatusOr<double> result = Grade("name,invasive\n1,0.9\n2,0.1\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
