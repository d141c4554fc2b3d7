#include <cmath>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// Sorted by id_code the diagnoses are 0, 2, 4, 1, 3.
constexpr std::string_view kAnswers =
    "id_code,diagnosis\n"
    "5b9c2e1a0d33,1\n"
    "000c1434d8d7,0\n"
    "ffa47f6a7bf4,3\n"
    "0a38b552a6b2,2\n"
    "3f4e8c6d9a10,4\n";

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(AptosGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(AptosGradeTest, PerfectInAnyRowOrderWithExtraColumns) {
  EXPECT_EQ(*Grade("id_code,diagnosis\n000c1434d8d7,0\n0a38b552a6b2,2\n3f4e8c6d9a10,4\n"
                   "5b9c2e1a0d33,1\nffa47f6a7bf4,3\n"),
            1.0);
  EXPECT_EQ(*Grade("diagnosis,note,id_code\n3.0,x,ffa47f6a7bf4\n1.0,y,5b9c2e1a0d33\n"
                   "4.0,z,3f4e8c6d9a10\n2.0,w,0a38b552a6b2\n0.0,v,000c1434d8d7\n"),
            1.0);
}

TEST(AptosGradeTest, HandComputedKappa) {
  // In id order: truth 0, 2, 4, 1, 3 and prediction 0, 2, 3, 1, 3. Labels
  // 0..4; observed weighted disagreement: the (3, 4) pair, 1. Truth and
  // prediction counts are (1, 1, 1, 1, 1) and (1, 1, 1, 2, 0), so
  // sum w * expected = sum_ij (i - j)^2 * t_i * p_j / 5
  //   = (sum over i of [0..4 - i]^2 . (1, 1, 1, 2, 0)) / 5
  //   = ((0+1+4+18) + (1+0+1+8) + (4+1+0+2) + (9+4+1+0) + (16+9+4+2)) / 5 = 85 / 5 = 17.
  EXPECT_DOUBLE_EQ(*Grade("id_code,diagnosis\n000c1434d8d7,0\n0a38b552a6b2,2\n3f4e8c6d9a10,3\n"
                          "5b9c2e1a0d33,1\nffa47f6a7bf4,3\n"),
                   1.0 - 1.0 / 17.0);
  // The sample submission (all 0) scores 0.
  EXPECT_EQ(*Grade("id_code,diagnosis\n000c1434d8d7,0\n0a38b552a6b2,0\n3f4e8c6d9a10,0\n"
                   "5b9c2e1a0d33,0\nffa47f6a7bf4,0\n"),
            0.0);
  // Reversed grades: upstream's value.
  EXPECT_NEAR(*Grade("id_code,diagnosis\n000c1434d8d7,4\n0a38b552a6b2,2\n3f4e8c6d9a10,0\n"
                     "5b9c2e1a0d33,3\nffa47f6a7bf4,1\n"),
              -1.0, 1e-15);
}

TEST(AptosGradeTest, RejectsMissingColumnsAndEmpty) {
  ExpectInvalid(Grade("id_code,prediction\n000c1434d8d7,0\n"), "target column 'diagnosis'");
  ExpectInvalid(Grade(""), "target column 'diagnosis'");
  ExpectInvalid(Grade("id_code,diagnosis\n"), "should not be empty");
  ExpectInvalid(Grade("id,diagnosis\n000c1434d8d7,0\n0a38b552a6b2,2\n3f4e8c6d9a10,3\n"
                      "5b9c2e1a0d33,1\nffa47f6a7bf4,3\n"),
                "id column 'id_code'");
}

TEST(AptosGradeTest, RejectsWrongIds) {
  // Missing, unknown, NaN and repeated ids.
  ExpectInvalid(Grade("id_code,diagnosis\n000c1434d8d7,0\n0a38b552a6b2,2\n3f4e8c6d9a10,3\n"
                      "5b9c2e1a0d33,1\n"),
                "same id_codes");
  ExpectInvalid(Grade("id_code,diagnosis\n000c1434d8d7,0\n0a38b552a6b2,2\n3f4e8c6d9a10,3\n"
                      "5b9c2e1a0d33,1\nffa47f6a7bf5,3\n"),
                "same id_codes");
  ExpectInvalid(Grade("id_code,diagnosis\n000c1434d8d7,0\n0a38b552a6b2,2\n3f4e8c6d9a10,3\n"
                      "5b9c2e1a0d33,1\n,3\n"),
                "same id_codes");
  ExpectInvalid(Grade("id_code,diagnosis\n000c1434d8d7,0\n0a38b552a6b2,2\n3f4e8c6d9a10,3\n"
                      "5b9c2e1a0d33,1\n5b9c2e1a0d33,1\n"),
                "same id_codes");
  // Every id plus a repeat passes the set check; sklearn rejects the lengths.
  ExpectInvalid(Grade("id_code,diagnosis\n000c1434d8d7,0\n0a38b552a6b2,2\n3f4e8c6d9a10,3\n"
                      "5b9c2e1a0d33,1\nffa47f6a7bf4,3\nffa47f6a7bf4,3\n"),
                "cohen_kappa_score rejects");
}

TEST(AptosGradeTest, RejectsPredictionsThatAreNotLabels) {
  const std::string head =
      "id_code,diagnosis\n000c1434d8d7,0\n0a38b552a6b2,2\n3f4e8c6d9a10,3\n"
      "5b9c2e1a0d33,1\nffa47f6a7bf4,";
  ExpectInvalid(Grade(head + "2.5\n"), "continuous");
  ExpectInvalid(Grade(head + "\n"), "contains NaN");
  ExpectInvalid(Grade(head + "inf\n"), "infinity");
  ExpectInvalid(Grade(head + "severe\n"), "cohen_kappa_score rejects");
}

TEST(AptosGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers :
       {std::string_view("id_code,label\na,1\n"), std::string_view("id,diagnosis\na,1\n"),
        std::string_view("id_code,diagnosis\n"), std::string_view("id_code,diagnosis\na,x\n")}) {
    absl::StatusOr<double> result = Grade("id_code,diagnosis\na,1\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
