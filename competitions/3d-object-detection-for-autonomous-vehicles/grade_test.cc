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

// Three samples: boxes "confidence x y z width length height yaw class".
constexpr std::string_view kAnswers =
    "Id,PredictionString\n"
    "b2,1.0 10 20 -1 2 4 1.5 0.5 car 1.0 30 20 -1 0.8 0.8 1.8 0 pedestrian\n"
    "a1,1.0 0 0 0 2 2 1 0 car\n"
    "c3,1.0 100 100 0 2 4 1.5 -1 car 1.0 110 100 0 2 4 1.5 1 car\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

// kAnswers with sample a1's PredictionString replaced.
std::string WithA1(std::string_view prediction) {
  return "Id,PredictionString\n"
         "b2,1.0 10 20 -1 2 4 1.5 0.5 car 1.0 30 20 -1 0.8 0.8 1.8 0 pedestrian\n"
         "a1," +
         std::string(prediction) +
         "\n"
         "c3,1.0 100 100 0 2 4 1.5 -1 car 1.0 110 100 0 2 4 1.5 1 car\n";
}

using testing::ExpectInvalid;

TEST(Lyft3dGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(Lyft3dGradeTest, PerfectSubmissionScoresOneInAnyOrder) {
  EXPECT_EQ(*Grade(kAnswers), 1.0);
  EXPECT_EQ(*Grade("PredictionString,Id,extra\n"
                   "0.5 0 0 0 2 2 1 0 car,a1,x\n"
                   "0.3 110 100 0 2 4 1.5 1 car 0.9 100 100 0 2 4 1.5 -1 car,c3,y\n"
                   "1 30 20 -1 0.8 0.8 1.8 0 pedestrian 1 10 20 -1 2 4 1.5 0.5 car,b2,z\n"),
            1.0);
}

// The sample submission (empty PredictionStrings, read as NaN and filled
// with "") matches nothing.
TEST(Lyft3dGradeTest, SampleSubmissionScoresZero) {
  EXPECT_EQ(*Grade("Id,PredictionString\nb2,\na1,\nc3,\n"), 0.0);
  EXPECT_EQ(*Grade("Id,PredictionString\nb2,\na1,   \nc3,\"\"\n"), 0.0);
}

// a1: the square turned by 45 degrees, IoU 1/sqrt(2): matched at 0.5..0.7,
// so 5 of 10 thresholds. b2: the car only; pedestrian's AP is 0: 0.5. c3: a
// false alarm ranked above one hit: recall 0 then 1/2, precision 0 then
// 1/2, AP 1/2 * 1/2 = 0.25. Mean (5 + 5 + 2.5) / 30.
TEST(Lyft3dGradeTest, WrongSubmissionScoresHandComputedMap) {
  EXPECT_DOUBLE_EQ(*Grade("Id,PredictionString\n"
                          "a1,0.9 0 0 0 2 2 1 0.7853981633974483 car\n"
                          "b2,0.9 10 20 -1 2 4 1.5 0.5 car 0.5 30 20 -1 0.8 0.8 1.8 0 bus\n"
                          "c3,0.2 100 100 0 2 4 1.5 -1 car 0.8 150 100 0 2 4 1.5 1 car\n"),
                   12.5 / 30);
}

TEST(Lyft3dGradeTest, ThresholdsAreStrictAndDuplicatesCountAsFalseAlarms) {
  // IoU exactly 1/2 (same floor square, half the height) matches nowhere.
  // Its AP 0 replaces a1's 1: (0 + 10 + 10) / 30.
  EXPECT_DOUBLE_EQ(*Grade(WithA1("1 0 0 -0.25 2 2 0.5 0 car")), 20.0 / 30);
  // A duplicate of the hit ranked second: recall stays 1, AP still 1.
  EXPECT_EQ(*Grade(WithA1("0.9 0 0 0 2 2 1 0 car 0.8 0 0 0 2 2 1 0 car")), 1.0);
  // A false alarm tied with the hit and listed first ranks first (ties keep
  // their order): recall 0 then 1, precision 0 then 1/2: AP 1/2 for a1.
  EXPECT_DOUBLE_EQ(*Grade(WithA1("0.9 50 0 0 2 2 1 0 car 0.9 0 0 0 2 2 1 0 car")), 25.0 / 30);
}

TEST(Lyft3dGradeTest, OnlyClassesInBothRowsAreChecked) {
  // Boxes of a class the answers' row lacks are parsed, never validated.
  EXPECT_EQ(*Grade(WithA1("1 0 0 0 2 2 1 0 car 1 nan 0 0 -2 0 1 nan truck")), 1.0);
  // A NaN confidence is never checked.
  EXPECT_EQ(*Grade(WithA1("nan 0 0 0 2 2 1 0 car")), 1.0);
  for (const std::string_view bad :
       {"1 nan 0 0 2 2 1 0 car", "1 0 0 0 0 2 1 0 car", "1 0 0 0 2 -2 1 0 car",
        "1 0 0 0 2 2 nan 0 car", "1 0 0 0 2 2 1 nan car", "1 inf 0 0 2 2 1 0 car",
        "1 1e300 0 0 2 2 1 0.3 car"}) {
    SCOPED_TRACE(bad);
    ExpectInvalid(Grade(WithA1(bad)), "mean average precision cannot be computed");
  }
}

TEST(Lyft3dGradeTest, MalformedPredictionStringsAreInvalid) {
  ExpectInvalid(Grade(WithA1("1 0 0 0 2 2 1 0")), "9 tokens per object, but got 8");
  ExpectInvalid(Grade(WithA1("1 0 0 0 2 2 1 0 car 1")), "but got 10 tokens");
  ExpectInvalid(Grade(WithA1("1 0 0 0 2 2 1 0  car")), "but got 10 tokens");
  ExpectInvalid(Grade(WithA1(" 1 0 0 0 2 2 1 0 car")), "but got 10 tokens");
  ExpectInvalid(Grade(WithA1("1 0 0 0 2 2 1  car")), "could not convert string to float: ''");
  ExpectInvalid(Grade(WithA1("high 0 0 0 2 2 1 0 car")), "could not convert string to float");
  // math.cos rejects an infinite yaw while parsing, whatever the class.
  ExpectInvalid(Grade(WithA1("1 0 0 0 2 2 1 0 car 1 0 0 0 2 2 1 inf truck")), "infinite");
}

TEST(Lyft3dGradeTest, NonTextPredictionCellsAreInvalid) {
  // A numeric column: `.strip()` of a float raises AttributeError.
  ExpectInvalid(Grade("Id,PredictionString\nb2,1\na1,\nc3,\n"), "is a float");
  ExpectInvalid(Grade("Id,PredictionString\nb2,True\na1,False\nc3,True\n"), "is a bool");
}

TEST(Lyft3dGradeTest, RowsAndIdsMustMatch) {
  ExpectInvalid(Grade("Id,PredictionString\na1,\nb2,\n"), "same length");
  ExpectInvalid(Grade("Id,PredictionString\na1,\nb2,\nc3,\nd4,\n"), "same length");
  ExpectInvalid(Grade("id,PredictionString\na1,\nb2,\nc3,\n"), "'Id' column");
  ExpectInvalid(Grade("Id,Prediction\na1,\nb2,\nc3,\n"), "'PredictionString' column");
  ExpectInvalid(Grade("Id,PredictionString\na1,\nb2,\nd4,\n"), "same ids");
  ExpectInvalid(Grade("Id,PredictionString\na1,\na1,\nc3,\n"), "same ids");
  ExpectInvalid(Grade("Id,PredictionString\n1,\n2,\n3,\n"), "same ids");
}

// With numeric Ids on both sides, Box3D's "sample token must be a str" check
// fails wherever a box is built: an upstream crash caused by the answers.
TEST(Lyft3dGradeTest, NumericIdsFailWhereBoxesAreBuilt) {
  constexpr std::string_view kNumericAnswers = "Id,PredictionString\n7,1 0 0 0 2 2 1 0 car\n";
  EXPECT_EQ(*Grade("Id,PredictionString\n7,\n", kNumericAnswers), 0.0);
  const absl::StatusOr<double> built =
      Grade("Id,PredictionString\n7,1 0 0 0 2 2 1 0 car\n", kNumericAnswers);
  ASSERT_FALSE(built.ok());
  EXPECT_FALSE(IsInvalidSubmission(built.status())) << built.status();
}

TEST(Lyft3dGradeTest, AnswerRowWithoutBoxesMakesNaN) {
  const absl::StatusOr<double> score = Grade("Id,PredictionString\nx,1 0 0 0 2 2 1 0 car\ny,\n",
                                             "Id,PredictionString\nx,1 0 0 0 2 2 1 0 car\ny, \n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_TRUE(std::isnan(*score));
}

TEST(Lyft3dGradeTest, MalformedAnswersAreInternalErrors) {
  for (const std::string_view answers :
       {"Id,Prediction\na1,1 0 0 0 2 2 1 0 car\n", "Id,PredictionString\na1,\n",
        "Id,PredictionString\na1,1 0 0 0 2 2 1 car\n",
        "Id,PredictionString\na1,1 0 0 0 2 0 1 0 car\n"}) {
    SCOPED_TRACE(answers);
    const absl::StatusOr<double> score =
        Grade("Id,PredictionString\na1,1 0 0 0 2 2 1 0 car\n", answers);
    ASSERT_FALSE(score.ok());
    EXPECT_FALSE(IsInvalidSubmission(score.status())) << score.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
