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

// private/answers.csv: the test rows of train.csv.
constexpr std::string_view kAnswers =
    "id,molecule_name,atom_index_0,atom_index_1,type,scalar_coupling_constant\n"
    "10,dsgdb9nsd_000002,1,0,1JHN,32.6889\n"
    "11,dsgdb9nsd_000002,1,2,2JHH,-11.1866\n"
    "12,dsgdb9nsd_000002,1,3,2JHH,-11.1757\n"
    "40,dsgdb9nsd_000007,2,0,1JHC,83.5430\n";

absl::StatusOr<double> Grade(std::string_view submission) {
  return testing::GradeCsvText(kId, submission, kAnswers);
}

using testing::ExpectInvalid;

TEST(ChampsGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(ChampsGradeTest, PerfectIsMinusInfinity) {
  // log(0) for every type: upstream returns -inf.
  EXPECT_EQ(*Grade("id,scalar_coupling_constant\n40,83.5430\n11,-11.1866\n10,32.6889\n"
                   "12,-11.1757\n"),
            -INFINITY);
}

TEST(ChampsGradeTest, HandComputed) {
  // 1JHC error 2, 1JHN error 0.5, 2JHH errors 1 and 3 (MAE 2).
  const double expected = (std::log(2.0) + std::log(0.5) + std::log(2.0)) / 3;
  EXPECT_DOUBLE_EQ(*Grade("scalar_coupling_constant,id,x\n85.5430,40,a\n32.1889,10,b\n"
                          "-10.1866,11,c\n-14.1757,12,d\n"),
                   expected);
  // Integer ids written as floats match; a repeated id is scored twice
  // (2JHH then has errors 1, 3 and 1: MAE 5/3).
  EXPECT_DOUBLE_EQ(*Grade("id,scalar_coupling_constant\n40.0,85.5430\n10,32.1889\n"
                          "11,-10.1866\n12,-14.1757\n11,-10.1866\n"),
                   (std::log(2.0) + std::log(0.5) + std::log(5.0 / 3)) / 3);
  // One perfect type makes the mean -inf.
  EXPECT_EQ(*Grade("id,scalar_coupling_constant\n40,83.5430\n10,32.1889\n11,-10.1866\n"
                   "12,-14.1757\n"),
            -INFINITY);
}

TEST(ChampsGradeTest, RejectsMissingColumns) {
  ExpectInvalid(Grade("id,prediction\n40,1\n10,1\n11,1\n12,1\n"),
                "Target column scalar_coupling_constant not found");
  ExpectInvalid(Grade("ID,scalar_coupling_constant\n40,1\n10,1\n11,1\n12,1\n"),
                "ID column not found");
}

TEST(ChampsGradeTest, RejectsMissingOrUnknownIds) {
  ExpectInvalid(Grade("id,scalar_coupling_constant\n40,1\n10,1\n11,1\n"), "ids differ");
  ExpectInvalid(Grade("id,scalar_coupling_constant\n40,1\n10,1\n11,1\n12,1\n13,1\n"),
                "ids differ");
  ExpectInvalid(Grade("id,scalar_coupling_constant\n40,1\n10,1\n11,1\n,1\n"), "ids differ");
  ExpectInvalid(Grade("id,scalar_coupling_constant\n"), "ids differ");
}

TEST(ChampsGradeTest, RejectsBadPredictions) {
  for (std::string_view bad : {"", "nan", "inf", "big"}) {
    SCOPED_TRACE(bad);
    ExpectInvalid(Grade("id,scalar_coupling_constant\n40,1\n10," + std::string(bad) +
                        "\n11,1\n12,1\n"),
                  "");
  }
}

TEST(ChampsGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers :
       {"id,scalar_coupling_constant\n1,5\n", "id,type\n1,1JHC\n",
        "id,type,scalar_coupling_constant\n1,1JHC,\n"}) {
    SCOPED_TRACE(answers);
    const absl::StatusOr<double> result =
        testing::GradeCsvText(kId, "id,scalar_coupling_constant\n1,5\n", answers);
    ASSERT_FALSE(result.ok());
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
