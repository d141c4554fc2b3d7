#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// As prepare writes it: Kaggle's image names, 0/1 targets.
constexpr std::string_view kAnswers =
    "image_name,target\n"
    "ISIC_0149568,1\n"
    "ISIC_0052212,0\n"
    "ISIC_0188432,1\n"
    "ISIC_0074311,0\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(SiimIsicGradeTest, Registered) { EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID); }

TEST(SiimIsicGradeTest, PerfectRankingInAnyRowOrder) {
  EXPECT_EQ(*Grade("image_name,target\nISIC_0074311,0.2\nISIC_0188432,0.8\nISIC_0052212,0.1\n"
                   "ISIC_0149568,0.9\n"),
            1.0);
  // The sample submission's constant 0 (an int column).
  EXPECT_EQ(*Grade("image_name,target\nISIC_0149568,0\nISIC_0052212,0\nISIC_0188432,0\n"
                   "ISIC_0074311,0\n"),
            0.5);
}

TEST(SiimIsicGradeTest, HandComputedAreas) {
  // Positives 0149568=0.4, 0188432=0.6; negatives 0052212=0.5, 0074311=0.1: 3 of 4 pairs.
  EXPECT_EQ(*Grade("image_name,target\nISIC_0149568,0.4\nISIC_0052212,0.5\nISIC_0188432,0.6\n"
                   "ISIC_0074311,0.1\n"),
            0.75);
  // A tie counts half: (0.5 + 1 + 1 + 1) / 4.
  EXPECT_EQ(*Grade("image_name,target\nISIC_0149568,0.5\nISIC_0052212,0.5\nISIC_0188432,0.6\n"
                   "ISIC_0074311,0.1\n"),
            0.875);
}

TEST(SiimIsicGradeTest, ScoresMustBeNumericProbabilities) {
  ExpectInvalid(Grade("image_name,target\nISIC_0149568,0.9\nISIC_0052212,benign\n"
                      "ISIC_0188432,0.8\nISIC_0074311,0.2\n"),
                "to be numeric");
  ExpectInvalid(Grade("image_name,target\nISIC_0149568,1.5\nISIC_0052212,0.1\n"
                      "ISIC_0188432,0.8\nISIC_0074311,0.2\n"),
                "between 0 and 1");
  ExpectInvalid(Grade("image_name,target\nISIC_0149568,0.9\nISIC_0052212,\n"
                      "ISIC_0188432,0.8\nISIC_0074311,0.2\n"),
                "contains NaN");
}

TEST(SiimIsicGradeTest, StructuralChecks) {
  ExpectInvalid(Grade("image,target\nISIC_0149568,0.9\n"), "should have an image_name column");
  ExpectInvalid(Grade("image_name,p\nISIC_0149568,0.9\n"), "should have a target column");
  ExpectInvalid(Grade("image_name,target\nISIC_0149568,0.9\nISIC_0052212,0.1\nISIC_0188432,0.8\n"),
                "same number of rows");
  ExpectInvalid(Grade("image_name,target\nISIC_0149568,0.9\nISIC_0052212,0.1\nISIC_0188432,0.8\n"
                      "ISIC_9999999,0.2\n"),
                "same image_name values");
  ExpectInvalid(Grade("image_name,target\nISIC_0149568,0.9\nISIC_0149568,0.1\nISIC_0188432,0.8\n"
                      "ISIC_0074311,0.2\n"),
                "same image_name values");
}

TEST(SiimIsicGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"image_name,target\na,1\nb,1\n", "image_name,label\na,1\nb,0\n"}) {
    absl::StatusOr<double> result = Grade("image_name,target\na,0.9\nb,0.1\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
