#include <cmath>
#include <limits>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr std::string_view kAnswers =
    "id,label\n"
    "1,1\n"
    "2,0\n"
    "3,1\n"
    "4,0\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

// The loss of a row whose true label gets probability 1 (clipped to 1 - eps).
const double kFloor = -std::log(1.0 - std::numeric_limits<double>::epsilon());

TEST(DogsVsCatsGradeTest, RegisteredWithUpstreamsMetric) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(DogsVsCatsGradeTest, PerfectSubmissionInAnyRowOrder) {
  absl::StatusOr<double> score = Grade("id,label\n4,0\n3,1\n1,1\n2,0\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_DOUBLE_EQ(*score, kFloor);
  // Extra columns are ignored; booleans are 0/1.
  score = Grade("label,id,x\nTrue,1,a\nFalse,2,b\nTrue,3,c\nFalse,4,d\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_DOUBLE_EQ(*score, kFloor);
}

TEST(DogsVsCatsGradeTest, HandComputedLoss) {
  // The sample submission's 0.5 everywhere: log 2.
  EXPECT_NEAR(*Grade("id,label\n1,0.5\n2,0.5\n3,0.5\n4,0.5\n"), std::log(2.0), 1e-15);
  // Dogs 1 and 3 get 0.8 and 0.25, cats 2 and 4 get 0.2 and 0 (clipped).
  EXPECT_NEAR(*Grade("id,label\n1,0.8\n2,0.2\n3,0.25\n4,0\n"),
              (-std::log(0.8) - std::log(0.8) - std::log(0.25) + kFloor) / 4, 1e-15);
  // A confident mistake: probability 0 for a dog is clipped to 2**-52.
  EXPECT_NEAR(*Grade("id,label\n1,0\n2,0\n3,1\n4,0\n"), (52 * std::log(2.0) + 3 * kFloor) / 4,
              1e-12);
}

// Outcomes in this file were also checked against upstream's own grade.py
// (pandas 1.5, scikit-learn 1.2, where no clipping is involved), e.g. this
// case, which it scores 0.48449 after round(x, 5).
TEST(DogsVsCatsGradeTest, MatchesUpstreamsGradePy) {
  absl::StatusOr<double> score = Grade("id,label\n1,0.8\n2,0.2\n3,0.25\n4,0.1\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_NEAR(*score, 0.48449, 5e-6);
}

TEST(DogsVsCatsGradeTest, ColumnsAndIdsInUpstreamOrder) {
  ExpectInvalid(Grade("name,label\n1,0.5\n"), "missing `id` column");
  ExpectInvalid(Grade("id,prob\n1,0.5\n"), "missing `label` column");
  ExpectInvalid(Grade(""), "missing `id` column");
  // Ids are compared as sets before lengths.
  ExpectInvalid(Grade("id,label\n1,0.5\n2,0.5\n3,0.5\n"), "different id's");
  ExpectInvalid(Grade("id,label\n1,0.5\n2,0.5\n3,0.5\n5,0.5\n"), "different id's");
  ExpectInvalid(Grade("id,label\n1,0.5\n2,0.5\n3,0.5\n,0.5\n"), "different id's");
  ExpectInvalid(Grade("id,label\n1,0.5\n2,0.5\n3,0.5\nfour,0.5\n"), "different id's");
  // Same set, one id repeated: lengths differ.
  ExpectInvalid(Grade("id,label\n1,0.5\n2,0.5\n3,0.5\n4,0.5\n4,0.5\n"), "different lengths");
  // Float ids equal to the integers are the same set members.
  EXPECT_TRUE(Grade("id,label\n1.0,0.5\n2,0.5\n3,0.5\n4,0.5\n").ok());
}

TEST(DogsVsCatsGradeTest, LabelsMustBeProbabilities) {
  ExpectInvalid(Grade("id,label\n1,1.5\n2,0.5\n3,0.5\n4,0.5\n"), "between 0 and 1");
  ExpectInvalid(Grade("id,label\n1,-0.01\n2,0.5\n3,0.5\n4,0.5\n"), "between 0 and 1");
  ExpectInvalid(Grade("id,label\n1,\n2,0.5\n3,0.5\n4,0.5\n"), "between 0 and 1");
  ExpectInvalid(Grade("id,label\n1,dog\n2,0.5\n3,0.5\n4,0.5\n"), "between 0 and 1");
  ExpectInvalid(Grade("id,label\n1,inf\n2,0.5\n3,0.5\n4,0.5\n"), "between 0 and 1");
  ExpectInvalid(Grade("id,label\n1,2\n2,0\n3,1\n4,0\n"), "between 0 and 1");
}

TEST(DogsVsCatsGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"id,target\n1,1\n2,0\n", "label\n1\n0\n", "id,label\n1,1\n2,1\n",
                                   "id,label\n1,1\n2,dog\n", "id,label\n1,1\n2,2\n"}) {
    absl::StatusOr<double> result = Grade("id,label\n1,0.9\n2,0.1\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
