#include <cmath>
#include <limits>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/csv.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "base/table.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr std::string_view kAnswers =
    "id,EAP,HPL,MWS\n"
    "id1,1,0,0\n"
    "id2,0,1,0\n"
    "id3,0,0,1\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

const CompetitionGrader& Grader() { return testing::RegisteredGrader(kId); }

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(SpookyAuthorGradeTest, Registered) { EXPECT_EQ(Grader().id, MLEBENCH_COMPETITION_ID); }

TEST(SpookyAuthorGradeTest, PerfectSubmissionCostsOnlyTheClippingFloor) {
  // Each row's true probability is clipped to 1 - eps: loss -log(1 - eps).
  const double floor = -std::log(1.0 - std::numeric_limits<double>::epsilon());
  EXPECT_EQ(*Grade("id,EAP,HPL,MWS\nid3,0,0,1\nid1,1,0,0\nid2,0,1,0\n"), floor);
  EXPECT_LT(floor, 1e-15);
}

TEST(SpookyAuthorGradeTest, HandComputedLoss) {
  const double expected = ((-std::log(0.5) + -std::log(0.6)) + -std::log(0.8)) / 3.0;
  EXPECT_EQ(*Grade("id,EAP,HPL,MWS\nid1,0.5,0.3,0.2\nid2,0.2,0.6,0.2\nid3,0.1,0.1,0.8\n"),
            expected);
  // Rows and probability columns in another order give the same loss.
  EXPECT_EQ(*Grade("id,MWS,EAP,HPL\nid3,0.8,0.1,0.1\nid2,0.2,0.2,0.6\nid1,0.2,0.5,0.3\n"),
            expected);
  // A zero for the true class is clipped to eps, not an error.
  EXPECT_EQ(*Grade("id,EAP,HPL,MWS\nid1,0,0.5,0.5\nid2,0,1,0\nid3,0,0,1\n"),
            ((-std::log(std::numeric_limits<double>::epsilon()) +
              -std::log(1.0 - std::numeric_limits<double>::epsilon())) +
             -std::log(1.0 - std::numeric_limits<double>::epsilon())) /
                3.0);
}

TEST(SpookyAuthorGradeTest, RowSumToleranceIsIscloseWithDefaultRtol) {
  // |sum - 1| <= 1e-6 + 1e-5: 1.00001 passes and is scored unnormalised.
  EXPECT_EQ(*Grade("id,EAP,HPL,MWS\nid1,0.50001,0.3,0.2\nid2,0,1,0\nid3,0,0,1\n"),
            ((-std::log(0.50001) + -std::log(1.0 - std::numeric_limits<double>::epsilon())) +
             -std::log(1.0 - std::numeric_limits<double>::epsilon())) /
                3.0);
  ExpectInvalid(Grade("id,EAP,HPL,MWS\nid1,0.50002,0.3,0.2\nid2,0,1,0\nid3,0,0,1\n"), "sum to one");
  ExpectInvalid(Grade("id,EAP,HPL,MWS\nid1,0.4,0.3,0.2\nid2,0,1,0\nid3,0,0,1\n"), "sum to one");
}

TEST(SpookyAuthorGradeTest, ProbabilitiesMustBeInRange) {
  ExpectInvalid(Grade("id,EAP,HPL,MWS\nid1,1.2,-0.1,-0.1\nid2,0,1,0\nid3,0,0,1\n"),
                "between 0 and 1");
  // A missing probability is skipped by the row sum, then fails the range check.
  ExpectInvalid(Grade("id,EAP,HPL,MWS\nid1,,0.5,0.5\nid2,0,1,0\nid3,0,0,1\n"), "between 0 and 1");
  // Text cannot be summed (pandas 2 raises TypeError).
  ExpectInvalid(Grade("id,EAP,HPL,MWS\nid1,high,0.5,0.5\nid2,0,1,0\nid3,0,0,1\n"),
                "cannot be summed");
}

TEST(SpookyAuthorGradeTest, ShapeComesFirst) {
  ExpectInvalid(Grade("id,EAP,HPL,MWS\nid1,1,0,0\nid2,0,1,0\n"), "Submission shape (2, 4)");
  ExpectInvalid(Grade("id,EAP,HPL,MWS,extra\nid1,1,0,0,0\nid2,0,1,0,0\nid3,0,0,1,0\n"),
                "Submission shape (3, 5)");
  ExpectInvalid(Grade("id,EAP,HPL\nid1,1,0\nid2,0,1\nid3,0,1\n"), "Submission shape (3, 3)");
  ExpectInvalid(Grade(""), "Submission shape (0, 0)");
}

TEST(SpookyAuthorGradeTest, ColumnsAreCheckedByPositionThenByName) {
  // The id column not first: `iloc[:, 1:]` then sums the ids.
  ExpectInvalid(Grade("EAP,id,HPL,MWS\n1,id1,0,0\n0,id2,1,0\n0,id3,0,1\n"), "cannot be summed");
  // Right shape and sums, wrong names: the columns check catches it.
  ExpectInvalid(Grade("id,eap,HPL,MWS\nid1,1,0,0\nid2,0,1,0\nid3,0,0,1\n"),
                "Missing columns: {'EAP'}");
}

TEST(SpookyAuthorGradeTest, IdsMustMatch) {
  ExpectInvalid(Grade("id,EAP,HPL,MWS\nid1,1,0,0\nid2,0,1,0\nid4,0,0,1\n"),
                "Mismatch in Ids between `submission` and `answers` after sorting. Number of "
                "mismatched Ids: 2.");
  ExpectInvalid(Grade("id,EAP,HPL,MWS\nid1,1,0,0\nid1,0,1,0\nid3,0,0,1\n"), "Mismatch in Ids");
}

TEST(SpookyAuthorGradeTest, BooleanOneHotPredictionsAreNumbers) {
  const double floor = -std::log(1.0 - std::numeric_limits<double>::epsilon());
  EXPECT_EQ(
      *Grade("id,EAP,HPL,MWS\nid1,True,False,False\nid2,False,True,False\nid3,False,False,True\n"),
      floor);
}

TEST(SpookyAuthorGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"id,EAP,HPL\nid1,1,0\n",           // a class missing
                                   "key,EAP,HPL,MWS\nid1,1,0,0\n",    // no id column
                                   "id,EAP,HPL,MWS\nid1,2,0,0\n"}) {  // not one-hot
    absl::StatusOr<double> result = Grade("id,EAP,HPL,MWS\nid1,1,0,0\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers << ": " << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
