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

// private/test.csv: every column of train.csv.
constexpr std::string_view kAnswers =
    "Id,Subject Focus,Eyes,Face,Near,Action,Accessory,Group,Collage,Human,Occlusion,Info,Blur,"
    "Pawpularity\n"
    "c3a1e0f2b9d84e7aa0f1b2c3d4e5f607,0,1,1,1,0,0,1,0,0,0,0,0,63\n"
    "0007de18844b0dbbb5e1f607da0606e0,0,1,1,1,0,0,0,0,0,0,0,0,42\n"
    "8b2f0c1d9e3a4f5b6c7d8e9fa0b1c2d3,0,1,1,0,0,0,0,0,1,1,0,1,28\n";

absl::StatusOr<double> Grade(std::string_view submission) {
  return testing::GradeCsvText(kId, submission, kAnswers);
}

using testing::ExpectInvalid;

TEST(PetfinderGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(PetfinderGradeTest, PerfectInAnyRowOrderWithExtraColumns) {
  EXPECT_EQ(*Grade("Id,Pawpularity\n0007de18844b0dbbb5e1f607da0606e0,42\n"
                   "8b2f0c1d9e3a4f5b6c7d8e9fa0b1c2d3,28.0\nc3a1e0f2b9d84e7aa0f1b2c3d4e5f607,63\n"),
            0.0);
  EXPECT_EQ(*Grade("Pawpularity,Id,Eyes\n63,c3a1e0f2b9d84e7aa0f1b2c3d4e5f607,1\n"
                   "28,8b2f0c1d9e3a4f5b6c7d8e9fa0b1c2d3,1\n42,0007de18844b0dbbb5e1f607da0606e0,0\n"),
            0.0);
}

TEST(PetfinderGradeTest, HandComputedRmse) {
  // Errors 3, -4 and 0: sqrt((9 + 16 + 0) / 3).
  EXPECT_DOUBLE_EQ(*Grade("Id,Pawpularity\n0007de18844b0dbbb5e1f607da0606e0,45\n"
                          "8b2f0c1d9e3a4f5b6c7d8e9fa0b1c2d3,24\n"
                          "c3a1e0f2b9d84e7aa0f1b2c3d4e5f607,63\n"),
                   std::sqrt(25.0 / 3.0));
  // The bounds are inclusive; True counts as 1.
  EXPECT_DOUBLE_EQ(*Grade("Id,Pawpularity\n0007de18844b0dbbb5e1f607da0606e0,1\n"
                          "8b2f0c1d9e3a4f5b6c7d8e9fa0b1c2d3,100\n"
                          "c3a1e0f2b9d84e7aa0f1b2c3d4e5f607,1.0\n"),
                   std::sqrt((41.0 * 41 + 72.0 * 72 + 62.0 * 62) / 3.0));
  EXPECT_DOUBLE_EQ(*Grade("Id,Pawpularity\n0007de18844b0dbbb5e1f607da0606e0,True\n"
                          "8b2f0c1d9e3a4f5b6c7d8e9fa0b1c2d3,True\n"
                          "c3a1e0f2b9d84e7aa0f1b2c3d4e5f607,True\n"),
                   std::sqrt((41.0 * 41 + 27.0 * 27 + 62.0 * 62) / 3.0));
}

TEST(PetfinderGradeTest, RejectsMissingColumns) {
  ExpectInvalid(Grade("id,Pawpularity\n0007de18844b0dbbb5e1f607da0606e0,42\n"
                      "8b2f0c1d9e3a4f5b6c7d8e9fa0b1c2d3,28\nc3a1e0f2b9d84e7aa0f1b2c3d4e5f607,63\n"),
                "Missing Id column");
  ExpectInvalid(Grade("Id,score\n0007de18844b0dbbb5e1f607da0606e0,42\n"
                      "8b2f0c1d9e3a4f5b6c7d8e9fa0b1c2d3,28\nc3a1e0f2b9d84e7aa0f1b2c3d4e5f607,63\n"),
                "Missing Pawpularity column");
}

TEST(PetfinderGradeTest, RejectsPredictionsOutsideTheRange) {
  for (std::string_view bad : {"0.99", "100.5", "0", "-5", "", "nan", "inf", "high", "False"}) {
    SCOPED_TRACE(bad);
    ExpectInvalid(Grade("Id,Pawpularity\n0007de18844b0dbbb5e1f607da0606e0,42\n"
                        "8b2f0c1d9e3a4f5b6c7d8e9fa0b1c2d3," +
                        std::string(bad) + "\nc3a1e0f2b9d84e7aa0f1b2c3d4e5f607,63\n"),
                  "between 1 and 100");
  }
}

TEST(PetfinderGradeTest, RejectsWrongIdsAndRowCounts) {
  // Repeated, unknown, missing.
  for (std::string_view id : {"0007de18844b0dbbb5e1f607da0606e0", "ffff", ""}) {
    SCOPED_TRACE(id);
    ExpectInvalid(Grade("Id,Pawpularity\n0007de18844b0dbbb5e1f607da0606e0,42\n" + std::string(id) +
                        ",28\nc3a1e0f2b9d84e7aa0f1b2c3d4e5f607,63\n"),
                  "IDs in submission do not match");
  }
  ExpectInvalid(Grade("Id,Pawpularity\n0007de18844b0dbbb5e1f607da0606e0,42\n"
                      "c3a1e0f2b9d84e7aa0f1b2c3d4e5f607,63\n"),
                "Expected 3 rows in submission, got 2");
  ExpectInvalid(Grade("Id,Pawpularity\n0007de18844b0dbbb5e1f607da0606e0,42\n"
                      "8b2f0c1d9e3a4f5b6c7d8e9fa0b1c2d3,28\nc3a1e0f2b9d84e7aa0f1b2c3d4e5f607,63\n"
                      "c3a1e0f2b9d84e7aa0f1b2c3d4e5f607,63\n"),
                "Expected 3 rows in submission, got 4");
  ExpectInvalid(Grade("Id,Pawpularity\n"), "Expected 3 rows in submission, got 0");
}

TEST(PetfinderGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"Id,Pawpularity\nab,0\n", "Id,Eyes\nab,1\n"}) {
    const absl::StatusOr<double> result =
        testing::GradeCsvText(kId, "Id,Pawpularity\nab,50\n", answers);
    ASSERT_FALSE(result.ok());
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
