#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// Six test rows; b2 and e5 were not scored by Kaggle (all labels -1). Over
// the four scored rows every label has both classes.
constexpr std::string_view kAnswers =
    "id,toxic,severe_toxic,obscene,threat,insult,identity_hate\n"
    "a1,1,0,1,0,1,0\n"
    "b2,-1,-1,-1,-1,-1,-1\n"
    "c3,0,1,0,1,0,1\n"
    "d4,1,1,0,0,1,1\n"
    "e5,-1,-1,-1,-1,-1,-1\n"
    "f6,0,0,1,1,0,0\n";

constexpr char kHeader[] = "id,toxic,severe_toxic,obscene,threat,insult,identity_hate\n";
constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

std::string WithHeader(std::string_view rows) { return kHeader + std::string(rows); }

// The labels themselves as scores, with `b2` and `e5` given `unscored`.
std::string Perfect(std::string_view unscored = "0.5,0.5,0.5,0.5,0.5,0.5") {
  return WithHeader(absl::StrCat("f6,0,0,1,1,0,0\n", "b2,", std::string(unscored), "\n",
                                 "a1,1,0,1,0,1,0\n"
                                 "d4,1,1,0,0,1,1\n",
                                 "e5,", std::string(unscored), "\n", "c3,0,1,0,1,0,1\n"));
}

using testing::ExpectInvalid;

TEST(JigsawGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(JigsawGradeTest, PerfectSubmissionInAnyRowOrder) {
  EXPECT_EQ(*Grade(Perfect()), 1.0);
  // The sample submission's constant 0.5 ties everything: 0.5 per label.
  EXPECT_EQ(
      *Grade(WithHeader("a1,.5,.5,.5,.5,.5,.5\nb2,.5,.5,.5,.5,.5,.5\nc3,.5,.5,.5,.5,.5,.5\n"
                        "d4,.5,.5,.5,.5,.5,.5\ne5,.5,.5,.5,.5,.5,.5\nf6,.5,.5,.5,.5,.5,.5\n")),
      0.5);
}

TEST(JigsawGradeTest, HandComputedMeanOverLabels) {
  // toxic: positives a1 = 0.9, d4 = 0.7; negatives c3 = 0.8, f6 = 0.1; three
  // of four pairs ordered, 0.75. The other five labels are perfect.
  const std::string submission = WithHeader(
      "a1,0.9,0,1,0,1,0\nb2,0,0,0,0,0,0\nc3,0.8,1,0,1,0,1\n"
      "d4,0.7,1,0,0,1,1\ne5,0,0,0,0,0,0\nf6,0.1,0,1,1,0,0\n");
  EXPECT_EQ(*Grade(submission), (0.75 + 5.0) / 6.0);
  // Scores are only ranked: any finite numbers, booleans too.
  EXPECT_EQ(*Grade(Perfect("7,-3,1e9,0,-1,2")), 1.0);
  EXPECT_EQ(*Grade(WithHeader("a1,True,False,True,False,True,False\n"
                              "b2,False,False,False,False,False,False\n"
                              "c3,False,True,False,True,False,True\n"
                              "d4,True,True,False,False,True,True\n"
                              "e5,True,True,True,True,True,True\n"
                              "f6,False,False,True,True,False,False\n")),
            1.0);
}

TEST(JigsawGradeTest, ColumnsArePairedByPositionNotName) {
  // Upstream scores `submission.to_numpy()` against `answers.to_numpy()`:
  // a submission listing severe_toxic before toxic has each scored against
  // the other's labels (0.5 each here), wherever the id column is.
  const std::string swapped =
      "id,severe_toxic,toxic,obscene,threat,insult,identity_hate\n"
      "a1,0,1,1,0,1,0\nb2,0,0,0,0,0,0\nc3,1,0,0,1,0,1\n"
      "d4,1,1,0,0,1,1\ne5,0,0,0,0,0,0\nf6,0,0,1,1,0,0\n";
  EXPECT_EQ(*Grade(swapped), 5.0 / 6.0);
  EXPECT_EQ(*Grade("toxic,severe_toxic,obscene,id,threat,insult,identity_hate\n"
                   "1,0,1,a1,0,1,0\n0,0,0,b2,0,0,0\n0,1,0,c3,1,0,1\n"
                   "1,1,0,d4,0,1,1\n0,0,0,e5,0,0,0\n0,0,1,f6,1,0,0\n"),
            1.0);
}

TEST(JigsawGradeTest, UnscoredRowsAreNeverLookedAt) {
  // NaN, text and infinities on rows Kaggle did not score are dropped with
  // those rows before sklearn sees the scores.
  EXPECT_EQ(*Grade(Perfect(",,,,,")), 1.0);
  EXPECT_EQ(*Grade(Perfect("unknown,x,y,z,inf,-inf")), 1.0);
}

TEST(JigsawGradeTest, TextConvertsAsPythonFloat) {
  // A column holding text is an object column; numpy converts each scored
  // cell with float(), which takes "1_0" and spaces.
  EXPECT_EQ(*Grade(WithHeader("a1,1_0,0,1,0,1,0\nb2,unknown,0,0,0,0,0\nc3, 0 ,1,0,1,0,1\n"
                              "d4,5,1,0,0,1,1\ne5,0,0,0,0,0,0\nf6,-1,0,1,1,0,0\n")),
            1.0);
  ExpectInvalid(Grade(WithHeader("a1,high,0,1,0,1,0\nb2,0,0,0,0,0,0\nc3,0,1,0,1,0,1\n"
                                 "d4,1,1,0,0,1,1\ne5,0,0,0,0,0,0\nf6,0,0,1,1,0,0\n")),
                "could not convert string to float: 'high' (column 'toxic')");
}

TEST(JigsawGradeTest, NonFiniteScoredValuesAreInvalid) {
  ExpectInvalid(Grade(WithHeader("a1,,0,1,0,1,0\nb2,0,0,0,0,0,0\nc3,0,1,0,1,0,1\n"
                                 "d4,1,1,0,0,1,1\ne5,0,0,0,0,0,0\nf6,0,0,1,1,0,0\n")),
                "contains NaN");
  ExpectInvalid(Grade(WithHeader("a1,1,0,1,0,1,inf\nb2,0,0,0,0,0,0\nc3,0,1,0,1,0,1\n"
                                 "d4,1,1,0,0,1,1\ne5,0,0,0,0,0,0\nf6,0,0,1,1,0,0\n")),
                "contains infinity");
}

TEST(JigsawGradeTest, ColumnChecks) {
  ExpectInvalid(Grade("ID,toxic,severe_toxic,obscene,threat,insult,identity_hate\n"
                      "a1,1,0,1,0,1,0\n"),
                "missing the column: id");
  ExpectInvalid(Grade("id,toxic,severe_toxic,obscene,insult\na1,1,0,1,0\n"),
                "missing the following columns: {'threat', 'identity_hate'}");
  ExpectInvalid(Grade(""), "missing the column: id");
  // Extra columns pass the name checks but not sklearn's loop over y_score's
  // columns (numbers) or its float conversion (text).
  ExpectInvalid(Grade("id,toxic,severe_toxic,obscene,threat,insult,identity_hate,extra\n"
                      "a1,1,0,1,0,1,0,1\nb2,0,0,0,0,0,0,1\nc3,0,1,0,1,0,1,1\n"
                      "d4,1,1,0,0,1,1,1\ne5,0,0,0,0,0,0,1\nf6,0,0,1,1,0,0,1\n"),
                "index 6 is out of bounds for axis 1 with size 6");
  ExpectInvalid(Grade("id,toxic,severe_toxic,obscene,threat,insult,identity_hate,note\n"
                      "a1,1,0,1,0,1,0,ok\nb2,0,0,0,0,0,0,ok\nc3,0,1,0,1,0,1,ok\n"
                      "d4,1,1,0,0,1,1,ok\ne5,0,0,0,0,0,0,ok\nf6,0,0,1,1,0,0,ok\n"),
                "could not convert string to float: 'ok'");
  // A repeated column name is read as "toxic.1": an extra column.
  ExpectInvalid(Grade("id,toxic,severe_toxic,obscene,threat,insult,identity_hate,toxic\n"
                      "a1,1,0,1,0,1,0,1\nb2,0,0,0,0,0,0,0\nc3,0,1,0,1,0,1,0\n"
                      "d4,1,1,0,0,1,1,1\ne5,0,0,0,0,0,0,0\nf6,0,0,1,1,0,0,0\n"),
                "out of bounds");
}

TEST(JigsawGradeTest, RowCountMustMatch) {
  ExpectInvalid(Grade(WithHeader("a1,1,0,1,0,1,0\nc3,0,1,0,1,0,1\nd4,1,1,0,0,1,1\n"
                                 "f6,0,0,1,1,0,0\n")),
                "different lengths");
  ExpectInvalid(Grade(Perfect() + "g7,0,0,0,0,0,0\n"), "different lengths");
  ExpectInvalid(Grade(kHeader), "different lengths");
}

TEST(JigsawGradeTest, IdsMustBeTestIds) {
  ExpectInvalid(Grade(WithHeader("a1,1,0,1,0,1,0\nb2,0,0,0,0,0,0\nc3,0,1,0,1,0,1\n"
                                 "d4,1,1,0,0,1,1\nzz,0,0,0,0,0,0\nf6,0,0,1,1,0,0\n")),
                "Unalignable boolean Series");
  ExpectInvalid(Grade(WithHeader("a1,1,0,1,0,1,0\nb2,0,0,0,0,0,0\nc3,0,1,0,1,0,1\n"
                                 "d4,1,1,0,0,1,1\n,0,0,0,0,0,0\nf6,0,0,1,1,0,0\n")),
                "Unalignable boolean Series");
  ExpectInvalid(Grade(WithHeader("1,1,0,1,0,1,0\n2,0,0,0,0,0,0\n3,0,1,0,1,0,1\n"
                                 "4,1,1,0,0,1,1\n5,0,0,0,0,0,0\n6,0,0,1,1,0,0\n")),
                "Unalignable boolean Series");
}

TEST(JigsawGradeTest, RepeatedIdsAsPandasAlignsThem) {
  // a1 twice, b2 absent: five scored rows against four answers.
  ExpectInvalid(Grade(WithHeader("a1,1,0,1,0,1,0\na1,0,0,0,0,0,0\nc3,0,1,0,1,0,1\n"
                                 "d4,1,1,0,0,1,1\ne5,0,0,0,0,0,0\nf6,0,0,1,1,0,0\n")),
                "inconsistent numbers of samples: [4, 5]");
  // e5 twice, b2 absent: both unscored, so the four scored rows line up and
  // upstream scores the submission.
  EXPECT_EQ(*Grade(WithHeader("a1,1,0,1,0,1,0\ne5,0,0,0,0,0,0\nc3,0,1,0,1,0,1\n"
                              "d4,1,1,0,0,1,1\ne5,0,0,0,0,0,0\nf6,0,0,1,1,0,0\n")),
            1.0);
}

TEST(JigsawGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  const std::string submission = Perfect();
  for (std::string_view answers : {
           // no threat column
           "id,toxic,severe_toxic,obscene,insult,identity_hate\na1,1,0,1,1,0\nc3,0,1,0,0,1\n",
           // a label column without positives among the scored rows
           "id,toxic,severe_toxic,obscene,threat,insult,identity_hate\n"
           "a1,1,0,1,0,1,0\nb2,-1,-1,-1,-1,-1,-1\nc3,0,1,0,0,0,1\n"
           "d4,1,1,0,0,1,1\ne5,-1,-1,-1,-1,-1,-1\nf6,0,0,1,0,0,0\n",
           // every row unscored
           "id,toxic,severe_toxic,obscene,threat,insult,identity_hate\n"
           "a1,-1,-1,-1,-1,-1,-1\nb2,-1,-1,-1,-1,-1,-1\n",
           // a repeated id
           "id,toxic,severe_toxic,obscene,threat,insult,identity_hate\n"
           "a1,1,0,1,0,1,0\na1,0,1,0,1,0,1\n",
           // an extra column
           "id,toxic,severe_toxic,obscene,threat,insult,identity_hate,x\n"
           "a1,1,0,1,0,1,0,0\nc3,0,1,0,1,0,1,0\n",
           // text among the labels
           "id,toxic,severe_toxic,obscene,threat,insult,identity_hate\n"
           "a1,1,0,1,0,1,yes\nc3,0,1,0,1,0,0\n",
       }) {
    absl::StatusOr<double> result = Grade(submission, answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
