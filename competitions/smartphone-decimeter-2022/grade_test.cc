#include <cmath>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// private/test.csv: trip A with two epochs, trip B with one.
constexpr std::string_view kAnswers =
    "tripId,UnixTimeMillis,LatitudeDegrees,LongitudeDegrees\n"
    "2021-01-05-US-A-Pixel4,1000,10.0,20.0\n"
    "2021-01-05-US-A-Pixel4,2000,11.0,20.0\n"
    "2021-02-07-US-B-Mi8,1500,-5.0,100.0\n";

// One degree of latitude on upstream's 6,371,000 m sphere.
const double kOneDegree = 6371000 * M_PI / 180;

absl::StatusOr<double> Grade(std::string_view submission) {
  return testing::GradeCsvText(kId, submission, kAnswers);
}

TEST(SmartphoneDecimeterGradeTest, PerfectSubmissionScoresZero) {
  absl::StatusOr<double> score = Grade(kAnswers);
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_EQ(*score, 0);
}

TEST(SmartphoneDecimeterGradeTest, MeanOverTripsOfPercentileMeans) {
  // Trip A: distances 0 and one degree (p50 = D/2, p95 = 0.95 D); trip B: 0.
  // Trips may come in any order; within a trip rows pair by position.
  absl::StatusOr<double> score = Grade(
      "tripId,UnixTimeMillis,LatitudeDegrees,LongitudeDegrees\n"
      "2021-02-07-US-B-Mi8,0,-5,100\n"
      "2021-01-05-US-A-Pixel4,0,10.0,20.0\n"
      "2021-01-05-US-A-Pixel4,0,12.0,20.0\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_NEAR(*score, ((0.5 + 0.95) / 2 * kOneDegree + 0) / 2, 1e-6);
}

TEST(SmartphoneDecimeterGradeTest, RowsPairByPositionNotByTime) {
  // Swapping trip A's two rows makes both one degree off.
  absl::StatusOr<double> score = Grade(
      "tripId,UnixTimeMillis,LatitudeDegrees,LongitudeDegrees\n"
      "2021-01-05-US-A-Pixel4,2000,11.0,20.0\n"
      "2021-01-05-US-A-Pixel4,1000,10.0,20.0\n"
      "2021-02-07-US-B-Mi8,1500,-5.0,100.0\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_NEAR(*score, kOneDegree / 2, 1e-6);
}

TEST(SmartphoneDecimeterGradeTest, MissingPredictionGivesNanScore) {
  // np.quantile of distances containing NaN is NaN; upstream does not raise.
  absl::StatusOr<double> score = Grade(
      "tripId,UnixTimeMillis,LatitudeDegrees,LongitudeDegrees\n"
      "2021-01-05-US-A-Pixel4,1000,,20.0\n"
      "2021-01-05-US-A-Pixel4,2000,11.0,20.0\n"
      "2021-02-07-US-B-Mi8,1500,-5.0,100.0\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_TRUE(std::isnan(*score));
}

TEST(SmartphoneDecimeterGradeTest, BoolCoordinatesAreFloat16Angles) {
  // A True/False column is bool: numpy 1.26.4 takes its deg2rad and cos in
  // float16. Scores from upstream's grade() on the reference environment.
  absl::StatusOr<double> score = Grade(
      "tripId,UnixTimeMillis,LatitudeDegrees,LongitudeDegrees\n"
      "2021-01-05-US-A-Pixel4,1000,True,20.0\n"
      "2021-01-05-US-A-Pixel4,2000,False,20.0\n"
      "2021-02-07-US-B-Mi8,1500,True,100.0\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_EQ(*score, 914584.6508429407);
  score = Grade(
      "tripId,UnixTimeMillis,LatitudeDegrees,LongitudeDegrees\n"
      "2021-01-05-US-A-Pixel4,1000,10.0,True\n"
      "2021-01-05-US-A-Pixel4,2000,11.0,False\n"
      "2021-02-07-US-B-Mi8,1500,-5.0,True\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_EQ(*score, 6553072.967376061);
}

TEST(SmartphoneDecimeterGradeTest, MissingColumnsAreInvalid) {
  testing::ExpectInvalid(Grade("UnixTimeMillis,LatitudeDegrees,LongitudeDegrees\n1,1,1\n1,1,1\n1,1,1\n"),
                         "'tripId'");
  testing::ExpectInvalid(Grade("tripId,LatitudeDegrees,LongitudeDegrees\nx,1,1\nx,1,1\nx,1,1\n"),
                         "'UnixTimeMillis'");
  testing::ExpectInvalid(Grade("tripId,UnixTimeMillis,LongitudeDegrees\nx,1,1\nx,1,1\nx,1,1\n"),
                         "'LatitudeDegrees'");
  testing::ExpectInvalid(Grade("tripId,UnixTimeMillis,LatitudeDegrees\nx,1,1\nx,1,1\nx,1,1\n"),
                         "'LongitudeDegrees'");
}

TEST(SmartphoneDecimeterGradeTest, WrongRowCountIsInvalid) {
  testing::ExpectInvalid(Grade("tripId,UnixTimeMillis,LatitudeDegrees,LongitudeDegrees\n"
                               "2021-01-05-US-A-Pixel4,1000,10.0,20.0\n"
                               "2021-02-07-US-B-Mi8,1500,-5.0,100.0\n"),
                         "same number of rows");
}

TEST(SmartphoneDecimeterGradeTest, WrongRowsPerTripAreInvalid) {
  testing::ExpectInvalid(Grade("tripId,UnixTimeMillis,LatitudeDegrees,LongitudeDegrees\n"
                               "2021-01-05-US-A-Pixel4,1000,10.0,20.0\n"
                               "2021-02-07-US-B-Mi8,1500,-5.0,100.0\n"
                               "2021-02-07-US-B-Mi8,1500,-5.0,100.0\n"),
                         "1 rows for tripId 2021-01-05-US-A-Pixel4");
  // An unknown or missing trip id leaves a trip short.
  testing::ExpectInvalid(Grade("tripId,UnixTimeMillis,LatitudeDegrees,LongitudeDegrees\n"
                               "2021-01-05-US-A-Pixel4,1000,10.0,20.0\n"
                               ",2000,11.0,20.0\n"
                               "2021-02-07-US-B-Mi8,1500,-5.0,100.0\n"),
                         "tripId 2021-01-05-US-A-Pixel4");
}

TEST(SmartphoneDecimeterGradeTest, TextCoordinatesAreInvalid) {
  testing::ExpectInvalid(Grade("tripId,UnixTimeMillis,LatitudeDegrees,LongitudeDegrees\n"
                               "2021-01-05-US-A-Pixel4,1000,north,20.0\n"
                               "2021-01-05-US-A-Pixel4,2000,11.0,20.0\n"
                               "2021-02-07-US-B-Mi8,1500,-5.0,100.0\n"),
                         "must be numbers");
}

TEST(SmartphoneDecimeterGradeTest, IntegerCoordinatesAreNumbers) {
  absl::StatusOr<double> score = Grade("tripId,UnixTimeMillis,LatitudeDegrees,LongitudeDegrees\n"
                                       "2021-01-05-US-A-Pixel4,1000,10,20\n"
                                       "2021-01-05-US-A-Pixel4,2000,11,20\n"
                                       "2021-02-07-US-B-Mi8,1500,-5,100\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_EQ(*score, 0);
}

TEST(SmartphoneDecimeterGradeTest, MalformedAnswersAreInternalErrors) {
  absl::StatusOr<double> score = testing::GradeCsvText(
      kId, "tripId,UnixTimeMillis,LatitudeDegrees\nx,1,1\n", "tripId,UnixTimeMillis,LatitudeDegrees\nx,1,1\n");
  ASSERT_FALSE(score.ok());
  EXPECT_FALSE(IsInvalidSubmission(score.status()));
}

}  // namespace
}  // namespace mlebench::grade_test
