#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// As Kaggle writes them: each comment is wrapped in literal quotes (doubled
// inside the quoted CSV field) and keeps escapes such as \n and \xa0 as
// text; the date is sometimes blank. Insults: a and c.
constexpr std::string_view kAnswers =
    "Insult,Date,Comment,Usage\n"
    "1,20120618192155Z,\"\"\"You are an idiot, plain and simple.\"\"\",PrivateTest\n"
    "0,20120528192215Z,\"\"\"I agree with the point about taxes.\"\"\",PublicTest\n"
    "1,,\"\"\"Go away, troll.\\\\nNobody asked.\"\"\",PrivateTest\n"
    "0,20120620171226Z,\"\"\"Thanks for the link\\xa0 really useful\"\"\",PrivateTest\n";

// The comments in that order, as CSV fields.
constexpr std::string_view kA = "\"\"\"You are an idiot, plain and simple.\"\"\"";
constexpr std::string_view kB = "\"\"\"I agree with the point about taxes.\"\"\"";
constexpr std::string_view kC = "\"\"\"Go away, troll.\\\\nNobody asked.\"\"\"";
constexpr std::string_view kD = "\"\"\"Thanks for the link\\xa0 really useful\"\"\"";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

// A submission in the sample's column order (Insult, Date, Comment) with
// scores for a, b, c, d (each a CSV field, possibly empty).
std::string Submission(std::string_view a, std::string_view b, std::string_view c,
                       std::string_view d) {
  std::string csv = "Insult,Date,Comment\n";
  for (const auto& [score, comment] : {std::pair{a, kA}, {b, kB}, {c, kC}, {d, kD}}) {
    csv += std::string(score) + ",," + std::string(comment) + "\n";
  }
  return csv;
}

using testing::ExpectInvalid;

TEST(DetectingInsultsGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(DetectingInsultsGradeTest, PerfectRankingInAnyRowOrderAndColumnOrder) {
  EXPECT_EQ(*Grade(Submission("0.9", "0.1", "0.8", "0.2")), 1.0);
  // Rows shuffled, columns reordered, the answers file itself as a submission.
  EXPECT_EQ(*Grade("Comment,Insult\n" + std::string(kD) + ",0.3\n" + std::string(kC) + ",0.7\n" +
                   std::string(kB) + ",0\n" + std::string(kA) + ",1\n"),
            1.0);
  EXPECT_EQ(*Grade(kAnswers), 1.0);
}

TEST(DetectingInsultsGradeTest, HandComputedAreas) {
  // Positives a=0.4, c=0.6; negatives b=0.5, d=0.1: 3 of 4 pairs ordered.
  EXPECT_EQ(*Grade(Submission("0.4", "0.5", "0.6", "0.1")), 0.75);
  // A tie between a and b counts half: (0.5 + 1 + 1 + 1) / 4.
  EXPECT_EQ(*Grade(Submission("0.5", "0.5", "0.6", "0.1")), 0.875);
  // The sample submission: every score 0.
  EXPECT_EQ(*Grade(Submission("0", "0", "0", "0")), 0.5);
  EXPECT_EQ(*Grade(Submission("0", "1", "0", "1")), 0.0);
  EXPECT_EQ(*Grade(Submission("True", "False", "True", "False")), 1.0);
}

TEST(DetectingInsultsGradeTest, ScoresMustBeNumericProbabilities) {
  ExpectInvalid(Grade(Submission("0.9", "low", "0.8", "0.2")), "to be numeric");
  ExpectInvalid(Grade(Submission("1.5", "0.1", "0.8", "0.2")), "between 0 and 1");
  ExpectInvalid(Grade(Submission("0.9", "-0.1", "0.8", "0.2")), "between 0 and 1");
  ExpectInvalid(Grade(Submission("2", "0", "1", "0")), "between 0 and 1");
  ExpectInvalid(Grade(Submission("inf", "0", "1", "0")), "between 0 and 1");
  // Numbers in quotes are still numbers to pandas.
  EXPECT_EQ(*Grade(Submission("\"0.9\"", "0.1", "0.8", "0.2")), 1.0);
  // A missing score passes pandas' NaN-skipping min/max but not roc_auc_score.
  ExpectInvalid(Grade(Submission("0.9", "", "0.8", "0.2")), "contains NaN");
  ExpectInvalid(Grade(Submission("", "", "", "")), "contains NaN");
}

TEST(DetectingInsultsGradeTest, StructuralChecksInUpstreamOrder) {
  // Columns before length.
  ExpectInvalid(Grade("Insult,Date,Text\n0.5,," + std::string(kA) + "\n"),
                "should have an Comment column");
  ExpectInvalid(Grade("Prediction,Date,Comment\n0.5,," + std::string(kA) + "\n"),
                "should have a Insult column");
  ExpectInvalid(Grade("Insult,Comment\n0.5," + std::string(kA) + "\n"), "same number of rows");
  ExpectInvalid(Grade(Submission("0.9", "0.1", "0.8", "0.2") + "0.5,,\"\"\"extra\"\"\"\n"),
                "same number of rows");
  ExpectInvalid(Grade(""), "should have an Comment column");
}

TEST(DetectingInsultsGradeTest, CommentsMustMatchExactly) {
  // Kaggle's literal quotes dropped from one comment.
  std::string unquoted = Submission("0.9", "0.1", "0.8", "0.2");
  unquoted.replace(unquoted.find(kB), kB.size(), "I agree with the point about taxes.");
  ExpectInvalid(Grade(unquoted), "same Comment values");
  // One comment twice, another absent.
  std::string repeated = Submission("0.9", "0.1", "0.8", "0.2");
  repeated.replace(repeated.find(kD), kD.size(), kB);
  ExpectInvalid(Grade(repeated), "same Comment values");
  // A missing comment.
  std::string blank = Submission("0.9", "0.1", "0.8", "0.2");
  blank.replace(blank.find(kC), kC.size(), "");
  ExpectInvalid(Grade(blank), "same Comment values");
}

TEST(DetectingInsultsGradeTest, RepeatedCommentsInTheAnswersMustRepeatInTheSubmission) {
  const std::string answers =
      "Insult,Date,Comment,Usage\n1,,\"x\",PrivateTest\n"
      "1,,\"x\",PrivateTest\n0,,\"y\",PublicTest\n";
  EXPECT_EQ(*Grade("Insult,Comment\n0.3,y\n0.7,x\n0.6,x\n", answers), 1.0);
  ExpectInvalid(Grade("Insult,Comment\n0.3,y\n0.7,x\n0.6,y\n", answers), "same Comment values");
}

TEST(DetectingInsultsGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  const std::string submission = "Insult,Comment\n0.9,a\n0.1,b\n";
  for (std::string_view answers : {"Insult,Date,Comment\n1,,a\n1,,b\n",       // one class
                                   "Label,Date,Comment\n1,,a\n0,,b\n",        // no target
                                   "Insult,Date,Text\n1,,a\n0,,b\n",          // no comments
                                   "Insult,Date,Comment\n1,,a\nyes,,b\n"}) {  // not numeric
    absl::StatusOr<double> result = Grade(submission, answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
