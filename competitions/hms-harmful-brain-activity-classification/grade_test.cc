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
constexpr char kHeader[] =
    "eeg_id,seizure_vote,lpd_vote,gpd_vote,lrda_vote,grda_vote,other_vote\n";

// Answers as private/test.csv holds them (more columns than the grader
// reads, raw vote counts). eeg_id 7 has two labelled windows.
constexpr std::string_view kAnswers =
    "eeg_id,eeg_sub_id,spectrogram_id,label_id,patient_id,expert_consensus,"
    "seizure_vote,lpd_vote,gpd_vote,lrda_vote,grda_vote,other_vote\n"
    "30,0,100,1,5,Seizure,3,0,0,0,0,0\n"
    "7,0,101,2,6,LPD,0,1,0,0,0,1\n"
    "7,1,101,3,6,LPD,0,1,0,0,0,1\n"
    "12,0,102,4,7,Other,0,0,0,0,0,2\n";

absl::StatusOr<double> Grade(std::string_view rows, std::string_view header = kHeader) {
  return testing::GradeCsvText(kId, std::string(header) + std::string(rows), kAnswers);
}

using testing::ExpectInvalid;

constexpr double kEps = 1e-15;

TEST(HmsGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(HmsGradeTest, PerfectSubmissionCostsOnlyTheClippingCeiling) {
  // Rows in another order. A share of 1 in a float column is clipped to
  // 1 - eps; seizure_vote is an int64 column, which upstream's np.clip
  // leaves unclipped (pandas casts it back to int), so row 30 costs nothing.
  // Upstream's grade.py gives 2.77555756156289e-16 here.
  const double ceiling = std::log(1 / (1 - kEps));
  absl::StatusOr<double> score = Grade(
      "12,0,0,0,0,0,1\n7,0,0.5,0,0,0,0.5\n30,1,0,0,0,0,0\n7,0,0.5,0,0,0,0.5\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_EQ(*score, 2.77555756156289e-16);
  EXPECT_NEAR(*score, ceiling / 4, 1e-20);
}

TEST(HmsGradeTest, IntegerColumnsAreNotClipped) {
  // All-int64 one-hot predictions: a 0 against a voted class is an
  // infinite loss (upstream's score is inf), a matching 1 costs nothing.
  absl::StatusOr<double> score =
      Grade("12,0,0,0,0,0,1\n7,0,1,0,0,0,0\n30,1,0,0,0,0,0\n7,0,1,0,0,0,0\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_TRUE(std::isinf(*score));
  // The same predictions as float columns are clipped: finite.
  score = Grade("12,0.0,0.0,0.0,0.0,0.0,1.0\n7,0,1,0,0,0,0\n30,1,0,0,0,0,0\n7,0,1,0,0,0,0\n");
  ASSERT_TRUE(score.ok()) << score.status();
  const double ceiling = std::log(1 / (1 - kEps));
  const double row7 = 0.5 * std::log(0.5 / (1 - kEps)) + 0.5 * std::log(0.5 / kEps);
  EXPECT_NEAR(*score, (2 * ceiling + 2 * row7) / 4, 1e-12);
}

TEST(HmsGradeTest, HandComputedScore) {
  // Rows sorted by eeg_id: 7, 7, 12, 30.
  const double row7 = 0.5 * std::log(0.5 / 0.25) + 0.5 * std::log(0.5 / 0.25);
  const double row12 = std::log(1 / 0.5);
  const double row30 = std::log(1 / kEps);  // a zero prediction is clipped to eps
  absl::StatusOr<double> score = Grade(
      "30,0,1,0,0,0,0\n"
      "7,0.25,0.25,0,0,0.25,0.25\n"
      "12,0.1,0.1,0.1,0.1,0.1,0.5\n"
      "7,0.25,0.25,0,0,0.25,0.25\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_NEAR(*score, (row7 + row7 + row12 + row30) / 4, 1e-12);
  EXPECT_NEAR(*score, 9.15455448414763, 1e-13);  // upstream's grade.py
  // Uniform predictions (the sample submission).
  const double u = 1.0 / 6;
  const std::string uniform = "0.16666666666666666,0.16666666666666666,0.16666666666666666,"
                              "0.16666666666666666,0.16666666666666666,0.16666666666666666\n";
  score = Grade("30," + uniform + "7," + uniform + "7," + uniform + "12," + uniform);
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_NEAR(*score, (2 * std::log(1 / u) + 2 * std::log(0.5 / u)) / 4, 1e-12);
}

TEST(HmsGradeTest, ColumnsAndRows) {
  ExpectInvalid(Grade("30,1,0,0,0,0,0\n7,0,0.5,0,0,0,0.5\n7,0,0.5,0,0,0,0.5\n12,0,0,0,0,0,1\n",
                      "id,seizure_vote,lpd_vote,gpd_vote,lrda_vote,grda_vote,other_vote\n"),
                "eeg_id");
  ExpectInvalid(Grade("30,1,0,0,0,0\n7,0,0.5,0,0,0.5\n7,0,0.5,0,0,0.5\n12,0,0,0,0,1\n",
                      "eeg_id,seizure_vote,lpd_vote,gpd_vote,lrda_vote,grda_vote\n"),
                "other_vote");
  ExpectInvalid(Grade("30,1,0,0,0,0,0\n7,0,0.5,0,0,0,0.5\n12,0,0,0,0,0,1\n"), "same length");
  // Same length, different ids (a duplicate standing in for a missing one).
  ExpectInvalid(Grade("30,1,0,0,0,0,0\n7,0,0.5,0,0,0,0.5\n7,0,0.5,0,0,0,0.5\n30,0,0,0,0,0,1\n"),
                "same IDs");
  ExpectInvalid(Grade("30,1,0,0,0,0,0\n7,0,0.5,0,0,0,0.5\n7,0,0.5,0,0,0,0.5\n13,0,0,0,0,0,1\n"),
                "same IDs");
  ExpectInvalid(Grade("30,1,0,0,0,0,0\n7,0,0.5,0,0,0,0.5\n7,0,0.5,0,0,0,0.5\n,0,0,0,0,0,1\n"),
                "same IDs");
}

TEST(HmsGradeTest, RowsMustSumToOneAfterRoundingToFiveDecimals) {
  // A sum of 0.999996 rounds to 1.0 and passes, 0.99999 does not (nor does
  // 1.000004: it rounds to 1.0 but is above one).
  ExpectInvalid(
      Grade("30,1.000004,0,0,0,0,0\n7,0,0.5,0,0,0,0.5\n7,0,0.5,0,0,0,0.5\n12,0,0,0,0,0,1\n"),
      "no greater than one");
  ExpectInvalid(
      Grade("30,0.99999,0,0,0,0,0\n7,0,0.5,0,0,0,0.5\n7,0,0.5,0,0,0,0.5\n12,0,0,0,0,0,1\n"),
      "add to 1");
  absl::StatusOr<double> score =
      Grade("30,0.999996,0,0,0,0,0\n7,0,0.5,0,0,0,0.5\n7,0,0.5,0,0,0,0.5\n12,0,0,0,0,0,1\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_NEAR(*score, 1.0000020002626692e-06, 1e-18);  // upstream's grade.py
  ExpectInvalid(
      Grade("30,0.5,0.50001,0,0,0,0\n7,0,0.5,0,0,0,0.5\n7,0,0.5,0,0,0,0.5\n12,0,0,0,0,0,1\n"),
      "add to 1");
  ExpectInvalid(Grade("30,0.5,0,0,0,0,0\n7,0,0.5,0,0,0,0.5\n7,0,0.5,0,0,0,0.5\n12,0,0,0,0,0,1\n"),
                "add to 1");
  // An all-missing row sums to 0.
  ExpectInvalid(Grade("30,,,,,,\n7,0,0.5,0,0,0,0.5\n7,0,0.5,0,0,0,0.5\n12,0,0,0,0,0,1\n"),
                "add to 1");
  ExpectInvalid(Grade("30,inf,0,0,0,0,0\n7,0,0.5,0,0,0,0.5\n7,0,0.5,0,0,0,0.5\n12,0,0,0,0,0,1\n"),
                "add to 1");
  ExpectInvalid(Grade("30,x,1,0,0,0,0\n7,0,0.5,0,0,0,0.5\n7,0,0.5,0,0,0,0.5\n12,0,0,0,0,0,1\n"),
                "text");
}

TEST(HmsGradeTest, KaggleProbabilityChecks) {
  // Negative and > 1 values that still sum to one.
  ExpectInvalid(
      Grade("30,1.5,-0.5,0,0,0,0\n7,0,0.5,0,0,0,0.5\n7,0,0.5,0,0,0,0.5\n12,0,0,0,0,0,1\n"),
      "at least zero");
  ExpectInvalid(
      Grade("30,1.5,0,0,0,0,-0.5\n7,0,0.5,0,0,0,0.5\n7,0,0.5,0,0,0,0.5\n12,0,0,0,0,0,1\n"),
      "at least zero");
  // Extra columns take part in Kaggle's checks: text is not numeric, a
  // nonzero number breaks the row sums, zeros are harmless.
  const std::string extra_header = std::string(kHeader).insert(std::string(kHeader).size() - 1,
                                                               ",note");
  ExpectInvalid(Grade("30,1,0,0,0,0,0,a\n7,0,0.5,0,0,0,0.5,b\n7,0,0.5,0,0,0,0.5,c\n"
                      "12,0,0,0,0,0,1,d\n",
                      extra_header),
                "numeric");
  ExpectInvalid(Grade("30,1,0,0,0,0,0,1\n7,0,0.5,0,0,0,0.5,0\n7,0,0.5,0,0,0,0.5,0\n"
                      "12,0,0,0,0,0,1,0\n",
                      extra_header),
                "do not add to one");
  EXPECT_TRUE(Grade("30,1,0,0,0,0,0,0\n7,0,0.5,0,0,0,0.5,0\n7,0,0.5,0,0,0,0.5,0\n"
                    "12,0,0,0,0,0,1,0\n",
                    extra_header)
                  .ok());
}

TEST(HmsGradeTest, MissingPredictionPassesAndDropsOutOfTheLoss) {
  // Row 30 predicts seizure 1 and leaves another cell empty: the NaN is
  // skipped by every check and by the row's loss sum. seizure_vote is int64
  // (unclipped), so only row 12's clipped 1 costs anything; upstream's
  // grade.py gives 2.77555756156289e-16.
  absl::StatusOr<double> score =
      Grade("30,1,,0,0,0,0\n7,0,0.5,0,0,0,0.5\n7,0,0.5,0,0,0,0.5\n12,0,0,0,0,0,1\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_EQ(*score, 2.77555756156289e-16);
}

TEST(HmsGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  absl::StatusOr<double> score = testing::GradeCsvText(
      kId, std::string(kHeader) + "1,1,0,0,0,0,0\n", "eeg_id,seizure_vote\n1,1\n");
  ASSERT_FALSE(score.ok());
  EXPECT_FALSE(IsInvalidSubmission(score.status())) << score.status();
}

}  // namespace
}  // namespace mlebench::grade_test
