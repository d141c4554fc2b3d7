#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// Upstream's answers: the held-out studies ("<label> 1 0 0 1 1") then their
// images ("opacity <confidence> <box>" per box, or "none 1 0 0 1 1").
constexpr std::string_view kAnswers =
    "id,PredictionString\n"
    "s1_study,typical 1 0 0 1 1\n"
    "s2_study,negative 1 0 0 1 1\n"
    "i1_image,opacity 1 10 10 20 20\n"
    "i2_image,none 1 0 0 1 1\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

std::string WithImage1(std::string_view prediction) {
  return "id,PredictionString\n"
         "s1_study,typical 1 0 0 1 1\n"
         "s2_study,negative 1 0 0 1 1\n"
         "i1_image," +
         std::string(prediction) +
         "\n"
         "i2_image,none 1 0 0 1 1\n";
}

using testing::ExpectInvalid;

TEST(SiimCovid19GradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(SiimCovid19GradeTest, PerfectSubmissionScoresOneInAnyRowOrder) {
  EXPECT_DOUBLE_EQ(*Grade(std::string(kAnswers)), 1.0);
  EXPECT_DOUBLE_EQ(*Grade("PredictionString,id,extra\n"
                          "none 0.3 0 0 1 1,i2_image,x\n"
                          "  opacity 0.7 10 10 20 20  ,i1_image,y\n"
                          "negative 0.2 0 0 1 1,s2_study,z\n"
                          "typical 0.9 0 0 1 1,s1_study,w\n"),
                   1.0);
}

// The sample submission: per label, negative and none score AP 0.5 (one hit,
// one false alarm at the same confidence), opacity and typical 0.25 (their
// only truth scored 0 among four rows scored 0).
TEST(SiimCovid19GradeTest, SampleSubmissionScoresHandComputedMap) {
  EXPECT_DOUBLE_EQ(*Grade("id,PredictionString\n"
                          "s1_study,negative 1 0 0 1 1\n"
                          "s2_study,negative 1 0 0 1 1\n"
                          "i1_image,none 1 0 0 1 1\n"
                          "i2_image,none 1 0 0 1 1\n"),
                   0.375);
}

// IoU must exceed 0.5: a box with IoU exactly 0.5 is a false alarm at 0.9
// plus a missed truth, so opacity's AP is 1/5 and the mean 0.8.
TEST(SiimCovid19GradeTest, BoxesMatchOnlyAboveHalfIou) {
  EXPECT_DOUBLE_EQ(*Grade(WithImage1("opacity 0.9 10 10 20 30")), 0.8);
  EXPECT_DOUBLE_EQ(*Grade(WithImage1("opacity 0.9 10 10 20 29.9")), 1.0);
  // Extra boxes and labels the answers lack only add false alarms.
  EXPECT_DOUBLE_EQ(*Grade(WithImage1("opacity 0.9 10 10 20 20 foo 0.5 0 0 1 1")), 1.0);
  EXPECT_DOUBLE_EQ(*Grade(WithImage1("opacity 0.9 10 10 20 20 opacity 0.95 50 50 60 60")),
                   1.0 - 0.5 / 4);
  // Python float() spellings and a NaN confidence on a label not graded.
  EXPECT_DOUBLE_EQ(*Grade(WithImage1("opacity 9E-1 1_0 10.0 +20 2e1 foo nan 0 0 1 1")), 1.0);
}

// str.split() separators: ASCII whitespace (tab, the information separator
// \x1f: the byte-wise path) and Unicode whitespace (U+00A0, U+3000: the
// decoding path) split; U+200B does not, so "20\u200b" is no float.
TEST(SiimCovid19GradeTest, SplitsOnPythonWhitespaceAsciiOrNot) {
  EXPECT_DOUBLE_EQ(*Grade(WithImage1("opacity\t0.9 10\x1f" "10 20  20\x0b")), 1.0);
  EXPECT_DOUBLE_EQ(*Grade(WithImage1("opacity\xc2\xa0" "0.9 10\xe3\x80\x80" "10 20 20")), 1.0);
  ExpectInvalid(Grade(WithImage1("opacity 0.9 10 10 20 20\xe2\x80\x8b")),
                "convert string to float: '20\xe2\x80\x8b'");
  ExpectInvalid(Grade(WithImage1("opacity\xc2\xa0" "0.9 10 10 20")), "not a multiple of 6");
}

TEST(SiimCovid19GradeTest, NoRowsScoresZero) {
  EXPECT_EQ(*Grade("id,PredictionString\n", "id,PredictionString\n"), 0.0);
}

TEST(SiimCovid19GradeTest, RejectsWrongShapeAndIds) {
  ExpectInvalid(Grade("id,PredictionString\ns1_study,typical 1 0 0 1 1\n"), "same length");
  ExpectInvalid(Grade("Id,PredictionString\na,x\nb,x\nc,x\nd,x\n"), "'id' column");
  ExpectInvalid(Grade("id,prediction\ns1_study,x\ns2_study,x\ni1_image,x\ni2_image,x\n"),
                "'PredictionString' column");
  ExpectInvalid(Grade("id,PredictionString\n"
                      "s1_study,typical 1 0 0 1 1\n"
                      "s1_study,negative 1 0 0 1 1\n"
                      "i1_image,none 1 0 0 1 1\n"
                      "i2_image,none 1 0 0 1 1\n"),
                "same ids");
  ExpectInvalid(Grade("id,PredictionString\n"
                      "s1_study,typical 1 0 0 1 1\n"
                      ",negative 1 0 0 1 1\n"
                      "i1_image,none 1 0 0 1 1\n"
                      "i2_image,none 1 0 0 1 1\n"),
                "same ids");
  ExpectInvalid(Grade("id,PredictionString\n1,a\n2,b\n3,c\n4,d\n"), "same ids");
}

TEST(SiimCovid19GradeTest, RejectsUnparsablePredictionStrings) {
  ExpectInvalid(Grade(WithImage1("")), "float, not text");  // missing
  ExpectInvalid(Grade(WithImage1("opacity 0.9 10 10 20")), "not a multiple of 6");
  ExpectInvalid(Grade(WithImage1("opacity 0.9 10 10 20 20 none")), "not a multiple of 6");
  ExpectInvalid(Grade(WithImage1("opacity high 10 10 20 20")), "convert string to float: 'high'");
  ExpectInvalid(Grade(WithImage1("opacity 0.9 10 10 20 20px")), "'20px'");
  // Upstream parses in sorted-id order, so of two bad rows it names the one
  // whose id sorts first, wherever it lies in the file.
  ExpectInvalid(Grade("id,PredictionString\n"
                      "s2_study,negative 1 0 0 1 x2\n"
                      "s1_study,typical 1 0 0 1 1\n"
                      "i2_image,none 1 0 0 1 1\n"
                      "i1_image,opacity 1 10 10 20 x1\n"),
                "id 'i1_image': it could not convert string to float: 'x1'");
  // A whole column of numbers is read as numbers, which upstream cannot strip.
  ExpectInvalid(Grade("id,PredictionString\ns1_study,1\ns2_study,2\ni1_image,3\ni2_image,4\n"),
                "not text");
}

TEST(SiimCovid19GradeTest, RejectsWhatCalculateMapRaisesFor) {
  // sklearn rejects a non-finite score of a graded label.
  ExpectInvalid(Grade(WithImage1("opacity nan 10 10 20 20")), "mean average precision");
  ExpectInvalid(Grade(WithImage1("opacity inf 10 10 20 20")), "mean average precision");
  // Upstream's assert: every pair of a label positive (here every row has an
  // opacity box and the submission finds them all).
  constexpr std::string_view kAllOpacity =
      "id,PredictionString\na_image,opacity 1 0 0 10 10\nb_image,opacity 1 5 5 9 9\n";
  ExpectInvalid(Grade(kAllOpacity, kAllOpacity), "mean average precision");
}

TEST(SiimCovid19GradeTest, MalformedAnswersAreInternalErrors) {
  const absl::StatusOr<double> no_column = Grade("id,PredictionString\na,x\n", "id,label\na,x\n");
  EXPECT_FALSE(no_column.ok());
  EXPECT_FALSE(IsInvalidSubmission(no_column.status()));
  const absl::StatusOr<double> bad_truth =
      Grade("id,PredictionString\na,none 1 0 0 1 1\n", "id,PredictionString\na,none 1 0\n");
  EXPECT_FALSE(bad_truth.ok());
  EXPECT_FALSE(IsInvalidSubmission(bad_truth.status()));
}

}  // namespace
}  // namespace mlebench::grade_test
