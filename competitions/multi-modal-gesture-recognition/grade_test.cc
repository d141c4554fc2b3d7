#include <cmath>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// Ids as Kaggle writes them ("0300"); pandas reads them as ints. 9 gestures.
constexpr std::string_view kAnswers =
    "Id,Sequence\n0302,1 2 3 4\n0300,5 6 7\n0301,8 9\n";

absl::StatusOr<double> Grade(std::string_view submission) {
  return testing::GradeCsvText(kId, submission, kAnswers);
}

TEST(GestureGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(GestureGradeTest, PerfectSubmissionScoresZeroInAnyRowOrder) {
  EXPECT_EQ(*Grade("Id,Sequence\n0300,5 6 7\n0301,8 9\n0302,1 2 3 4\n"), 0.0);
  EXPECT_EQ(*Grade("Id,Sequence\n302,1 2 3 4\n301,8  9 \n300,05 +6 7\n"), 0.0);
}

TEST(GestureGradeTest, SumsEditDistancesOverTrueGestureCount) {
  // 300: "5 7" is one deletion; 301: "9 8" two substitutions; 302: "1 2 3 4 4"
  // one insertion. (1 + 2 + 1) / 9.
  EXPECT_DOUBLE_EQ(*Grade("Id,Sequence\n300,5 7\n301,9 8\n302,1 2 3 4 4\n"), 4.0 / 9);
  // Numbers are compared as integers, not characters: 12 is one gesture.
  EXPECT_DOUBLE_EQ(*Grade("Id,Sequence\n300,5 6 7\n301,8 9\n302,12 3 4\n"), 2.0 / 9);
  // The score can exceed 1: an unrelated permutation of the 20 gestures.
  EXPECT_DOUBLE_EQ(*Grade("Id,Sequence\n300,11 12 13 14 15 16 17\n301,18 19 20\n"
                          "302,10 10 10 10 10\n"),
                   (7.0 + 3 + 5) / 9);
  // A lone number per row makes pandas read the column as ints.
  EXPECT_DOUBLE_EQ(*Grade("Id,Sequence\n300,5\n301,8\n302,1\n"), (2.0 + 1 + 3) / 9);
}

TEST(GestureGradeTest, GesturesCompareByPythonHash) {
  // Levenshtein.distance compares ints by hash(): int() takes integers beyond
  // 64 bits, and 2**64 - 1 is gesture 7, 2**61 + 5 gesture 6 (scores from the
  // reference environment).
  EXPECT_DOUBLE_EQ(*Grade("Id,Sequence\n300,5 99999999999999999999 7\n301,8 9\n302,1 2 3 4\n"),
                   1.0 / 9);
  EXPECT_DOUBLE_EQ(*Grade("Id,Sequence\n300,18446744073709551615\n301,8\n302,1\n"), 6.0 / 9);
  EXPECT_EQ(*Grade("Id,Sequence\n300,5 2305843009213693957 7\n301,8 9\n302,1 2 3 4\n"), 0.0);
  // Equal values match whatever their spelling; the sign counts; -1 keeps its
  // own key though hash(-1) is -2.
  constexpr std::string_view kBig = "Id,Sequence\n1,99999999999999999999 5 -1\n";
  EXPECT_EQ(*testing::GradeCsvText(kId, "Id,Sequence\n1,099_999_999_999_999_999_999 5 -1\n", kBig),
            0.0);
  EXPECT_EQ(*testing::GradeCsvText(kId, "Id,Sequence\n1,-99999999999999999999 5 -1\n", kBig),
            1.0 / 3);
  EXPECT_EQ(*testing::GradeCsvText(kId, "Id,Sequence\n1,+99999999999999999999 5 -2\n", kBig),
            1.0 / 3);
  EXPECT_EQ(*testing::GradeCsvText(
                kId, "Id,Sequence\n1,99999999999999999999 5 -2305843009213693952\n", kBig),
            1.0 / 3);
}

TEST(GestureGradeTest, NonAsciiDecimalDigitsAreDigits) {
  // int() reads any Unicode decimal digit (reference environment's scores):
  // Arabic-Indic 5 and 6 and fullwidth 7; fullwidth 12 is one gesture; "40".
  EXPECT_EQ(*Grade("Id,Sequence\n300,\xd9\xa5 \xd9\xa6 \xef\xbc\x97\n301,8 9\n302,1 2 3 4\n"),
            0.0);
  EXPECT_DOUBLE_EQ(*Grade("Id,Sequence\n300,5 6 7\n301,8 9\n302,\xef\xbc\x91\xef\xbc\x92 3 4\n"),
                   2.0 / 9);
  EXPECT_DOUBLE_EQ(*Grade("Id,Sequence\n300,5 6 7\n301,8 9\n302,1 2 3 \xd9\xa4\xd9\xa0\n"),
                   1.0 / 9);
  // A superscript two is no decimal digit: ValueError.
  testing::ExpectInvalid(Grade("Id,Sequence\n300,5 6 7\n301,8 9\n302,1 \xc2\xb2 3 4\n"),
                         "integers");
}

TEST(GestureGradeTest, RejectsInvalidSubmissions) {
  testing::ExpectInvalid(Grade("Id,Sequence\n300,5 6 7\n301,8 9\n"), "rows");
  testing::ExpectInvalid(Grade("Id,Gestures\n300,5 6 7\n301,8 9\n302,1\n"), "'Sequence'");
  testing::ExpectInvalid(Grade("Video,Sequence\n300,5 6 7\n301,8 9\n302,1\n"), "'Id'");
  testing::ExpectInvalid(Grade("Id,Sequence\n300,5 6 7\n301,8 9\n303,1\n"), "same ids");
  testing::ExpectInvalid(Grade("Id,Sequence\n300,5 6 7\n300,8 9\n302,1\n"), "same ids");
  testing::ExpectInvalid(Grade("Id,Sequence\nx,5 6 7\n301,8 9\n302,1\n"), "same ids");
  // An empty cell is NaN: str() gives "nan", which int() rejects.
  testing::ExpectInvalid(Grade("Id,Sequence\n300,5 6 7\n301,\n302,1\n"), "integers");
  testing::ExpectInvalid(Grade("Id,Sequence\n300,5 6 7\n301,8;9\n302,1\n"), "integers");
  testing::ExpectInvalid(Grade("Id,Sequence\n300,5 6 7.0\n301,8 9\n302,1\n"), "integers");
  // A float column: str(1.0) is "1.0".
  testing::ExpectInvalid(Grade("Id,Sequence\n300,5.0\n301,8\n302,1\n"), "integers");
}

TEST(GestureGradeTest, AnswersWithoutGesturesGiveNan) {
  absl::StatusOr<double> score =
      testing::GradeCsvText(kId, "Id,Sequence\n1,\n", "Id,Sequence\n1,\" \"\n");
  ASSERT_FALSE(score.ok());  // the submission's NaN cell is "nan"
  score = testing::GradeCsvText(kId, "Id,Sequence\n1,\" \"\n", "Id,Sequence\n1,\" \"\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_TRUE(std::isnan(*score));
}

}  // namespace
}  // namespace mlebench::grade_test
