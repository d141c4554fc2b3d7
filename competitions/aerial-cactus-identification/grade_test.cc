#include <cmath>
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
    "id,has_cactus\n"
    "a.jpg,1\n"
    "b.jpg,0\n"
    "c.jpg,1\n"
    "d.jpg,0\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

const CompetitionGrader& Grader() { return testing::RegisteredGrader(kId); }

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(AerialCactusGradeTest, Registered) { EXPECT_EQ(Grader().id, MLEBENCH_COMPETITION_ID); }

TEST(AerialCactusGradeTest, PerfectRankingInAnyRowOrder) {
  EXPECT_EQ(*Grade("id,has_cactus\nd.jpg,0.2\nc.jpg,0.8\nb.jpg,0.1\na.jpg,0.9\n"), 1.0);
  // Only the ranking matters.
  EXPECT_EQ(*Grade("id,has_cactus\na.jpg,0.51\nb.jpg,0.5\nc.jpg,0.52\nd.jpg,0\n"), 1.0);
}

TEST(AerialCactusGradeTest, HandComputedAreas) {
  // Positives a=0.4, c=0.6; negatives b=0.5, d=0.1: 3 of 4 pairs ordered.
  EXPECT_EQ(*Grade("id,has_cactus\na.jpg,0.4\nb.jpg,0.5\nc.jpg,0.6\nd.jpg,0.1\n"), 0.75);
  // A tie between a and b counts half: (0.5 + 1 + 1 + 1) / 4.
  EXPECT_EQ(*Grade("id,has_cactus\na.jpg,0.5\nb.jpg,0.5\nc.jpg,0.6\nd.jpg,0.1\n"), 0.875);
  // Hard 0/1 labels and booleans are numbers in [0, 1].
  EXPECT_EQ(*Grade("id,has_cactus\na.jpg,1\nb.jpg,1\nc.jpg,0\nd.jpg,0\n"), 0.5);
  EXPECT_EQ(*Grade("id,has_cactus\na.jpg,True\nb.jpg,False\nc.jpg,True\nd.jpg,False\n"), 1.0);
  EXPECT_EQ(*Grade("id,has_cactus\na.jpg,0\nb.jpg,1\nc.jpg,0\nd.jpg,1\n"), 0.0);
}

TEST(AerialCactusGradeTest, ScoresMustBeNumericProbabilities) {
  ExpectInvalid(Grade("id,has_cactus\na.jpg,0.9\nb.jpg,low\nc.jpg,0.8\nd.jpg,0.2\n"),
                "to be numeric");
  ExpectInvalid(Grade("id,has_cactus\na.jpg,1.5\nb.jpg,0.1\nc.jpg,0.8\nd.jpg,0.2\n"),
                "between 0 and 1");
  ExpectInvalid(Grade("id,has_cactus\na.jpg,0.9\nb.jpg,-0.1\nc.jpg,0.8\nd.jpg,0.2\n"),
                "between 0 and 1");
  ExpectInvalid(Grade("id,has_cactus\na.jpg,2\nb.jpg,0\nc.jpg,1\nd.jpg,0\n"), "between 0 and 1");
  // A missing score passes pandas' NaN-skipping min/max but not roc_auc_score.
  ExpectInvalid(Grade("id,has_cactus\na.jpg,0.9\nb.jpg,\nc.jpg,0.8\nd.jpg,0.2\n"), "contains NaN");
  ExpectInvalid(Grade("id,has_cactus\na.jpg,\nb.jpg,\nc.jpg,\nd.jpg,\n"), "contains NaN");
  // Booleans with a hole: object column, to_numeric passes, NaN fails later.
  ExpectInvalid(Grade("id,has_cactus\na.jpg,True\nb.jpg,\nc.jpg,True\nd.jpg,False\n"),
                "contains NaN");
}

TEST(AerialCactusGradeTest, StructuralChecksInUpstreamOrder) {
  // Columns before length.
  ExpectInvalid(Grade("name,has_cactus\na.jpg,0.9\n"), "should have an id column");
  ExpectInvalid(Grade("id,score\na.jpg,0.9\n"), "should have a has_cactus column");
  ExpectInvalid(Grade("id,has_cactus\na.jpg,0.9\nb.jpg,0.1\nc.jpg,0.8\n"), "same number of rows");
  ExpectInvalid(Grade("id,has_cactus\na.jpg,0.9\nb.jpg,0.1\nc.jpg,0.8\nd.jpg,0.2\ne.jpg,0.5\n"),
                "same number of rows");
  ExpectInvalid(Grade(""), "should have an id column");
}

TEST(AerialCactusGradeTest, IdsMustMatch) {
  ExpectInvalid(Grade("id,has_cactus\na.jpg,0.9\nb.jpg,0.1\nc.jpg,0.8\nx.jpg,0.2\n"),
                "same id values");
  ExpectInvalid(Grade("id,has_cactus\na.jpg,0.9\na.jpg,0.1\nc.jpg,0.8\nd.jpg,0.2\n"),
                "same id values");
  ExpectInvalid(Grade("id,has_cactus\na.jpg,0.9\n,0.1\nc.jpg,0.8\nd.jpg,0.2\n"), "same id values");
}

TEST(AerialCactusGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"id,has_cactus\na.jpg,1\nb.jpg,1\n",       // one class
                                   "id,label\na.jpg,1\nb.jpg,0\n",            // no target
                                   "id,has_cactus\na.jpg,1\nb.jpg,yes\n"}) {  // not numeric
    absl::StatusOr<double> result = Grade("id,has_cactus\na.jpg,0.9\nb.jpg,0.1\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
