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
    "id,target\n"
    "0a1b2c3d4e5f607,1\n"
    "1f2e3d4c5b6a798,0\n"
    "a0b1c2d3e4f5a6b,1\n"
    "fedcba987654321,0\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// A submission with scores for the four answer ids (in that row order).
std::string Submission(std::string_view a, std::string_view b, std::string_view c,
                       std::string_view d) {
  return "id,target\n0a1b2c3d4e5f607," + std::string(a) + "\n1f2e3d4c5b6a798," + std::string(b) +
         "\na0b1c2d3e4f5a6b," + std::string(c) + "\nfedcba987654321," + std::string(d) + "\n";
}

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(SetiGradeTest, Registered) { EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID); }

TEST(SetiGradeTest, PerfectRankingInAnyRowOrder) {
  EXPECT_EQ(*Grade(Submission("0.9", "0.1", "0.8", "0.2")), 1.0);
  EXPECT_EQ(*Grade("id,target\nfedcba987654321,0\na0b1c2d3e4f5a6b,1\n1f2e3d4c5b6a798,0.3\n"
                   "0a1b2c3d4e5f607,0.31\n"),
            1.0);
}

TEST(SetiGradeTest, HandComputedAreas) {
  // Positives 0.4, 0.6; negatives 0.5, 0.1: 3 of 4 pairs ordered.
  EXPECT_EQ(*Grade(Submission("0.4", "0.5", "0.6", "0.1")), 0.75);
  // A tie between a positive and a negative counts half: (0.5 + 1 + 1 + 0) / 4.
  EXPECT_EQ(*Grade(Submission("0.5", "0.5", "0.2", "0.1")), 0.625);
  // The sample submission's constant 0.5 ranks nothing.
  EXPECT_EQ(*Grade(Submission("0.5", "0.5", "0.5", "0.5")), 0.5);
  EXPECT_EQ(*Grade(Submission("0", "1", "0", "1")), 0.0);
}

TEST(SetiGradeTest, ScoresMustBeNumericProbabilities) {
  ExpectInvalid(Grade(Submission("0.9", "signal", "0.8", "0.2")), "to be numeric");
  ExpectInvalid(Grade(Submission("1e3", "0.1", "0.8", "0.2")), "between 0 and 1");
  ExpectInvalid(Grade(Submission("0.9", "-1", "0.8", "0.2")), "between 0 and 1");
  ExpectInvalid(Grade(Submission("0.9", "", "0.8", "0.2")), "contains NaN");
  ExpectInvalid(Grade(Submission("", "", "", "")), "contains NaN");
}

TEST(SetiGradeTest, StructuralChecks) {
  ExpectInvalid(Grade("file,target\n0a1b2c3d4e5f607,1\n"), "should have an id column");
  ExpectInvalid(Grade("id,label\n0a1b2c3d4e5f607,1\n"), "should have a target column");
  ExpectInvalid(Grade("id,target\n0a1b2c3d4e5f607,1\n"), "same number of rows");
  ExpectInvalid(Grade(Submission("1", "0", "1", "0") + "0000000000000aa,0.5\n"),
                "same number of rows");
  ExpectInvalid(Grade(""), "should have an id column");
}

TEST(SetiGradeTest, IdsMustMatch) {
  ExpectInvalid(Grade("id,target\n0a1b2c3d4e5f607,1\n0a1b2c3d4e5f607,0\na0b1c2d3e4f5a6b,1\n"
                      "fedcba987654321,0\n"),
                "same id values");
  // Case matters: ids are text.
  ExpectInvalid(Grade("id,target\n0A1B2C3D4E5F607,1\n1f2e3d4c5b6a798,0\na0b1c2d3e4f5a6b,1\n"
                      "fedcba987654321,0\n"),
                "same id values");
}

TEST(SetiGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"id,target\na,0\nb,0\n", "id,label\na,1\nb,0\n"}) {
    absl::StatusOr<double> result = Grade("id,target\na,0.9\nb,0.1\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
