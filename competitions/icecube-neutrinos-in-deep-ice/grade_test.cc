#include <cmath>
#include <numbers>
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
constexpr double kPi = std::numbers::pi;

// Event 3 points straight up (zenith 0), event 1 along +x, event 2 along +y.
constexpr std::string_view kAnswers =
    "event_id,azimuth,zenith\n"
    "3,0.5,0.0\n"
    "1,0.0,1.5707963267948966\n"
    "2,1.5707963267948966,1.5707963267948966\n";

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(IcecubeGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(IcecubeGradeTest, PerfectSubmissionInAnyOrderAndColumnOrder) {
  absl::StatusOr<double> score = Grade(
      "zenith,event_id,azimuth\n"
      "1.5707963267948966,2,1.5707963267948966\n"
      "0.0,3,2.0\n"  // any azimuth at the pole
      "1.5707963267948966,1,0.0\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_NEAR(*score, 0.0, 1e-7);
}

TEST(IcecubeGradeTest, HandComputedScore) {
  // Event 1 predicted along +y (90 degrees off), event 2 predicted straight
  // down (90 degrees off), event 3 predicted straight down (180 degrees off).
  absl::StatusOr<double> score = Grade(
      "event_id,azimuth,zenith\n"
      "1,1.5707963267948966,1.5707963267948966\n"
      "2,0,3.141592653589793\n"
      "3,0,3.141592653589793\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_NEAR(*score, (kPi / 2 + kPi / 2 + kPi) / 3, 1e-12);
  // The sample submission's integer 1s are numbers too.
  score = Grade("event_id,azimuth,zenith\n1,1,1\n2,1,1\n3,1,1\n");
  ASSERT_TRUE(score.ok()) << score.status();
  const double up = 1.0;  // angle between (az 1, zen 1) and straight up is the zenith
  const double x = std::acos(std::sin(1.0) * std::cos(1.0));
  const double y = std::acos(std::sin(1.0) * std::sin(1.0));
  EXPECT_NEAR(*score, (up + x + y) / 3, 1e-12);
}

TEST(IcecubeGradeTest, ColumnsMustBeExactlyTheThree) {
  ExpectInvalid(Grade("event_id,azimuth\n1,0\n2,0\n3,0\n"), "must contain columns");
  ExpectInvalid(Grade("event_id,azimuth,zenith,extra\n1,0,0,0\n2,0,0,0\n3,0,0,0\n"),
                "must contain columns");
  ExpectInvalid(Grade("id,azimuth,zenith\n1,0,0\n2,0,0\n3,0,0\n"), "must contain columns");
}

TEST(IcecubeGradeTest, AnglesMustBeFiniteNumbers) {
  ExpectInvalid(Grade("event_id,azimuth,zenith\n1,a,0\n2,0,0\n3,0,0\n"),
                "Azimuth must be a number");
  ExpectInvalid(Grade("event_id,azimuth,zenith\n1,0,True\n2,0,False\n3,0,True\n"),
                "Zenith must be a number");
  // NaN fails np.isfinite first, so upstream reports it as "infinite".
  ExpectInvalid(Grade("event_id,azimuth,zenith\n1,,0\n2,0,0\n3,0,0\n"),
                "Azimuth must not be infinite");
  // Both dtypes are checked before any value.
  ExpectInvalid(Grade("event_id,azimuth,zenith\n1,,a\n2,0,0\n3,0,0\n"), "Zenith must be a number");
  ExpectInvalid(Grade("event_id,azimuth,zenith\n1,0,inf\n2,0,0\n3,0,0\n"),
                "Zenith must not be infinite");
}

TEST(IcecubeGradeTest, RowsAndIdsMustMatch) {
  ExpectInvalid(Grade("event_id,azimuth,zenith\n1,0,0\n2,0,0\n"), "same length");
  ExpectInvalid(Grade("event_id,azimuth,zenith\n1,0,0\n2,0,0\n3,0,0\n4,0,0\n"), "same length");
  ExpectInvalid(Grade("event_id,azimuth,zenith\n1,0,0\n2,0,0\n4,0,0\n"), "same event_ids");
  ExpectInvalid(Grade("event_id,azimuth,zenith\n1,0,0\n2,0,0\n2,0,0\n"), "same event_ids");
  ExpectInvalid(Grade("event_id,azimuth,zenith\na,0,0\n2,0,0\n3,0,0\n"), "same event_ids");
  // Float ids equal to the integers are the same set members in Python.
  absl::StatusOr<double> score = Grade(
      "event_id,azimuth,zenith\n1.0,0,1.5707963267948966\n2.0,1.5707963267948966,1."
      "5707963267948966\n3.0,0,0\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_NEAR(*score, 0.0, 1e-7);
}

TEST(IcecubeGradeTest, BadAnswersAreNotTheSubmissionsFault) {
  absl::StatusOr<double> r = Grade("event_id,azimuth,zenith\n1,0,0\n", "event_id,azimuth\n1,0\n");
  ASSERT_FALSE(r.ok());
  EXPECT_FALSE(IsInvalidSubmission(r.status()));
  r = Grade("event_id,azimuth,zenith\n1,0,0\n", "event_id,azimuth,zenith\n1,,0\n");
  ASSERT_FALSE(r.ok());
  EXPECT_FALSE(IsInvalidSubmission(r.status()));
}

}  // namespace
}  // namespace mlebench::grade_test
