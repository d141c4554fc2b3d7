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

// private/test.csv: the held-out rows of train.csv.
constexpr std::string_view kAnswers =
    "segment_id,time_to_eruption\n"
    "1136037770,12262005\n"
    "1969647810,32739612\n"
    "1895879680,14965999\n"
    "2068207140,26469720\n";

absl::StatusOr<double> Grade(std::string_view submission) {
  return testing::GradeCsvText(kId, submission, kAnswers);
}

using testing::ExpectInvalid;

TEST(VolcanicGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(VolcanicGradeTest, PerfectInAnyRowOrderWithExtraColumns) {
  EXPECT_EQ(*Grade("segment_id,time_to_eruption\n1969647810,32739612\n2068207140,26469720\n"
                   "1136037770,12262005\n1895879680,14965999.0\n"),
            0.0);
  EXPECT_EQ(*Grade("time_to_eruption,note,segment_id\n12262005,a,1136037770\n32739612,b,1969647810\n"
                   "14965999,c,1895879680\n26469720,d,2068207140\n"),
            0.0);
}

TEST(VolcanicGradeTest, HandComputedAndRoundedToAnInteger) {
  // Errors 12262005, 1000, 0.5, 0.5: mean 3065751.5, rounded half to even.
  EXPECT_EQ(*Grade("segment_id,time_to_eruption\n1136037770,0\n1969647810,32740612\n"
                   "1895879680,14965998.5\n2068207140,26469720.5\n"),
            3065752.0);
  // Errors 1, 0, 0, 1: 0.5 rounds to 0; errors 2, 0, 0, 1: 0.75 rounds to 1.
  EXPECT_EQ(*Grade("segment_id,time_to_eruption\n1136037770,12262006\n1969647810,32739612\n"
                   "1895879680,14965999\n2068207140,26469719\n"),
            0.0);
  EXPECT_EQ(*Grade("segment_id,time_to_eruption\n1136037770,12262007\n1969647810,32739612\n"
                   "1895879680,14965999\n2068207140,26469719\n"),
            1.0);
  // Ids written as floats still match (Python: 5 == 5.0).
  EXPECT_EQ(*Grade("segment_id,time_to_eruption\n1136037770.0,12262005\n1969647810,32739612\n"
                   "1895879680,14965999\n2068207140,26469720\n"),
            0.0);
}

TEST(VolcanicGradeTest, RepeatedIdsAreScoredOncePerRepeat) {
  // Upstream compares id sets and merges: the repeat of 1136037770 adds a
  // second pair. Errors 0, 0, 0, 0 and 8: mean 1.6, rounded to 2.
  EXPECT_EQ(*Grade("segment_id,time_to_eruption\n1136037770,12262005\n1969647810,32739612\n"
                   "1895879680,14965999\n2068207140,26469720\n1136037770,12262013\n"),
            2.0);
}

TEST(VolcanicGradeTest, RejectsMissingColumns) {
  ExpectInvalid(Grade("segment_id,prediction\n1136037770,1\n1969647810,1\n1895879680,1\n"
                      "2068207140,1\n"),
                "Target column time_to_eruption not found");
  ExpectInvalid(Grade("id,time_to_eruption\n1136037770,1\n1969647810,1\n1895879680,1\n"
                      "2068207140,1\n"),
                "Segment ID column not found");
}

TEST(VolcanicGradeTest, RejectsMissingUnknownOrNonNumericIds) {
  ExpectInvalid(Grade("segment_id,time_to_eruption\n1136037770,1\n1969647810,1\n1895879680,1\n"),
                "segment_ids differ");
  ExpectInvalid(Grade("segment_id,time_to_eruption\n1136037770,1\n1969647810,1\n1895879680,1\n"
                      "2068207140,1\n7,1\n"),
                "segment_ids differ");
  ExpectInvalid(Grade("segment_id,time_to_eruption\n1136037770,1\n1969647810,1\n1895879680,1\n"
                      ",1\n"),
                "segment_ids differ");
  ExpectInvalid(Grade("segment_id,time_to_eruption\nx1136037770,1\n1969647810,1\n1895879680,1\n"
                      "2068207140,1\n"),
                "segment_ids differ");
  ExpectInvalid(Grade("segment_id,time_to_eruption\n"), "segment_ids differ");
}

TEST(VolcanicGradeTest, RejectsBadPredictions) {
  for (std::string_view bad : {"", "nan", "inf", "-inf", "soon"}) {
    SCOPED_TRACE(bad);
    ExpectInvalid(Grade("segment_id,time_to_eruption\n1136037770,1\n1969647810," +
                        std::string(bad) + "\n1895879680,1\n2068207140,1\n"),
                  "");
  }
  // A finite MAE too large for int(): OverflowError upstream.
  ExpectInvalid(Grade("segment_id,time_to_eruption\n1136037770,1.7e308\n1969647810,1.7e308\n"
                      "1895879680,1\n2068207140,1\n"),
                "infinity");
}

TEST(VolcanicGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers :
       {"segment_id,other\n5,1\n", "id,time_to_eruption\n5,1\n", "segment_id,time_to_eruption\n5,\n"}) {
    const absl::StatusOr<double> result =
        testing::GradeCsvText(kId, "segment_id,time_to_eruption\n5,1\n", answers);
    ASSERT_FALSE(result.ok());
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
