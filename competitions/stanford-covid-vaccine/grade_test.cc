#include <cmath>
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

// private/test.csv: two sequences of 3 positions, the first 2 scored.
constexpr std::string_view kAnswers =
    "id_seqpos,reactivity,deg_Mg_pH10,deg_pH10,deg_Mg_50C,deg_50C,keep\n"
    "id_a_0,0.5000000000,1.0000000000,0.2000000000,0.3000000000,0.1000000000,True\n"
    "id_a_1,0.2500000000,0.5000000000,0.2000000000,0.7000000000,0.1000000000,True\n"
    "id_a_2,0.0000000000,0.0000000000,0.0000000000,0.0000000000,0.0000000000,False\n"
    "id_b_0,1.0000000000,2.0000000000,0.2000000000,1.5000000000,0.1000000000,True\n"
    "id_b_1,3.0000000000,0.0000000000,0.2000000000,0.2500000000,0.1000000000,True\n"
    "id_b_2,0.0000000000,0.0000000000,0.0000000000,0.0000000000,0.0000000000,False\n";

constexpr std::string_view kHeader =
    "id_seqpos,reactivity,deg_Mg_pH10,deg_pH10,deg_Mg_50C,deg_50C\n";

absl::StatusOr<double> Grade(std::string_view submission) {
  return testing::GradeCsvText(kId, submission, kAnswers);
}

using testing::ExpectInvalid;

TEST(StanfordCovidGradeTest, RegisteredUnderTheConfigsName) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(StanfordCovidGradeTest, PerfectAndUnscoredColumnsIgnored) {
  EXPECT_EQ(*Grade(kAnswers), 0.0);
  // deg_pH10, deg_50C and the keep=False rows are never scored.
  EXPECT_EQ(*Grade(std::string(kHeader) +
                   "id_a_0,0.5,1,9,0.3,9\nid_a_1,0.25,0.5,9,0.7,9\nid_a_2,9,9,9,9,9\n"
                   "id_b_0,1,2,9,1.5,9\nid_b_1,3,0,9,0.25,9\nid_b_2,9,9,9,9,9\n"),
            0.0);
}

TEST(StanfordCovidGradeTest, HandComputedMcrmse) {
  // reactivity off by 1 once: sqrt(1/4) = 0.5; deg_Mg_pH10 exact; deg_Mg_50C
  // off by 2 once: sqrt(4/4) = 1. Mean: 0.5.
  EXPECT_DOUBLE_EQ(*Grade(std::string(kHeader) +
                          "id_a_0,1.5,1,0,0.3,0\nid_a_1,0.25,0.5,0,0.7,0\nid_a_2,0,0,0,0,0\n"
                          "id_b_0,1,2,0,1.5,0\nid_b_1,3,0,0,2.25,0\nid_b_2,0,0,0,0,0\n"),
                   0.5);
  // The all-zero sample submission.
  const double reactivity = std::sqrt((0.25 + 0.0625 + 1 + 9) / 4);
  const double mg_ph10 = std::sqrt((1 + 0.25 + 4 + 0) / 4);
  const double mg_50c = std::sqrt((0.09 + 0.49 + 2.25 + 0.0625) / 4);
  EXPECT_NEAR(*Grade(std::string(kHeader) +
                     "id_a_0,0,0,0,0,0\nid_a_1,0,0,0,0,0\nid_a_2,0,0,0,0,0\n"
                     "id_b_0,0,0,0,0,0\nid_b_1,0,0,0,0,0\nid_b_2,0,0,0,0,0\n"),
              (reactivity + mg_ph10 + mg_50c) / 3, 1e-12);
}

TEST(StanfordCovidGradeTest, ShuffledRowsAreMaskedByOriginalRowLabel) {
  // Upstream's quirk: the keep mask aligns on row labels, so the perfect
  // predictions in reversed order are scored as the kept sorted rows id_a_1,
  // id_a_2, id_b_1, id_b_2 against the answers' id_a_0, id_a_1, id_b_0,
  // id_b_1 (upstream's grade.py gives the same number).
  const double reactivity = std::sqrt((0.0625 + 0.0625 + 4 + 9) / 4);
  const double mg_ph10 = std::sqrt((0.25 + 0.25 + 4 + 0) / 4);
  const double mg_50c = std::sqrt((0.16 + 0.49 + 1.5625 + 0.0625) / 4);
  EXPECT_NEAR(*Grade(std::string(kHeader) +
                     "id_b_2,0,0,0,0,0\nid_b_1,3,0,0.2,0.25,0.1\nid_b_0,1,2,0.2,1.5,0.1\n"
                     "id_a_2,0,0,0,0,0\nid_a_1,0.25,0.5,0.2,0.7,0.1\nid_a_0,0.5,1,0.2,0.3,0.1\n"),
              (reactivity + mg_ph10 + mg_50c) / 3, 1e-12);
}

TEST(StanfordCovidGradeTest, RejectsMissingColumns) {
  // deg_pH10 and deg_50C are required though unscored.
  ExpectInvalid(Grade("id_seqpos,reactivity,deg_Mg_pH10,deg_Mg_50C\n"
                      "id_a_0,0,0,0\nid_a_1,0,0,0\nid_a_2,0,0,0\n"
                      "id_b_0,0,0,0\nid_b_1,0,0,0\nid_b_2,0,0,0\n"),
                "Expected the submission to have columns");
  ExpectInvalid(Grade("id,reactivity,deg_Mg_pH10,deg_pH10,deg_Mg_50C,deg_50C\n"
                      "id_a_0,0,0,0,0,0\nid_a_1,0,0,0,0,0\nid_a_2,0,0,0,0,0\n"
                      "id_b_0,0,0,0,0,0\nid_b_1,0,0,0,0,0\nid_b_2,0,0,0,0,0\n"),
                "Expected the submission to have columns");
}

TEST(StanfordCovidGradeTest, RejectsWrongRowCountsAndIds) {
  ExpectInvalid(Grade(std::string(kHeader) + "id_a_0,0,0,0,0,0\n"), "same length");
  ExpectInvalid(Grade(std::string(kHeader) +
                      "id_a_0,0,0,0,0,0\nid_a_1,0,0,0,0,0\nid_a_2,0,0,0,0,0\n"
                      "id_b_0,0,0,0,0,0\nid_b_1,0,0,0,0,0\nid_b_2,0,0,0,0,0\nid_c_0,0,0,0,0,0\n"),
                "same length");
  // A duplicate, an unknown id, a missing id, a numeric id.
  for (std::string_view first : {"id_a_1", "id_z_0", "", "7"}) {
    SCOPED_TRACE(first);
    ExpectInvalid(Grade(std::string(kHeader) + std::string(first) +
                        ",0,0,0,0,0\nid_a_1,0,0,0,0,0\nid_a_2,0,0,0,0,0\n"
                        "id_b_0,0,0,0,0,0\nid_b_1,0,0,0,0,0\nid_b_2,0,0,0,0,0\n"),
                  "id_seqpos");
  }
}

TEST(StanfordCovidGradeTest, RejectsBadScoredValuesOnlyInKeptRows) {
  for (std::string_view bad : {"", "nan", "inf", "high"}) {
    SCOPED_TRACE(bad);
    ExpectInvalid(Grade(std::string(kHeader) + "id_a_0," + std::string(bad) +
                        ",0,0,0,0\nid_a_1,0,0,0,0,0\nid_a_2,0,0,0,0,0\n"
                        "id_b_0,0,0,0,0,0\nid_b_1,0,0,0,0,0\nid_b_2,0,0,0,0,0\n"),
                  "reactivity");
  }
  // In an unscored row, or an unscored column, anything goes: the kept text
  // cells "0" of the object columns convert to numbers, as in sklearn; the
  // score is the all-zero one (upstream's grade.py agrees).
  EXPECT_NEAR(*Grade(std::string(kHeader) +
                     "id_a_0,0,0,0,0,0\nid_a_1,0,0,0,0,0\nid_a_2,,high,x,nan,\n"
                     "id_b_0,0,0,x,0,0\nid_b_1,0,0,0,0,0\nid_b_2,0,0,0,0,0\n"),
              1.2005551878856162, 1e-12);
}

}  // namespace
}  // namespace mlebench::grade_test
