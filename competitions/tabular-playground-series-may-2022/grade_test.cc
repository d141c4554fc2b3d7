#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// The answers are upstream's private test.csv: every column, ids renumbered
// after the train rows. Positives 801 and 803, negatives 800 and 802.
constexpr std::string_view kAnswers =
    "id,f_00,f_27,f_30,target\n"
    "802,-0.25,ABAEBCAGCA,2,0\n"
    "800,1.18,BBBCBDDACB,0,0\n"
    "803,0.07,ACAHAAAICC,1,1\n"
    "801,-1.47,BCBFAFACBB,2,1\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

const CompetitionGrader& Grader() { return testing::RegisteredGrader(kId); }

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(TabularPlaygroundMay2022GradeTest, Registered) {
  EXPECT_EQ(Grader().id, MLEBENCH_COMPETITION_ID);
  EXPECT_NE(Grader().grade_typed, nullptr);
}

TEST(TabularPlaygroundMay2022GradeTest, PerfectRankingInAnyRowOrder) {
  EXPECT_EQ(*Grade("id,target\n800,0.1\n801,0.9\n802,0.2\n803,0.8\n"), 1.0);
  EXPECT_EQ(*Grade("id,target\n803,0.52\n802,0.5\n801,0.51\n800,0\n"), 1.0);
  // The gold submission: the labels themselves.
  EXPECT_EQ(*Grade("id,target\n800,0\n801,1\n802,0\n803,1\n"), 1.0);
}

TEST(TabularPlaygroundMay2022GradeTest, HandComputedAreas) {
  // The sample submission's constant 0.5 ties every pair: 0.5.
  EXPECT_EQ(*Grade("id,target\n800,0.5\n801,0.5\n802,0.5\n803,0.5\n"), 0.5);
  // Positives 801=0.4, 803=0.6; negatives 800=0.5, 802=0.1: 3 of 4 pairs.
  EXPECT_EQ(*Grade("id,target\n800,0.5\n801,0.4\n802,0.1\n803,0.6\n"), 0.75);
  // A tie between 801 and 800 counts half: (0.5 + 1 + 1 + 1) / 4.
  EXPECT_EQ(*Grade("id,target\n800,0.5\n801,0.5\n802,0.1\n803,0.6\n"), 0.875);
  // Reversed ranking; booleans are 0/1; extra columns are ignored.
  EXPECT_EQ(*Grade("id,target,note\n800,1,a\n801,0,b\n802,1,c\n803,0,d\n"), 0.0);
  EXPECT_EQ(*Grade("target,id\nFalse,800\nTrue,801\nFalse,802\nTrue,803\n"), 1.0);
  // Ids written as floats equal the answers' integers.
  EXPECT_EQ(*Grade("id,target\n800.0,0.2\n801.0,0.4\n802.0,0.3\n803.0,0.25\n"), 0.75);
}

TEST(TabularPlaygroundMay2022GradeTest, ScoresMustBeNumericProbabilities) {
  ExpectInvalid(Grade("id,target\n800,0.1\n801,high\n802,0.2\n803,0.8\n"), "to be numeric");
  ExpectInvalid(Grade("id,target\n800,0.1\n801,1.0001\n802,0.2\n803,0.8\n"), "between 0 and 1");
  ExpectInvalid(Grade("id,target\n800,-0.1\n801,0.9\n802,0.2\n803,0.8\n"), "between 0 and 1");
  ExpectInvalid(Grade("id,target\n800,0\n801,1\n802,0\n803,2\n"), "between 0 and 1");
  ExpectInvalid(Grade("id,target\n800,0.1\n801,inf\n802,0.2\n803,0.8\n"), "between 0 and 1");
  // A missing score passes pandas' NaN-skipping min/max but not roc_auc_score.
  ExpectInvalid(Grade("id,target\n800,0.1\n801,\n802,0.2\n803,0.8\n"), "contains NaN");
  ExpectInvalid(Grade("id,target\n800,\n801,\n802,\n803,\n"), "contains NaN");
}

TEST(TabularPlaygroundMay2022GradeTest, StructuralChecksInUpstreamOrder) {
  // Columns before length.
  ExpectInvalid(Grade("row,target\n800,0.1\n"), "should have an id column");
  ExpectInvalid(Grade("id,prediction\n800,0.1\n"), "should have a target column");
  ExpectInvalid(Grade("id,target\n800,0.1\n801,0.9\n802,0.2\n"), "same number of rows");
  ExpectInvalid(Grade("id,target\n800,0.1\n801,0.9\n802,0.2\n803,0.8\n804,0.5\n"),
                "same number of rows");
  ExpectInvalid(Grade("id,target\n"), "same number of rows");
  ExpectInvalid(Grade(""), "should have an id column");
}

TEST(TabularPlaygroundMay2022GradeTest, IdsMustMatch) {
  // Upstream's raw ids (900000..) instead of the renumbered ones.
  ExpectInvalid(Grade("id,target\n900000,0.1\n900001,0.9\n900002,0.2\n900003,0.8\n"),
                "same id values");
  ExpectInvalid(Grade("id,target\n800,0.1\n801,0.9\n801,0.2\n803,0.8\n"), "same id values");
  ExpectInvalid(Grade("id,target\n800,0.1\n801,0.9\n,0.2\n803,0.8\n"), "same id values");
  ExpectInvalid(Grade("id,target\na,0.1\nb,0.9\nc,0.2\nd,0.8\n"), "same id values");
}

TEST(TabularPlaygroundMay2022GradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"id,target\n1,1\n2,1\n",       // one class
                                   "id,label\n1,1\n2,0\n",        // no target
                                   "key,target\n1,1\n2,0\n",      // no id
                                   "id,target\n1,1\n2,yes\n"}) {  // not numeric
    absl::StatusOr<double> result = Grade("id,target\n1,0.9\n2,0.1\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
