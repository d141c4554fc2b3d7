#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// Upstream's answers: `id` and the true answer text as `PredictionString`.
constexpr std::string_view kAnswers =
    "id,PredictionString\n"
    "c1a2b3d4e,\xe0\xa4\xad\xe0\xa4\xbe\xe0\xa4\xb0\xe0\xa4\xa4\n"  // a Hindi word
    "0f9e8d7c6,New Delhi\n"
    "a0b1c2d3e,1947\n"
    "5d6e7f809,\"\xe0\xae\x9a\xe0\xaf\x86\xe0\xae\xa9\xe0\xaf\x8d\xe0\xae\xa9\xe0\xaf\x88 city\"\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(ChaiiGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(ChaiiGradeTest, PerfectSubmissionScoresOne) {
  EXPECT_EQ(*Grade("id,PredictionString\n"
                   "5d6e7f809,\"CITY  \xe0\xae\x9a\xe0\xaf\x86\xe0\xae\xa9\xe0\xaf\x8d\xe0\xae\xa9"
                   "\xe0\xaf\x88\"\n"
                   "a0b1c2d3e,1947\n"
                   "0f9e8d7c6,new delhi\n"
                   "c1a2b3d4e,\xe0\xa4\xad\xe0\xa4\xbe\xe0\xa4\xb0\xe0\xa4\xa4\n"),
            1.0);
}

TEST(ChaiiGradeTest, HandComputedScore) {
  // Sorted by id: 0f9e.. {new, delhi} vs {delhi, india}: 1/3; 5d6e..
  // {<tamil>, city} vs {city}: 1/2; a0b1.. {1947} vs {1947.}: 0; c1a2.. empty
  // prediction vs one word: 0.
  const double expected = (1.0 / 3.0 + 0.5 + 0.0 + 0.0) / 4.0;
  EXPECT_EQ(*Grade("id,PredictionString,extra\n"
                   "c1a2b3d4e,,x\n"
                   "0f9e8d7c6,Delhi India,x\n"
                   "a0b1c2d3e,1947.,x\n"
                   "5d6e7f809,City,x\n"),
            expected);
}

TEST(ChaiiGradeTest, SampleSubmissionAndEmptyRows) {
  EXPECT_EQ(*Grade("id,PredictionString\nc1a2b3d4e,dummy text\n0f9e8d7c6,dummy text\n"
                   "a0b1c2d3e,dummy text\n5d6e7f809,dummy text\n"),
            0.0);
  // An empty prediction for an empty answer scores 0 (scikit-learn's
  // zero_division), not an error.
  EXPECT_EQ(*Grade("id,PredictionString\na,\nb,x y\n", "id,PredictionString\na,\nb,x y\n"), 0.5);
}

TEST(ChaiiGradeTest, FewerThanTwoWordsInAllIsAnError) {
  // scikit-learn cannot score a binarized target with 0 or 1 columns.
  ExpectInvalid(Grade("id,PredictionString\na,\nb,\n", "id,PredictionString\na,\nb,\n"),
                "multilabel");
  ExpectInvalid(Grade("id,PredictionString\na,x\nb,\n", "id,PredictionString\na,X\nb,\n"),
                "multilabel");
  EXPECT_EQ(*Grade("id,PredictionString\na,x\nb,\n", "id,PredictionString\na,y\nb,\n"), 0.0);
}

TEST(ChaiiGradeTest, NonTextPredictionsHaveNoLower) {
  // A numeric column keeps numbers, which have no .lower() upstream.
  ExpectInvalid(Grade("id,PredictionString\nc1a2b3d4e,1\n0f9e8d7c6,2\na0b1c2d3e,1947\n"
                      "5d6e7f809,\n"),
                "'float' object has no attribute 'lower'");
  ExpectInvalid(Grade("id,PredictionString\nc1a2b3d4e,1\n0f9e8d7c6,2\na0b1c2d3e,1947\n"
                      "5d6e7f809,3\n"),
                "'int' object has no attribute 'lower'");
  ExpectInvalid(Grade("id,PredictionString\nc1a2b3d4e,True\n0f9e8d7c6,False\na0b1c2d3e,True\n"
                      "5d6e7f809,True\n"),
                "'bool' object has no attribute 'lower'");
  // A column of only missing values becomes all "".
  EXPECT_EQ(*Grade("id,PredictionString\nc1a2b3d4e,\n0f9e8d7c6,\na0b1c2d3e,\n5d6e7f809,\n"), 0.0);
  // Text beside numbers keeps the numbers as text.
  EXPECT_EQ(*Grade("id,PredictionString\nc1a2b3d4e,x\n0f9e8d7c6,x\na0b1c2d3e,1947\n"
                   "5d6e7f809,x\n"),
            0.25);
}

TEST(ChaiiGradeTest, ColumnsRowsAndIds) {
  ExpectInvalid(Grade("id,prediction\nc1a2b3d4e,a\n0f9e8d7c6,a\na0b1c2d3e,a\n5d6e7f809,a\n"),
                "must have a `PredictionString` column");
  ExpectInvalid(Grade("ID,PredictionString\nc1a2b3d4e,a\n0f9e8d7c6,a\na0b1c2d3e,a\n5d6e7f809,a\n"),
                "must have an `id` column");
  ExpectInvalid(Grade("id,PredictionString\nc1a2b3d4e,a\n0f9e8d7c6,a\na0b1c2d3e,a\n"),
                "same length");
  ExpectInvalid(Grade("id,PredictionString\nc1a2b3d4e,a\n0f9e8d7c6,a\na0b1c2d3e,a\n"
                      "5d6e7f809,a\n5d6e7f809,a\n"),
                "same length");
  ExpectInvalid(Grade("id,PredictionString\nc1a2b3d4e,a\n0f9e8d7c6,a\na0b1c2d3e,a\n"
                      "5d6e7f800,a\n"),
                "same IDs");
  ExpectInvalid(Grade("id,PredictionString\nc1a2b3d4e,a\n0f9e8d7c6,a\na0b1c2d3e,a\n"
                      "a0b1c2d3e,a\n"),
                "same IDs");
  ExpectInvalid(Grade("id,PredictionString\nc1a2b3d4e,a\n0f9e8d7c6,a\na0b1c2d3e,a\n,a\n"),
                "same IDs");
  ExpectInvalid(Grade("id,PredictionString\n1,a\n2,a\n3,a\n4,a\n"), "same IDs");
}

TEST(ChaiiGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers :
       {"id,answer\na,x\nb,y\n", "ID,PredictionString\na,x\nb,y\n", "id,PredictionString\na,1\nb,2\n"}) {
    absl::StatusOr<double> result = Grade("id,PredictionString\na,x\nb,y\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers << ": " << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
