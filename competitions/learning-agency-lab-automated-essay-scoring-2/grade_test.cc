#include <cmath>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "base/table.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// The private answers.csv keeps every column of Kaggle's train.csv. Sorted by
// essay_id, the scores are 2, 3, 4, 1.
constexpr std::string_view kAnswers =
    "essay_id,full_text,score\n"
    "0c1a2b3,\"Cars are good.\n\nThey go fast, really.\",4\n"
    "000d118,Many people have car,2\n"
    "fe7dd01,I think so,1\n"
    "00a5ee2,\"Furthermore, \"\"evidence\"\" matters.\",3\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(EssayScoringGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(EssayScoringGradeTest, PerfectSubmissionInAnyRowOrder) {
  EXPECT_EQ(*Grade("essay_id,score\nfe7dd01,1\n0c1a2b3,4\n000d118,2\n00a5ee2,3\n"), 1.0);
  EXPECT_EQ(*Grade("score,essay_id\n1.0,fe7dd01\n4.0,0c1a2b3\n2.0,000d118\n3.0,00a5ee2\n"), 1.0);
}

TEST(EssayScoringGradeTest, HandComputedKappa) {
  // In id order: prediction 2, 3, 3, 1 against truth 2, 3, 4, 1. Labels 1..4
  // (positions 0..3). Observed weighted disagreement: one (3 vs 4) pair, 1.
  // Prediction counts (rows) 1, 1, 2, 0; truth counts (columns) 1, 1, 1, 1;
  // sum of w * expected = sum_ij (i - j)^2 * truth_i * pred_j / 4
  //   = (1 * (0 + 1 + 8 + 0) + 1 * (1 + 0 + 2 + 0) + 1 * (4 + 1 + 0 + 0)
  //      + 1 * (9 + 4 + 2 + 0)) / 4 = 32 / 4 = 8.
  EXPECT_DOUBLE_EQ(*Grade("essay_id,score\n000d118,2\n00a5ee2,3\n0c1a2b3,3\nfe7dd01,1\n"),
                   1.0 - 1.0 / 8.0);
  // Upstream's grade.py gives 0.875 for this file too.
  // A constant prediction scores 0; labels outside 1..6 are just labels.
  EXPECT_EQ(*Grade("essay_id,score\n000d118,3\n00a5ee2,3\n0c1a2b3,3\nfe7dd01,3\n"), 0.0);
  EXPECT_NEAR(*Grade("essay_id,score\n000d118,9\n00a5ee2,0\n0c1a2b3,-1\nfe7dd01,7\n"),
              -0.5714285714285714, 1e-15);  // upstream's value
}

TEST(EssayScoringGradeTest, InvalidSubmissions) {
  ExpectInvalid(Grade("essay_id,prediction\n000d118,2\n"), "target column 'score'");
  ExpectInvalid(Grade("id,score\n000d118,2\n"), "id column 'essay_id'");
  ExpectInvalid(Grade(""), "target column 'score'");
  ExpectInvalid(Grade("essay_id,score\n"), "should not be empty");
  ExpectInvalid(Grade("essay_id,score\n000d118,2\n00a5ee2,3\n0c1a2b3,3\n"), "same ids");
  ExpectInvalid(Grade("essay_id,score\n000d118,2\n"), "same ids");
  ExpectInvalid(Grade("essay_id,score\n000d118,2\n00a5ee2,3\n0c1a2b3,3\nfe7dd01,1\nfe7dd02,1\n"),
                "same ids");
  ExpectInvalid(Grade("essay_id,score\n000d118,2\n00a5ee2,3\n0c1a2b3,3\nfe7dd02,1\n"), "same ids");
  ExpectInvalid(Grade("essay_id,score\n000d118,2\n000d118,3\n0c1a2b3,3\nfe7dd01,1\n"), "same ids");
  // Predictions sklearn cannot treat as class labels.
  ExpectInvalid(Grade("essay_id,score\n000d118,2.5\n00a5ee2,3\n0c1a2b3,3\nfe7dd01,1\n"),
                "continuous");
  ExpectInvalid(Grade("essay_id,score\n000d118,\n00a5ee2,3\n0c1a2b3,3\nfe7dd01,1\n"),
                "contains NaN");
  ExpectInvalid(Grade("essay_id,score\n000d118,inf\n00a5ee2,3\n0c1a2b3,3\nfe7dd01,1\n"),
                "infinity");
  ExpectInvalid(Grade("essay_id,score\n000d118,two\n00a5ee2,3\n0c1a2b3,3\nfe7dd01,1\n"),
                "cohen_kappa_score rejects");
}

TEST(EssayScoringGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {std::string_view("essay_id,label\na,1\n"),
                                   std::string_view("id,score\na,1\n"),
                                   std::string_view("essay_id,score\n")}) {
    absl::StatusOr<double> result = Grade("essay_id,score\na,1\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
