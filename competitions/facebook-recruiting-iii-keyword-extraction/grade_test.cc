#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// Kaggle's answers: text with commas and a question without tags.
constexpr std::string_view kAnswers =
    "Id,Title,Body,Tags\n"
    "30,\"Why, oh why\",\"<p>a, b</p>\",c# .net\n"
    "10,T,B,python\n"
    "20,T,B,javascript jquery html\n"
    "40,T,B,\n";

absl::StatusOr<double> Grade(std::string_view rows, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, "Id,Tags\n" + std::string(rows), answers);
}

using testing::ExpectInvalid;

TEST(FacebookKeywordGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(FacebookKeywordGradeTest, PerfectInAnyRowAndTagOrder) {
  EXPECT_EQ(*Grade("10,python\n20,html jquery javascript\n30,.net c#\n40,\n"), 1.0);
  // Extra columns are fine; a tag unknown to the answers is ignored.
  EXPECT_EQ(*testing::GradeCsvText(
                kId, "Tags,Id,Title\nc# .net c#,30,x\npython,10,x\njavascript jquery html,20,x\n"
                     "haskell,40,x\n",
                kAnswers),
            1.0);
}

TEST(FacebookKeywordGradeTest, HandComputedMicroF1) {
  // The sample submission: javascript, c# and python are known, php and java
  // are not. Predicted 12 known, true 6; tp 3 (python, javascript, c#) ->
  // 6 / 18.
  const std::string sample = "javascript c# python php java";
  EXPECT_DOUBLE_EQ(*Grade("10," + sample + "\n20," + sample + "\n30," + sample + "\n40," +
                          sample + "\n"),
                   6.0 / 18.0);
  // tp 2 (python, html), predicted 3, true 6 -> 4 / 9.
  EXPECT_DOUBLE_EQ(*Grade("10,python\n20,html\n30,\n40,jquery\n"), 4.0 / 9.0);
  EXPECT_EQ(*Grade("10,\n20,\n30,\n40,\n"), 0.0);
}

TEST(FacebookKeywordGradeTest, IdsCompareAsNumbers) {
  // pandas reads both Id columns as numbers: 10.0 equals 10.
  EXPECT_EQ(*Grade("10.0,python\n20,html jquery javascript\n30,.net c#\n40,\n"), 1.0);
}

TEST(FacebookKeywordGradeTest, RejectsWrongShape) {
  ExpectInvalid(testing::GradeCsvText(kId, "id,Tags\n10,a\n20,a\n30,a\n40,a\n", kAnswers),
                "must have an 'Id' column");
  ExpectInvalid(testing::GradeCsvText(kId, "Id,tags\n10,a\n20,a\n30,a\n40,a\n", kAnswers),
                "must have a 'Tags' column");
  ExpectInvalid(Grade("10,python\n20,html\n30,c#\n"), "same number of rows");
  ExpectInvalid(Grade(""), "same number of rows");
}

TEST(FacebookKeywordGradeTest, RejectsWrongIds) {
  ExpectInvalid(Grade("10,a b\n20,a\n30,a\n30,a\n"), "matching 'Id's");
  ExpectInvalid(Grade("10,a b\n20,a\n30,a\n41,a\n"), "matching 'Id's");
  ExpectInvalid(Grade("10,a b\n20,a\n30,a\n,a\n"), "matching 'Id's");
  ExpectInvalid(Grade("10,a b\n20,a\n30,a\nforty,a\n"), "matching 'Id's");
}

TEST(FacebookKeywordGradeTest, RejectsTagsThatAreNotText) {
  ExpectInvalid(Grade("10,1\n20,2\n30,3\n40,4\n"), "not text");
  ExpectInvalid(Grade("10,1\n20,\n30,3\n40,4\n"), "not text");
  ExpectInvalid(Grade("10,True\n20,False\n30,True\n40,True\n"), "not text");
}

TEST(FacebookKeywordGradeTest, MalformedAnswersAreInternalErrors) {
  const std::string rows = "1,a b\n2,a\n";
  for (const std::string_view answers : {std::string_view("Id,Tag\n1,a b\n2,a\n"),
                                         std::string_view("Id,Tags\n1,a a\n2,a\n"),
                                         std::string_view("Id,Tags\n1,\n2,\n")}) {
    const absl::StatusOr<double> result = Grade(rows, answers);
    EXPECT_FALSE(result.ok());
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
