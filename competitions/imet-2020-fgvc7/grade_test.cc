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

constexpr std::string_view kAnswers =
    "id,attribute_ids\n"
    "c3,13 405 1092\n"
    "a1,51\n"
    "b2,13 51\n"
    "d4,7\n";

absl::StatusOr<double> Grade(std::string_view rows, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, "id,attribute_ids\n" + std::string(rows), answers);
}

using testing::ExpectInvalid;

TEST(ImetGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(ImetGradeTest, PerfectInAnyRowAndLabelOrder) {
  EXPECT_EQ(*Grade("a1,51\nb2,51 13\nc3,1092 13 405\nd4,7\n"), 1.0);
  EXPECT_EQ(*testing::GradeCsvText(
                kId, "attribute_ids,id\n7,d4\n51 51,a1\n13   51,b2\n405 1092 13,c3\n", kAnswers),
            1.0);
}

TEST(ImetGradeTest, HandComputedMicroF1) {
  // The sample submission ("0 1 2"): none of them is an answer label, so
  // nothing counts as predicted; tp 0 -> 0.
  EXPECT_EQ(*Grade("a1,0 1 2\nb2,0 1 2\nc3,0 1 2\nd4,0 1 2\n"), 0.0);
  // tp 3 (a1: 51, b2: 13, c3: 13), predicted 5 (b2's 7, c3's 51; 999 is
  // unknown and ignored), actual 7 -> 6 / 12. A missing cell predicts none.
  EXPECT_DOUBLE_EQ(*Grade("a1,51 999\nb2,13 7\nc3,13 51\nd4,\n"), 0.5);
  // Labels are compared as text: "07" is not "7".
  EXPECT_DOUBLE_EQ(*Grade("a1,51\nb2,13 51\nc3,13 405 1092\nd4,07 x\n"), 12.0 / 13.0);
}

TEST(ImetGradeTest, RejectsWrongShape) {
  ExpectInvalid(testing::GradeCsvText(kId, "Id,attribute_ids\na1,1 2\nb2,1\nc3,1\nd4,1\n",
                                      kAnswers),
                "must have an 'id' column");
  ExpectInvalid(testing::GradeCsvText(kId, "id,attributes\na1,1 2\nb2,1\nc3,1\nd4,1\n", kAnswers),
                "must have a 'attribute_ids' column");
  ExpectInvalid(Grade("a1,51\nb2,13\nc3,13\n"), "same number of rows");
  ExpectInvalid(Grade("a1,51\nb2,13\nc3,13\nd4,7\ne5,7\n"), "same number of rows");
}

TEST(ImetGradeTest, RejectsWrongIds) {
  ExpectInvalid(Grade("a1,51\nb2,13 51\nb2,13\nd4,7\n"), "matching 'id' columns");
  ExpectInvalid(Grade("a1,51\nb2,13 51\nc3,13\nz9,7\n"), "matching 'id' columns");
  ExpectInvalid(Grade("a1,51\nb2,13 51\n,13\nd4,7\n"), "matching 'id' columns");
}

TEST(ImetGradeTest, RejectsAttributeColumnsPandasReadsAsNumbers) {
  // One id per row makes pandas read the column as numbers, and upstream's
  // `.str.split()` then raises, even for otherwise right predictions.
  ExpectInvalid(Grade("a1,51\nb2,13\nc3,13\nd4,7\n"), "not text");
  ExpectInvalid(Grade("a1,51\nb2,\nc3,13\nd4,7\n"), "not text");
  EXPECT_EQ(*Grade("a1,\nb2,\nc3,\nd4,\n"), 0.0);
}

TEST(ImetGradeTest, MalformedAnswersAreInternalErrors) {
  const std::string rows = "a1,1 2\nb2,1\n";
  for (const std::string_view answers :
       {std::string_view("id,attributes\na1,1 2\nb2,1\n"),
        std::string_view("id,attribute_ids\na1,1 2\nb2,\n"),
        std::string_view("id,attribute_ids\na1,1 1\nb2,1\n")}) {
    const absl::StatusOr<double> result = Grade(rows, answers);
    EXPECT_FALSE(result.ok());
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
