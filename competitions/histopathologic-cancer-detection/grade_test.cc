#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr std::string_view kAnswers =
    "id,label\n"
    "f38a6374c348f90b587e046aac6079959adf3835,1\n"
    "c18f2d887b7ae4f6742ee445113fa1aef383ed77,0\n"
    "755db6279dae599ebb4d39a9123cce439965282d,1\n"
    "bc3f0c64fb968ff4a8bd33af6971ecae77c75e08,0\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;
constexpr char kA[] = "f38a6374c348f90b587e046aac6079959adf3835";
constexpr char kB[] = "c18f2d887b7ae4f6742ee445113fa1aef383ed77";
constexpr char kC[] = "755db6279dae599ebb4d39a9123cce439965282d";
constexpr char kD[] = "bc3f0c64fb968ff4a8bd33af6971ecae77c75e08";

// A submission with scores for ids a, b, c, d (in that row order).
std::string Submission(std::string_view a, std::string_view b, std::string_view c,
                       std::string_view d) {
  return std::string("id,label\n") + kA + "," + std::string(a) + "\n" + kB + "," + std::string(b) +
         "\n" + kC + "," + std::string(c) + "\n" + kD + "," + std::string(d) + "\n";
}

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(HistopathologicGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(HistopathologicGradeTest, PerfectRankingInAnyRowOrder) {
  EXPECT_EQ(*Grade(Submission("0.9", "0.1", "0.8", "0.2")), 1.0);
  EXPECT_EQ(
      *Grade(std::string("id,label\n") + kD + ",0\n" + kC + ",0.7\n" + kB + ",0.3\n" + kA + ",1\n"),
      1.0);
}

TEST(HistopathologicGradeTest, HandComputedAreas) {
  // Positives a=0.4, c=0.6; negatives b=0.5, d=0.1: 3 of 4 pairs ordered.
  EXPECT_EQ(*Grade(Submission("0.4", "0.5", "0.6", "0.1")), 0.75);
  // A tie between a and b counts half.
  EXPECT_EQ(*Grade(Submission("0.5", "0.5", "0.6", "0.1")), 0.875);
  // The sample submission's constant 0 ranks nothing.
  EXPECT_EQ(*Grade(Submission("0", "0", "0", "0")), 0.5);
  EXPECT_EQ(*Grade(Submission("0", "1", "0", "1")), 0.0);
}

TEST(HistopathologicGradeTest, ScoresMustBeNumericProbabilities) {
  ExpectInvalid(Grade(Submission("0.9", "high", "0.8", "0.2")), "to be numeric");
  ExpectInvalid(Grade(Submission("1.01", "0.1", "0.8", "0.2")), "between 0 and 1");
  ExpectInvalid(Grade(Submission("0.9", "-0.5", "0.8", "0.2")), "between 0 and 1");
  ExpectInvalid(Grade(Submission("0.9", "", "0.8", "0.2")), "contains NaN");
  ExpectInvalid(Grade(Submission("0.9", "nan", "0.8", "0.2")), "contains NaN");
}

TEST(HistopathologicGradeTest, StructuralChecks) {
  ExpectInvalid(Grade(std::string("image,label\n") + kA + ",1\n"), "should have an id column");
  ExpectInvalid(Grade(std::string("id,prob\n") + kA + ",1\n"), "should have a label column");
  ExpectInvalid(Grade(std::string("id,label\n") + kA + ",1\n" + kB + ",0\n"),
                "same number of rows");
  ExpectInvalid(Grade(Submission("1", "0", "1", "0") + "deadbeef,0.5\n"), "same number of rows");
  ExpectInvalid(Grade(""), "should have an id column");
}

TEST(HistopathologicGradeTest, IdsMustMatch) {
  ExpectInvalid(
      Grade(std::string("id,label\n") + kA + ",1\n" + kA + ",0\n" + kC + ",1\n" + kD + ",0\n"),
      "same id values");
  ExpectInvalid(Grade(std::string("id,label\n") + kA + ",1\nx,0\n" + kC + ",1\n" + kD + ",0\n"),
                "same id values");
}

TEST(HistopathologicGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"id,label\na,1\nb,1\n", "id,target\na,1\nb,0\n"}) {
    absl::StatusOr<double> result = Grade("id,label\na,0.9\nb,0.1\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
