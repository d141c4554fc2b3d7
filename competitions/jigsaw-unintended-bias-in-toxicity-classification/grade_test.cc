#include <cmath>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// Answers in the raw test_private_expanded.csv's style (abridged to the
// columns the grader reads, plus one it ignores): fractional toxicity and
// identity scores, identities missing for some rows. Thresholded at 0.5:
// row 11 toxic in every identity, 12 non-toxic in every identity, 13 toxic in
// none, 14 non-toxic in none (NaN identities count as 0).
constexpr std::string_view kAnswers =
    "id,comment_text,toxicity,male,female,homosexual_gay_or_lesbian,christian,jewish,muslim,"
    "black,white,psychiatric_or_mental_illness,asian\n"
    "13,\"you idiot, go away\",0.9,0.0,0.1,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.6\n"
    "12,nice point,0.1,0.5,0.6,0.7,0.8,0.9,1.0,0.5,0.5,0.5,0.0\n"
    "11,\"stupid \"\"people\"\"\",0.5,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,0.0\n"
    "14,thanks,0.0,,,,,,,,,,\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(JigsawUnintendedBiasGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(JigsawUnintendedBiasGradeTest, PerfectSubmissionScoresOne) {
  EXPECT_EQ(*Grade("id,prediction\n14,0.1\n13,0.99\n12,0.2\n11,0.5\n"), 1.0);
  // Upstream also grades the answers themselves (a `toxicity` column).
  EXPECT_EQ(*Grade(kAnswers), 1.0);
}

TEST(JigsawUnintendedBiasGradeTest, HandComputedScore) {
  // Thresholded predictions: 11 -> 1, 12 -> 1, 13 -> 0, 14 (NaN) -> 0.
  // Overall: toxic {11: 1, 13: 0} vs non-toxic {12: 1, 14: 0}: (0.5 + 1 + 0
  // + 0.5) / 4 = 0.5. Every identity: subgroup {11, 12}: 0.5; BPSN (12 vs
  // 13): 0; BNSP (11 vs 14): 1.
  const double subgroup_mean = std::pow(9 * std::pow(0.5, -5.0) / 9, -0.2);
  const double expected = 0.25 * 0.5 + ((0.25 * subgroup_mean + 0.25 * 0.0) + 0.25 * 1.0);
  EXPECT_EQ(*Grade("id,prediction,extra\n11,0.7,a\n12,0.9,b\n13,0.2,c\n14,,d\n"), expected);
  // Bools are 0/1.
  EXPECT_EQ(*Grade("id,prediction\n11,True\n12,True\n13,False\n14,\n"), expected);
  // 11 -> 1, 12 -> 0, 13 -> 0, 14 -> 1: overall 0.5; subgroup 1; BPSN (12
  // vs 13) and BNSP (11 vs 14) ties, 0.5. Upstream's grade.py gives 0.625.
  EXPECT_EQ(*Grade("id,prediction\n11,1\n12,0\n13,0\n14,1\n"),
            0.25 * 0.5 + ((0.25 * 1.0 + 0.25 * 0.5) + 0.25 * 0.5));
  // The sample submission (all 0.0): every AUC 0.5.
  EXPECT_EQ(*Grade("id,prediction\n11,0.0\n12,0.0\n13,0.0\n14,0.0\n"), 0.5);
}

TEST(JigsawUnintendedBiasGradeTest, InvalidSubmissions) {
  ExpectInvalid(Grade("ID,prediction\n11,1\n12,0\n13,1\n14,0\n"), "must have an 'id' column");
  ExpectInvalid(Grade("id,target\n11,1\n12,0\n13,1\n14,0\n"), "must have a 'prediction' column");
  ExpectInvalid(Grade("id,prediction\n11,1\n12,0\n13,1\n"), "do not match");
  ExpectInvalid(Grade("id,prediction\n11,1\n12,0\n13,1\n14,0\n14,0\n"), "do not match");
  ExpectInvalid(Grade("id,prediction\n11,1\n12,0\n13,1\n15,0\n"), "do not match");
  ExpectInvalid(Grade("id,prediction\n11,1\n12,0\n13,1\n13,0\n"), "do not match");
  ExpectInvalid(Grade("id,prediction\n11,1\n12,0\n13,1\n,0\n"), "do not match");
  // A text id makes the whole column text: "11" is not 11.
  ExpectInvalid(Grade("id,prediction\n11,1\n12,0\n13,1\nx,0\n"), "do not match");
  ExpectInvalid(Grade("id,prediction\n11,1\n12,0\n13,high\n14,0\n"),
                "'>=' not supported between instances of 'str' and 'float'");
  ExpectInvalid(Grade("id,prediction,toxicity\n11,1,1\n12,0,0\n13,1,1\n14,0,0\n"),
                "both 'prediction' and 'toxicity'");
}

TEST(JigsawUnintendedBiasGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  const std::string submission = "id,prediction\n1,1\n2,0\n3,1\n4,0\n";
  const std::string header =
      "id,toxicity,male,female,homosexual_gay_or_lesbian,christian,jewish,muslim,black,white,"
      "psychiatric_or_mental_illness\n";
  const std::string all_in = "1,1,1,1,1,1,1,1,1\n";
  const std::string none_in = "0,0,0,0,0,0,0,0,0\n";
  for (const auto& [sub, answers] : std::vector<std::pair<std::string, std::string>>{
           // No toxicity column; no id column; no identity columns.
           {submission, "id,male\n1,1\n2,0\n3,1\n4,0\n"},
           {submission, "toxicity,male\n1,1\n0,0\n1,1\n0,0\n"},
           {submission, "id,toxicity\n1,1\n2,0\n3,1\n4,0\n"},
           // Duplicate ids (the submission repeats them too).
           {"id,prediction\n1,1\n1,0\n3,1\n4,0\n",
            header + "1,1," + all_in + "1,0," + all_in + "3,1," + none_in + "4,0," + none_in},
           // Text toxicity.
           {submission,
            header + "1,x," + all_in + "2,0," + all_in + "3,1," + none_in + "4,0," + none_in},
           // Everyone in every identity: a BPSN subset has one class.
           {submission,
            header + "1,1," + all_in + "2,0," + all_in + "3,1," + all_in + "4,0," + all_in},
       }) {
    absl::StatusOr<double> result = Grade(sub, answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers << ": " << result.status();
  }
  // The same answers minus the problem grade fine.
  EXPECT_TRUE(Grade(submission, header + "1,1," + all_in + "2,0," + all_in + "3,1," + none_in +
                                    "4,0," + none_in)
                  .ok());
}

}  // namespace
}  // namespace mlebench::grade_test
