#include <cmath>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

constexpr std::string_view kAnswers =
    "contact_id,game_play,datetime,step,nfl_player_id_1,nfl_player_id_2,contact\n"
    "58168_003392_0_38590_43854,58168_003392,2020-09-11T03:01:48.100Z,0,38590,43854,1\n"
    "58168_003392_0_38590_G,58168_003392,2020-09-11T03:01:48.100Z,0,38590,G,0\n"
    "58168_003392_1_38590_43854,58168_003392,2020-09-11T03:01:48.200Z,1,38590,43854,1\n"
    "58168_003392_1_38590_G,58168_003392,2020-09-11T03:01:48.200Z,1,38590,G,0\n";

absl::StatusOr<double> Grade(std::string_view submission) {
  return testing::GradeCsvText(kId, submission, kAnswers);
}

TEST(NflContactGradeTest, PerfectSubmissionInAnyOrderScoresOne) {
  absl::StatusOr<double> score = Grade(
      "contact_id,contact\n58168_003392_1_38590_G,0\n58168_003392_0_38590_43854,1\n"
      "58168_003392_1_38590_43854,1\n58168_003392_0_38590_G,0\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_EQ(*score, 1.0);
}

TEST(NflContactGradeTest, PartialAndConstantSubmissions) {
  // tp 1, fn 1, tn 2, fp 0: (1*2 - 0*1) / sqrt(1 * 2 * 2 * 3).
  absl::StatusOr<double> score = Grade(
      "contact_id,contact\n58168_003392_0_38590_43854,1\n58168_003392_0_38590_G,0\n"
      "58168_003392_1_38590_43854,0\n58168_003392_1_38590_G,0\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_NEAR(*score, 2 / std::sqrt(12.0), 1e-15);
  // The sample submission (all 0) scores 0.
  score = Grade("contact_id,contact\n58168_003392_0_38590_43854,0\n58168_003392_0_38590_G,0\n"
                "58168_003392_1_38590_43854,0\n58168_003392_1_38590_G,0\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_EQ(*score, 0.0);
}

TEST(NflContactGradeTest, InvalidSubmissions) {
  testing::ExpectInvalid(Grade("contact_id,prediction\na,1\n"), "must have columns");
  testing::ExpectInvalid(Grade("contact_id,contact\n58168_003392_0_38590_43854,1\n"), "inconsistent");
  testing::ExpectInvalid(Grade("contact_id,contact\n58168_003392_0_38590_43854,1\n58168_003392_0_38590_G,0\n"
                               "58168_003392_1_38590_43854,1\n58168_003392_1_38590_G,0\nother,1\n"),
                         "inconsistent");
  testing::ExpectInvalid(Grade("contact_id,contact\n58168_003392_0_38590_43854,1\n58168_003392_0_38590_G,0\n"
                               "58168_003392_1_38590_43854,1\n58168_003392_1_38590_G,0\n"
                               "58168_003392_1_38590_G,0\n"),
                         "different lengths");
  // Probabilities are continuous; NaN and text labels are rejected too.
  for (const char* values : {"0.9,0.1,0.8,0.2", ",0,1,0", "yes,no,yes,no"}) {
    SCOPED_TRACE(values);
    std::string v(values);
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t comma; (comma = v.find(',', start)) != std::string::npos; start = comma + 1) {
      parts.push_back(v.substr(start, comma - start));
    }
    parts.push_back(v.substr(start));
    testing::ExpectInvalid(Grade("contact_id,contact\n58168_003392_0_38590_43854," + parts[0] +
                                 "\n58168_003392_0_38590_G," + parts[1] + "\n58168_003392_1_38590_43854," +
                                 parts[2] + "\n58168_003392_1_38590_G," + parts[3] + "\n"),
                           "matthews_corrcoef");
  }
}

}  // namespace
}  // namespace mlebench::grade_test
