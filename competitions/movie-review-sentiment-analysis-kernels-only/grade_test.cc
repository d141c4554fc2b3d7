#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// Answers as upstream's prepare writes them: the whole held-out rows,
// phrases quoted where they hold commas.
constexpr std::string_view kAnswers =
    "PhraseId,SentenceId,Phrase,Sentiment\n"
    "1,1,\"A series , of escapades\",1\n"
    "2,1,A series,2\n"
    "3,1,A,2\n"
    "4,2,dull,0\n"
    "5,2,\"brilliant , funny\",4\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

// Every outcome below was also checked with upstream's own grade.py (pandas
// and scikit-learn from Debian): same scores, and a raise exactly where we
// say the submission is invalid.

TEST(MovieReviewGradeTest, Registered) {
  const CompetitionGrader& grader = testing::RegisteredGrader(kId);
  EXPECT_EQ(grader.id, MLEBENCH_COMPETITION_ID);
  EXPECT_NE(grader.grade_typed, nullptr);
}

TEST(MovieReviewGradeTest, PerfectSubmissionInAnyRowOrder) {
  EXPECT_EQ(*Grade("PhraseId,Sentiment\n5,4\n3,2\n1,1\n4,0\n2,2\n"), 1.0);
}

TEST(MovieReviewGradeTest, WrongPredictions) {
  // Two of five wrong.
  EXPECT_EQ(*Grade("PhraseId,Sentiment\n1,1\n2,2\n3,3\n4,1\n5,4\n"), 0.6);
  // The sample submission (all neutral) gets the neutral share.
  EXPECT_EQ(*Grade("PhraseId,Sentiment\n1,2\n2,2\n3,2\n4,2\n5,2\n"), 0.4);
  // Extra columns are ignored; column order does not matter.
  EXPECT_EQ(*Grade("Phrase,Sentiment,PhraseId\nx,1,1\ny,2,2\nz,2,3\nw,0,4\nv,0,5\n"), 0.8);
  // Classes outside 0-4 are not checked, just wrong.
  EXPECT_EQ(*Grade("PhraseId,Sentiment\n1,5\n2,-1\n3,2\n4,0\n5,4\n"), 0.6);
}

TEST(MovieReviewGradeTest, LabelsCompareByValue) {
  // Integral floats equal the integer classes; so do ids written as floats.
  EXPECT_EQ(*Grade("PhraseId,Sentiment\n1,1.0\n2,2.0\n3,2.0\n4,0.0\n5,4.0\n"), 1.0);
  EXPECT_EQ(*Grade("PhraseId,Sentiment\n1.0,1\n2.0,2\n3.0,2\n4.0,0\n5.0,4\n"), 1.0);
  // Booleans are 0/1: True matches 1 (row 1), False matches 0 (row 4).
  EXPECT_EQ(*Grade("PhraseId,Sentiment\n1,True\n2,False\n3,False\n4,False\n5,True\n"), 0.4);
  // Text labels never equal numbers; against multiclass answers sklearn
  // does not object, it scores 0.
  EXPECT_EQ(*Grade("PhraseId,Sentiment\n1,neg\n2,pos\n3,pos\n4,neg\n5,pos\n"), 0.0);
  EXPECT_EQ(*Grade("PhraseId,Sentiment\n1,neg\n2,neutral\n3,pos\n4,neg\n5,pos\n"), 0.0);
}

TEST(MovieReviewGradeTest, NonClassPredictionsAreInvalid) {
  ExpectInvalid(Grade("PhraseId,Sentiment\n1,1.5\n2,2\n3,2\n4,0\n5,4\n"),
                "mix of multiclass and continuous");
  ExpectInvalid(Grade("PhraseId,Sentiment\n1,\n2,2\n3,2\n4,0\n5,4\n"), "contains NaN");
  ExpectInvalid(Grade("PhraseId,Sentiment\n1,inf\n2,2\n3,2\n4,0\n5,4\n"), "infinity");
  // Booleans with a hole are an object column sklearn calls "unknown".
  ExpectInvalid(Grade("PhraseId,Sentiment\n1,True\n2,\n3,False\n4,False\n5,True\n"),
                "mix of multiclass and unknown");
}

TEST(MovieReviewGradeTest, StructuralChecksInUpstreamOrder) {
  ExpectInvalid(Grade("PhraseId,Sentiment\n1,1\n2,2\n3,2\n4,0\n"), "same length");
  ExpectInvalid(Grade("PhraseId,Sentiment\n1,1\n2,2\n3,2\n4,0\n5,4\n6,2\n"), "same length");
  ExpectInvalid(Grade(""), "same length");
  ExpectInvalid(Grade("PhraseId,Sentiment\n"), "same length");
  ExpectInvalid(Grade("PhraseId,Label\n1,1\n2,2\n3,2\n4,0\n5,4\n"),
                "must have a `Sentiment` column");
  ExpectInvalid(Grade("Id,Sentiment\n1,1\n2,2\n3,2\n4,0\n5,4\n"), "must have a `PhraseId` column");
}

TEST(MovieReviewGradeTest, IdsMustMatch) {
  for (std::string_view submission : {
           "PhraseId,Sentiment\n1,1\n1,2\n3,2\n4,0\n5,4\n",  // duplicate
           "PhraseId,Sentiment\n1,1\n2,2\n3,2\n4,0\n6,4\n",  // unknown
           "PhraseId,Sentiment\n1,1\n,2\n3,2\n4,0\n5,4\n",   // missing
           "PhraseId,Sentiment\na,1\nb,2\nc,2\nd,0\ne,4\n",  // text
       }) {
    ExpectInvalid(Grade(submission), "`PhraseId`'s do not match");
  }
}

TEST(MovieReviewGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"PhraseId,Label\n1,1\n",           // no target
                                   "Id,Sentiment\n1,1\n",             // no id
                                   "PhraseId,Sentiment\n1,0.5\n"}) {  // not classes
    absl::StatusOr<double> result = Grade("PhraseId,Sentiment\n1,1\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers << ": " << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
