#include <cmath>
#include <string>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

using testing::ExpectInvalid;
using testing::GradeCsvText;

// Every case below was also run through upstream's grade.py (pandas read_csv
// of the same text): same scores, and it raises exactly where we say invalid.
constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// One case-day of two 4 x 4 slices: the stomach fills the first column of
// both; the large bowel is absent. Sizes are floats, as prepare writes them.
constexpr char kAnswers[] =
    "id,class,predicted,image_width,image_height\n"
    "case1_day1_slice_0001,stomach,1 4,4.0,4.0\n"
    "case1_day1_slice_0001,large_bowel,,4.0,4.0\n"
    "case1_day1_slice_0002,stomach,1 4,4.0,4.0\n";

absl::StatusOr<double> Grade(const std::string& submission) {
  return GradeCsvText(kId, submission, kAnswers);
}

TEST(UwMadisonGradeTest, RegisteredWithUpstreamMetricName) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(UwMadisonGradeTest, PerfectSubmission) {
  EXPECT_DOUBLE_EQ(*Grade("id,class,predicted\n"
                          "case1_day1_slice_0001,stomach,1 4\n"
                          "case1_day1_slice_0001,large_bowel,\n"
                          "case1_day1_slice_0002,stomach,1 4\n"),
                   1.0);
}

// Dice: 2 * 2 / (2 + 4), NaN (both empty, skipped), 1: mean 5/6.
// Hausdorff over the case-day: the prediction lacks rows 2..3 of slice 1,
// whose nearest predicted voxels are half the (normalised) height or depth
// away: 0.5 / sqrt(3).
const double kWrongScore = 0.4 * 5.0 / 6.0 + 0.6 * (1.0 - 0.5 / std::sqrt(3.0));

TEST(UwMadisonGradeTest, HandComputedScore) {
  EXPECT_DOUBLE_EQ(*Grade("id,class,predicted\n"
                          "case1_day1_slice_0001,stomach,1 2\n"
                          "case1_day1_slice_0001,large_bowel,\n"
                          "case1_day1_slice_0002,stomach,1 4\n"),
                   kWrongScore);
}

TEST(UwMadisonGradeTest, ExtraColumnsAndColumnOrderAreFine) {
  EXPECT_DOUBLE_EQ(*Grade("predicted,extra,class,id\n"
                          "1 2,x,stomach,case1_day1_slice_0001\n"
                          ",y,large_bowel,case1_day1_slice_0001\n"
                          "1 4,z,stomach,case1_day1_slice_0002\n"),
                   kWrongScore);
}

TEST(UwMadisonGradeTest, SampleSubmissionIsValid) {
  // "1 1 5 2" everywhere: pixels 1, 5 and 6, i.e. one cell of column 1 and
  // two of column 2. The value is upstream's grade.py on the same CSVs.
  const absl::StatusOr<double> score = Grade(
      "id,class,predicted\n"
      "case1_day1_slice_0001,stomach,1 1 5 2\n"
      "case1_day1_slice_0001,large_bowel,1 1 5 2\n"
      "case1_day1_slice_0002,stomach,1 1 5 2\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_NEAR(*score, 0.4825413088801053, 1e-15);
}

TEST(UwMadisonGradeTest, RowsArePairedByPositionNotById) {
  // Upstream zips rows: the ids only group rows into case-days.
  EXPECT_DOUBLE_EQ(*Grade("id,class,predicted\n"
                          "case1_day1_slice_0001,stomach,1 4\n"
                          "case1_day1_slice_0001,stomach,\n"
                          "case1_day1_slice_0002,stomach,1 4\n"),
                   1.0);
}

TEST(UwMadisonGradeTest, RowCountsNeedNotMatch) {
  // Fewer rows: only the paired rows are scored: Dice over row 1 only (2/3);
  // the one-slice predicted day against the two-slice true one, normalised by
  // the truth's shape, misses (1, 3, 0) by half the depth and half the height.
  EXPECT_DOUBLE_EQ(*Grade("id,class,predicted\n"
                          "case1_day1_slice_0001,stomach,1 2\n"),
                   0.4 * 2.0 / 3.0 + 0.6 * (1.0 - std::sqrt(0.5) / std::sqrt(3.0)));
  // More rows: the unpaired ones are never decoded, bad RLE or not.
  EXPECT_DOUBLE_EQ(*Grade("id,class,predicted\n"
                          "case1_day1_slice_0001,stomach,1 4\n"
                          "case1_day1_slice_0001,large_bowel,\n"
                          "case1_day1_slice_0002,stomach,1 4\n"
                          "case9_day9_slice_0009,stomach,9 1 1 1\n"),
                   1.0);
  // No rows at all: both means are of nothing, NaN.
  const absl::StatusOr<double> empty = Grade("id,class,predicted\n");
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_TRUE(std::isnan(*empty));
}

TEST(UwMadisonGradeTest, MissingColumns) {
  ExpectInvalid(Grade("id,class\ncase1_day1_slice_0001,stomach\n"), "columns");
  ExpectInvalid(Grade("id,predicted\ncase1_day1_slice_0001,1 4\n"), "columns");
  ExpectInvalid(Grade("class,predicted\nstomach,1 4\n"), "columns");
}

TEST(UwMadisonGradeTest, NonTextPredictions) {
  // A column of numbers reads as numbers, which rle_decode rejects.
  ExpectInvalid(Grade("id,class,predicted\n"
                      "case1_day1_slice_0001,stomach,4\n"
                      "case1_day1_slice_0001,large_bowel,\n"
                      "case1_day1_slice_0002,stomach,4\n"),
                "text");
}

TEST(UwMadisonGradeTest, BadRunLengthEncodings) {
  for (const char* rle : {"3 1 1 1", "0 2", "1 0", "1 3 2 2", "a b", "1 -2", "1 1 3 1 5"}) {
    ExpectInvalid(Grade(std::string("id,class,predicted\n"
                                    "case1_day1_slice_0001,stomach,") +
                        rle +
                        "\n"
                        "case1_day1_slice_0001,large_bowel,\n"
                        "case1_day1_slice_0002,stomach,1 4\n"),
                  "");
  }
}

TEST(UwMadisonGradeTest, NonTextIds) {
  ExpectInvalid(Grade("id,class,predicted\n1,stomach,1 4\n2,large_bowel,\n3,stomach,1 4\n"), "id");
  ExpectInvalid(Grade("id,class,predicted\n"
                      ",stomach,1 4\n"
                      "case1_day1_slice_0001,large_bowel,\n"
                      "case1_day1_slice_0002,stomach,1 4\n"),
                "id");
}

TEST(UwMadisonGradeTest, SlicesOfDifferentShapesInOneDay) {
  // The submission groups rows decoded with different answer shapes into one
  // case-day: numpy cannot stack (or OR) them.
  constexpr char kMixed[] =
      "id,class,predicted,image_width,image_height\n"
      "a_day1_slice_0001,stomach,1 4,4.0,4.0\n"
      "b_day1_slice_0001,stomach,1 2,2.0,2.0\n";
  ExpectInvalid(GradeCsvText(kId,
                             "id,class,predicted\n"
                             "a_day1_slice_0001,stomach,1 4\n"
                             "a_day1_slice_0002,stomach,1 2\n",
                             kMixed),
                "submission");
  EXPECT_DOUBLE_EQ(*GradeCsvText(kId,
                                 "id,class,predicted\n"
                                 "a_day1_slice_0001,stomach,1 4\n"
                                 "b_day1_slice_0001,stomach,1 2\n",
                                 kMixed),
                   1.0);
}

TEST(UwMadisonGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  const char* submission = "id,class,predicted\ncase1_day1_slice_0001,stomach,1 4\n";
  for (const char* answers : {
           "id,class,predicted,image_width\ncase1_day1_slice_0001,stomach,1 4,4.0\n",
           "id,class,predicted,image_width,image_height\ncase1_day1_slice_0001,stomach,1 4,4.0,\n",
           "id,class,predicted,image_width,image_height\ncase1_day1_slice_0001,stomach,3 1 1 "
           "1,4.0,4.0\n",
       }) {
    const absl::StatusOr<double> result = GradeCsvText(kId, submission, answers);
    EXPECT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
