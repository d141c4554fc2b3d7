#include <cmath>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// Upstream's answers are the held-out rows of train.csv, every column kept.
constexpr std::string_view kAnswers =
    "textID,text,selected_text,sentiment\n"
    "cb774db0d1,\" I`d have responded, if I were going\",\"I`d have responded, if I were going\","
    "neutral\n"
    "549e992a42,Sooo SAD I will miss you here,Sooo SAD,negative\n"
    "088c60f138,my boss is bullying me...,bullying me,negative\n"
    "358bd9e861,\"what interview! leave me alone\",\"leave me alone\",negative\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(TweetSentimentExtractionGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(TweetSentimentExtractionGradeTest, PerfectSubmissionScoresOne) {
  EXPECT_EQ(*Grade("textID,selected_text\n"
                   "358bd9e861,leave me alone\n"
                   "cb774db0d1,\"I`d have responded, if I were going\"\n"
                   "088c60f138,BULLYING   me\n"
                   "549e992a42,sooo sad\n"),
            1.0);
}

TEST(TweetSentimentExtractionGradeTest, HandComputedScore) {
  // Sorted by textID: 088c.. {bullying, me} vs {me}: 1/2; 358b.. {leave, me,
  // alone} vs {alone!}: 0; 549e.. {sooo, sad} vs {sad, i}: 1/3;
  // cb77..: the whole tweet {i`d, have, responded,, if, i, were, going}
  // (7 words) vs the same 7: 1.
  const double expected = (((0.5 + 0.0) + 1.0 / 3.0) + 1.0) / 4.0;
  EXPECT_EQ(*Grade("textID,selected_text,extra\n"
                   "549e992a42,SAD I,x\n"
                   "088c60f138,me,x\n"
                   "358bd9e861,alone!,x\n"
                   "cb774db0d1,\" I`d have responded, if I were going\",x\n"),
            expected);
}

TEST(TweetSentimentExtractionGradeTest, EmptyAndNonTextPredictions) {
  // The sample submission: every prediction empty (read as NaN, filled with
  // ""): 0 for each row.
  EXPECT_EQ(*Grade("textID,selected_text\ncb774db0d1,\n549e992a42,\n088c60f138,\n358bd9e861,\n"),
            0.0);
  // Numbers become their Python str(): the float column spells 1 and 2 as
  // "1.0" and "2.0"; the answers' text column keeps "1.0" and "2".
  EXPECT_EQ(*Grade("textID,selected_text\ncb774db0d1,1\n549e992a42,\n088c60f138,2\n358bd9e861,\n",
                   "textID,selected_text\ncb774db0d1,1.0\n549e992a42,a\n088c60f138,2\n"
                   "358bd9e861,b\n"),
            0.25);
}

TEST(TweetSentimentExtractionGradeTest, EmptyPredictionForEmptyAnswerIsDivisionByZero) {
  constexpr std::string_view answers = "textID,selected_text\na,\nb,fine\n";
  ExpectInvalid(Grade("textID,selected_text\na,\nb,fine\n", answers), "division by zero");
  ExpectInvalid(Grade("textID,selected_text\na,\" \"\nb,fine\n", answers), "division by zero");
  EXPECT_EQ(*Grade("textID,selected_text\na,x\nb,fine\n", answers), 0.5);
}

TEST(TweetSentimentExtractionGradeTest, ColumnsRowsAndIds) {
  ExpectInvalid(Grade("id,selected_text\ncb774db0d1,a\n549e992a42,a\n088c60f138,a\n358bd9e861,a\n"),
                "must have a 'textID' column");
  ExpectInvalid(Grade("textID,text\ncb774db0d1,a\n549e992a42,a\n088c60f138,a\n358bd9e861,a\n"),
                "must have a 'selected_text' column");
  ExpectInvalid(Grade("textID,selected_text\ncb774db0d1,a\n549e992a42,a\n088c60f138,a\n"),
                "same number of rows");
  ExpectInvalid(Grade("textID,selected_text\ncb774db0d1,a\n549e992a42,a\n088c60f138,a\n"
                      "358bd9e861,a\n358bd9e861,a\n"),
                "same number of rows");
  ExpectInvalid(Grade("textID,selected_text\ncb774db0d1,a\n549e992a42,a\n088c60f138,a\n"
                      "358bd9e862,a\n"),
                "same textID values");
  ExpectInvalid(Grade("textID,selected_text\ncb774db0d1,a\n549e992a42,a\n088c60f138,a\n"
                      "088c60f138,a\n"),
                "same textID values");
  ExpectInvalid(Grade("textID,selected_text\ncb774db0d1,a\n549e992a42,a\n088c60f138,a\n,a\n"),
                "same textID values");
  // Numeric and text ids cannot be sorted together.
  ExpectInvalid(Grade("textID,selected_text\ncb774db0d1,a\n549e992a42,a\n088c60f138,a\n"
                      "358bd9e861,a\n",
                      "textID,selected_text\n1,a\n2,a\n3,a\n4,a\n"),
                "same textID values");
}

TEST(TweetSentimentExtractionGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"textID,text\na,x\n", "id,selected_text\na,x\n"}) {
    absl::StatusOr<double> result = Grade("textID,selected_text\na,x\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers << ": " << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
