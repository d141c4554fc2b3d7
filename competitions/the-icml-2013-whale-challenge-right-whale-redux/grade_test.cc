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
    "clip,probability\n"
    "20090330_000000_010s0ms_Test0.aif,1\n"
    "20090330_000000_020s4ms_Test1.aif,0\n"
    "20090331_001500_005s1ms_Test2.aif,1\n"
    "20090331_003000_042s9ms_Test3.aif,0\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// A submission with scores for Test0..Test3 (in that row order).
std::string Submission(std::string_view a, std::string_view b, std::string_view c,
                       std::string_view d) {
  return "clip,probability\n20090330_000000_010s0ms_Test0.aif," + std::string(a) +
         "\n20090330_000000_020s4ms_Test1.aif," + std::string(b) +
         "\n20090331_001500_005s1ms_Test2.aif," + std::string(c) +
         "\n20090331_003000_042s9ms_Test3.aif," + std::string(d) + "\n";
}

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(RightWhaleReduxGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(RightWhaleReduxGradeTest, PerfectRankingInAnyRowOrder) {
  EXPECT_EQ(*Grade(Submission("0.9", "0.1", "0.8", "0.2")), 1.0);
  EXPECT_EQ(*Grade("clip,probability\n"
                   "20090331_003000_042s9ms_Test3.aif,0.01\n"
                   "20090331_001500_005s1ms_Test2.aif,0.6\n"
                   "20090330_000000_020s4ms_Test1.aif,0.02\n"
                   "20090330_000000_010s0ms_Test0.aif,0.7\n"),
            1.0);
}

TEST(RightWhaleReduxGradeTest, HandComputedAreas) {
  // Positives 0.4, 0.6; negatives 0.5, 0.1: 3 of 4 pairs ordered.
  EXPECT_EQ(*Grade(Submission("0.4", "0.5", "0.6", "0.1")), 0.75);
  // Positives 0.3, 0.3; negatives 0.3, 0.2: two ties and two ordered pairs.
  EXPECT_EQ(*Grade(Submission("0.3", "0.3", "0.3", "0.2")), 0.75);
  // The sample submission's constant 0 ranks nothing.
  EXPECT_EQ(*Grade(Submission("0", "0", "0", "0")), 0.5);
  EXPECT_EQ(*Grade(Submission("0", "1", "0", "1")), 0.0);
}

TEST(RightWhaleReduxGradeTest, ScoresMustBeNumericProbabilities) {
  ExpectInvalid(Grade(Submission("0.9", "whale", "0.8", "0.2")), "to be numeric");
  ExpectInvalid(Grade(Submission("0.9", "0.1", "100", "0.2")), "between 0 and 1");
  ExpectInvalid(Grade(Submission("0.9", "-0.01", "0.8", "0.2")), "between 0 and 1");
  ExpectInvalid(Grade(Submission("0.9", "", "0.8", "0.2")), "contains NaN");
}

TEST(RightWhaleReduxGradeTest, StructuralChecks) {
  ExpectInvalid(Grade("id,probability\n20090330_000000_010s0ms_Test0.aif,1\n"),
                "should have an clip column");
  ExpectInvalid(Grade("clip,label\n20090330_000000_010s0ms_Test0.aif,1\n"),
                "should have a probability column");
  ExpectInvalid(Grade("clip,probability\n20090330_000000_010s0ms_Test0.aif,1\n"),
                "same number of rows");
  ExpectInvalid(Grade(Submission("1", "0", "1", "0") + "x.aif,0.5\n"), "same number of rows");
  ExpectInvalid(Grade(""), "should have an clip column");
}

TEST(RightWhaleReduxGradeTest, ClipsMustMatch) {
  // A clip named twice, and one named without its extension.
  ExpectInvalid(Grade("clip,probability\n"
                      "20090330_000000_010s0ms_Test0.aif,1\n"
                      "20090330_000000_010s0ms_Test0.aif,0\n"
                      "20090331_001500_005s1ms_Test2.aif,1\n"
                      "20090331_003000_042s9ms_Test3.aif,0\n"),
                "same clip values");
  ExpectInvalid(Grade("clip,probability\n"
                      "20090330_000000_010s0ms_Test0,1\n"
                      "20090330_000000_020s4ms_Test1.aif,0\n"
                      "20090331_001500_005s1ms_Test2.aif,1\n"
                      "20090331_003000_042s9ms_Test3.aif,0\n"),
                "same clip values");
}

TEST(RightWhaleReduxGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers :
       {"clip,probability\na.aif,1\nb.aif,1\n", "clip,label\na.aif,1\nb.aif,0\n"}) {
    absl::StatusOr<double> result = Grade("clip,probability\na.aif,0.9\nb.aif,0.1\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
