#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// As prepare writes it: one row per (image, class), "No finding" (14) boxes
// 0 0 1 1.
constexpr std::string_view kAnswers =
    "image_id,class_id,class_name,rad_id,x_min,y_min,x_max,y_max\n"
    "aa,3,Cardiomegaly,R9,100.0,200.0,300.0,400.0\n"
    "aa,10,Pleural effusion,R9,10.0,10.0,50.0,60.0\n"
    "bb,14,No finding,R8,0.0,0.0,1.0,1.0\n"
    "cc,3,Cardiomegaly,R10,500.0,500.0,700.0,650.0\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(VinBigDataGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

// The gold submission does not score 1: COCOeval counts the detection
// matched to ground truth id 0 (aa's class 3 box) as a false positive, so
// class 3 (ties in image order: aa's FP, then cc's TP) reaches recall 1/2 at
// precision 1/2: 101-point AP = 51 * 0.5 / 101; classes 10 and 14 score 1.
TEST(VinBigDataGradeTest, GoldScoresBelowOneAsUpstream) {
  const double expected = (25.5 / 101.0 + 2.0) / 3.0;
  EXPECT_NEAR(*Grade("image_id,PredictionString\n"
                     "aa,3 1.0 100.0 200.0 300.0 400.0 10 1.0 10.0 10.0 50.0 60.0\n"
                     "bb,14 1.0 0.0 0.0 1.0 1.0\n"
                     "cc,3 1.0 500.0 500.0 700.0 650.0\n"),
              expected, 1e-12);
  // Row order, extra columns, other spellings of the numbers, and splitting
  // an image's boxes over duplicate rows change nothing.
  EXPECT_NEAR(*Grade("x,PredictionString,image_id\n"
                     "1,3 1 500 500 700 650,cc\n"
                     "2,14 1 0 0 1 1,bb\n"
                     "3,10.9 1e0 10 10 50 60,aa\n"
                     "4,3 1 100 200 300 400,aa\n"),
              expected, 1e-12);
}

TEST(VinBigDataGradeTest, WrongBoxesScoreLess) {
  // Only class 14 found: classes 3 and 10 score 0; for 14, aa's FP ties
  // before bb's TP (recall 1 at precision 1/2): AP 0.5.
  EXPECT_NEAR(*Grade("image_id,PredictionString\naa,14 1 0 0 1 1\nbb,14 1 0 0 1 1\n"
                     "cc,14 1 0 0 1 1\n"),
              0.5 / 3.0, 1e-12);
}

TEST(VinBigDataGradeTest, InvalidSubmissions) {
  ExpectInvalid(Grade("image_id,Prediction\naa,14 1 0 0 1 1\nbb,14 1 0 0 1 1\ncc,14 1 0 0 1 1\n"),
                "PredictionString");
  ExpectInvalid(Grade("id,PredictionString\naa,14 1 0 0 1 1\nbb,14 1 0 0 1 1\ncc,14 1 0 0 1 1\n"),
                "image_id");
  // Missing, extra and blank ids.
  ExpectInvalid(Grade("image_id,PredictionString\naa,14 1 0 0 1 1\nbb,14 1 0 0 1 1\n"),
                "set of image_ids");
  ExpectInvalid(Grade("image_id,PredictionString\naa,14 1 0 0 1 1\nbb,14 1 0 0 1 1\n"
                      "cc,14 1 0 0 1 1\ndd,14 1 0 0 1 1\n"),
                "set of image_ids");
  ExpectInvalid(Grade("image_id,PredictionString\naa,14 1 0 0 1 1\nbb,14 1 0 0 1 1\n"
                      "cc,14 1 0 0 1 1\n,14 1 0 0 1 1\n"),
                "set of image_ids");
  // A blank prediction string is NaN (no .split), a token that is no float,
  // a double space (an empty token), a count that is no multiple of 6, a NaN
  // or infinite class (int() raises).
  for (const char* bad : {"", "14 1 0 0 1 x", "14 1 0 0  1 1", "14 1 0 0 1", "14 1 0 0 1 1 3",
                          "nan 1 0 0 1 1", "inf 1 0 0 1 1", "\"14,1,0,0,1,1\""}) {
    ExpectInvalid(Grade(std::string("image_id,PredictionString\naa,14 1 0 0 1 1\nbb,") + bad +
                        "\ncc,14 1 0 0 1 1\n"),
                  "row 1");
  }
}

TEST(VinBigDataGradeTest, PythonFloatSpellingsAreAccepted) {
  // float() strips tabs and allows underscores and "NaN" scores; a huge
  // class matches nothing.
  const absl::StatusOr<double> score = Grade(
      "image_id,PredictionString\naa,14 1 0 0 1 1\t\nbb,1_4 nan 0 0 1 1\ncc,1e300 1 0 0 1 1\n");
  ASSERT_TRUE(score.ok()) << score.status();
  // Only bb's class 14 box matches (aa's ties before it): as only14 above.
  EXPECT_NEAR(*score, 0.5 / 3.0, 1e-12);
}

}  // namespace
}  // namespace mlebench::grade_test
