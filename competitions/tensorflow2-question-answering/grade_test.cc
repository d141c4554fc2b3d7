#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// Upstream's answers: held-out lines of simplified-nq-train.jsonl (every key
// kept; the grader reads example_id and annotations). Example 11 has a long
// answer and two short ones; 22 a long answer and YES; 33 no answer at all.
constexpr std::string_view kAnswers =
    "{\"document_text\":\"a b c\",\"long_answer_candidates\":[{\"start_token\":0,"
    "\"top_level\":true,\"end_token\":3}],\"question_text\":\"q one\",\"annotations\":[{"
    "\"yes_no_answer\":\"NONE\",\"long_answer\":{\"start_token\":10,\"candidate_index\":0,"
    "\"end_token\":20},\"short_answers\":[{\"start_token\":12,\"end_token\":14},"
    "{\"start_token\":15,\"end_token\":16}],\"annotation_id\":1}],\"document_url\":\"u\","
    "\"example_id\":\"11\"}\n"
    "{\"question_text\":\"q two\",\"annotations\":[{\"yes_no_answer\":\"YES\",\"long_answer\":{"
    "\"start_token\":5,\"candidate_index\":1,\"end_token\":9},\"short_answers\":[],"
    "\"annotation_id\":2}],\"example_id\":\"22\"}\n"
    "{\"question_text\":\"q three\",\"annotations\":[{\"yes_no_answer\":\"NONE\",\"long_answer\":{"
    "\"start_token\":-1,\"candidate_index\":-1,\"end_token\":-1},\"short_answers\":[],"
    "\"annotation_id\":3}],\"example_id\":\"-33\"}\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(Tensorflow2QuestionAnsweringGradeTest, RegisteredWithJsonLinesAnswers) {
  const CompetitionGrader& grader = testing::RegisteredGrader(kId);
  EXPECT_EQ(grader.id, MLEBENCH_COMPETITION_ID);
  EXPECT_EQ(grader.answers_format, AnswersFormat::kJsonLines);
}

TEST(Tensorflow2QuestionAnsweringGradeTest, GoldSubmissionScoresOne) {
  EXPECT_EQ(*Grade("example_id,PredictionString\n"
                   "11_short,12:14\n11_long,10:20\n22_short,YES\n22_long,5:9\n"
                   "-33_short,\n-33_long,\n"),
            1.0);
  // Any valid short answer counts, in any row order, with Python's int()
  // and strip() leniency.
  EXPECT_EQ(*Grade("example_id,PredictionString\n"
                   "-33_long,\n22_long, 5:9 \n11_short,15: +16\n11_long,1_0:20\n"
                   "22_short,YES\n-33_short,\"  \"\n"),
            1.0);
}

TEST(Tensorflow2QuestionAnsweringGradeTest, SampleSubmissionScoresTheUnansweredRows) {
  // All blank: y_pred all 0; y_true 1 for the four rows with an answer.
  // Micro F1 over both labels = accuracy = 2/6.
  EXPECT_DOUBLE_EQ(*Grade("example_id,PredictionString\n"
                          "11_short,\n11_long,\n22_short,\n22_long,\n-33_short,\n-33_long,\n"),
                   2.0 / 6.0);
}

TEST(Tensorflow2QuestionAnsweringGradeTest, WrongAnswersHandComputed) {
  // 11_short wrong span (t=0,p=1), 11_long right (1,1), 22_short NO (0,1),
  // 22_long blank (1,0), -33_short YES (0,1), -33_long blank (0,0):
  // agreements: 11_long, -33_long -> 2/6.
  EXPECT_DOUBLE_EQ(*Grade("example_id,PredictionString\n"
                          "11_short,12:15\n11_long,10:20\n22_short,NO\n22_long,\n"
                          "-33_short,YES\n-33_long,\n"),
                   2.0 / 6.0);
  // A long row never matches YES; a span beyond int64 matches nothing.
  EXPECT_DOUBLE_EQ(*Grade("example_id,PredictionString\n"
                          "11_short,99999999999999999999:14\n11_long,YES\n22_short,YES\n"
                          "22_long,5:9\n-33_short,\n-33_long,\n"),
                   4.0 / 6.0);
}

// int() maps non-ASCII digits and whitespace to ASCII, but does not strip
// U+001C (which str.strip() does). Upstream on Python 3.11: 4/6, a ValueError.
TEST(Tensorflow2QuestionAnsweringGradeTest, SpansInUnicodeDigits) {
  EXPECT_DOUBLE_EQ(*Grade("example_id,PredictionString\n"
                          "11_short,\u0661\u0662:\u0661\u0664\n11_long,\uff11\uff10:\u00a020\n"
                          "22_short,\n22_long,\n-33_short,\n-33_long,\n"),
                   4.0 / 6.0);
  ExpectInvalid(Grade("example_id,PredictionString\n11_short,12\x1c:14\n11_long,\n22_short,\n"
                      "22_long,\n-33_short,\n-33_long,\n"),
                "Invalid submission format");
}

TEST(Tensorflow2QuestionAnsweringGradeTest, InvalidSubmissions) {
  ExpectInvalid(Grade("example_id,PredictionString\n11_short,\n11_long,\n"), "Submission length");
  ExpectInvalid(Grade("example_id,Prediction\n"
                      "11_short,\n11_long,\n22_short,\n22_long,\n-33_short,\n-33_long,\n"),
                "requires 'example_id' and 'PredictionString'");
  ExpectInvalid(Grade("example_id,PredictionString\n"
                      "11_short,\n11_long,\n22_short,\n22_long,\n-33_short,\n-34_long,\n"),
                "do not match expected_ids");
  ExpectInvalid(Grade("example_id,PredictionString\n"
                      "11_short,\n11_long,\n22_short,\n22_long,\n-33_short,\n-33_short,\n"),
                "do not match expected_ids");  // -33_long missing
  for (std::string_view bad : {"maybe", "1:2:3", "a:3", "1.5:3", ":3", "yes", "1__0:2"}) {
    ExpectInvalid(Grade(std::string("example_id,PredictionString\n11_short,") + std::string(bad) +
                        "\n11_long,\n22_short,\n22_long,\n-33_short,\n-33_long,\n"),
                  "Invalid submission format");
  }
}

TEST(Tensorflow2QuestionAnsweringGradeTest, DuplicateIdsAreInvalid) {
  // Length and id set can both pass with a duplicate when answers repeat an
  // example id; then uniqueness fails as upstream's check does.
  const std::string answers = std::string(kAnswers) +
                              "{\"annotations\":[{\"yes_no_answer\":\"NO\",\"long_answer\":{"
                              "\"start_token\":-1,\"end_token\":-1},\"short_answers\":[]}],"
                              "\"example_id\":\"22\"}\n";
  ExpectInvalid(Grade("example_id,PredictionString\n"
                      "11_short,\n11_long,\n22_short,\n22_long,\n-33_short,\n-33_long,\n"
                      "11_short,\n11_long,\n",
                      answers),
                "not unique");
}

TEST(Tensorflow2QuestionAnsweringGradeTest, IdWithAnInnerLongIsAKeyError) {
  // Upstream looks up the text before the FIRST "_long": "x_longy_long" -> "x".
  constexpr std::string_view answers =
      "{\"annotations\":[{\"yes_no_answer\":\"NONE\",\"long_answer\":{\"start_token\":-1,"
      "\"end_token\":-1},\"short_answers\":[]}],\"example_id\":\"x_longy\"}\n";
  ExpectInvalid(Grade("example_id,PredictionString\nx_longy_short,\nx_longy_long,\n", answers),
                "KeyError");
}

TEST(Tensorflow2QuestionAnsweringGradeTest, MalformedAnswersAreInternalErrors) {
  absl::StatusOr<double> result = Grade("example_id,PredictionString\n1_short,\n1_long,\n",
                                        "{\"example_id\":\"1\",\"annotations\":[]}\n");
  ASSERT_FALSE(result.ok());
  EXPECT_FALSE(IsInvalidSubmission(result.status()));
  result = Grade("example_id,PredictionString\n1_short,\n1_long,\n", "{\"example_id\":\"1\"}\n");
  ASSERT_FALSE(result.ok());
  EXPECT_FALSE(IsInvalidSubmission(result.status()));
}

}  // namespace
}  // namespace mlebench::grade_test
