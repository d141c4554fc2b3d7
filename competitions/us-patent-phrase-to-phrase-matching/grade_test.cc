#include <cmath>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "base/table.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// The private test.csv keeps every column of Kaggle's train.csv. Sorted by
// id, the scores are 0.5, 0.0, 1.0, 0.25.
constexpr std::string_view kAnswers =
    "id,anchor,target,context,score\n"
    "c3a,abatement,noise reduction,A47,1.0\n"
    "0b2,abatement,forest region,A47,0.5\n"
    "f01,adjust gas flow,gas flow,F23,0.25\n"
    "1aa,acid absorption,water,C08,0.0\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(UsPatentGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(UsPatentGradeTest, PerfectSubmissionInAnyRowOrder) {
  EXPECT_NEAR(*Grade("id,score\nf01,0.25\n1aa,0.0\n0b2,0.5\nc3a,1.0\n"), 1.0, 1e-15);
  // Any increasing linear map of the answers is perfect too.
  EXPECT_NEAR(*Grade("score,id\n3,f01\n2,1aa\n4,0b2\n6,c3a\n"), 1.0, 1e-15);
}

TEST(UsPatentGradeTest, HandComputedCorrelation) {
  // In id order: truth 0.5, 0.0, 1.0, 0.25 (mean 0.4375), prediction 0, 1, 1, 0
  // (mean 0.5). Centred products: -0.03125, -0.21875, 0.28125, 0.09375 sum to
  // 0.125; squared norms 0.546875 and 1.
  EXPECT_NEAR(*Grade("id,score\n0b2,0\n1aa,1\nc3a,1\nf01,0\n"),
              0.125 / std::sqrt(0.546875), 1e-15);
  // Upstream's grade.py gives 0.16903085094570336 for this file.
  EXPECT_NEAR(*Grade("id,score\n0b2,0\n1aa,1\nc3a,1\nf01,0\n"), 0.16903085094570336, 1e-15);
  // Extra columns are ignored; bools are numbers.
  EXPECT_NEAR(*Grade("x,id,score\n1,0b2,False\n1,1aa,True\n1,c3a,True\n1,f01,False\n"),
              0.16903085094570336, 1e-15);
}

TEST(UsPatentGradeTest, ConstantOrMissingPredictionsScoreNaN) {
  // Upstream's sample submission (all 0) is constant: pearsonr returns NaN
  // (a warning, not an error), which the report then calls invalid.
  EXPECT_TRUE(std::isnan(*Grade("id,score\n0b2,0\n1aa,0\nc3a,0\nf01,0\n")));
  // scipy 1.14 lets NaN and infinity through to a NaN statistic.
  EXPECT_TRUE(std::isnan(*Grade("id,score\n0b2,0\n1aa,\nc3a,1\nf01,0\n")));
  EXPECT_TRUE(std::isnan(*Grade("id,score\n0b2,0\n1aa,inf\nc3a,1\nf01,0\n")));
}

TEST(UsPatentGradeTest, InvalidSubmissions) {
  ExpectInvalid(Grade("id,score\n0b2,0\n1aa,1\nc3a,1\n"), "same number of rows");
  ExpectInvalid(Grade("id,score\n0b2,0\n1aa,1\nc3a,1\nf01,0\nf02,0\n"), "same number of rows");
  ExpectInvalid(Grade(""), "same number of rows");
  ExpectInvalid(Grade("id,score\n"), "same number of rows");
  ExpectInvalid(Grade("id,prediction\n0b2,0\n1aa,1\nc3a,1\nf01,0\n"), "must have columns");
  ExpectInvalid(Grade("key,score\n0b2,0\n1aa,1\nc3a,1\nf01,0\n"), "must have columns");
  ExpectInvalid(Grade("id,score\n0b2,0\n1aa,1\nc3a,1\nfff,0\n"), "Ids mismatch");
  ExpectInvalid(Grade("id,score\n0b2,0\n0b2,1\nc3a,1\nf01,0\n"), "Ids mismatch");
  ExpectInvalid(Grade("id,score\n0b2,0\n,1\nc3a,1\nf01,0\n"), "Ids mismatch");
  // Text predictions make an object array, which scipy 1.14 rejects.
  ExpectInvalid(Grade("id,score\n0b2,0\n1aa,high\nc3a,1\nf01,0\n"), "pearsonr rejects");
  ExpectInvalid(Grade("id,score\n0b2,a\n1aa,a\nc3a,a\nf01,a\n"), "pearsonr rejects");
}

TEST(UsPatentGradeTest, NumericIdsCompareByValue) {
  constexpr std::string_view answers = "id,score\n10,0.0\n9,1.0\n";
  EXPECT_EQ(*Grade("id,score\n9,5\n10,1\n", answers), 1.0);
  ExpectInvalid(Grade("id,score\n9,5\n11,1\n", answers), "Ids mismatch");
}

TEST(UsPatentGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {std::string_view("id,label\na,1.0\nb,0.0\n"),
                                   std::string_view("key,score\na,1.0\nb,0.0\n"),
                                   std::string_view("id,score\na,1.0\n")}) {
    absl::StatusOr<double> result = Grade("id,score\na,1.0\nb,0.0\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
