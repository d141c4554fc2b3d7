#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

constexpr std::string_view kAnswers =
    "image_id,label,variety,age\n"
    "100002.jpg,blast,ADT45,60\n"
    "100001.jpg,normal,Ponni,45\n"
    "100004.jpg,hispa,ADT45,70\n"
    "100003.jpg,blast,IR20,65\n";

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(PaddyDiseaseGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(PaddyDiseaseGradeTest, PerfectInAnyRowOrder) {
  EXPECT_EQ(*Grade("image_id,label\n100001.jpg,normal\n100002.jpg,blast\n100003.jpg,blast\n"
                   "100004.jpg,hispa\n"),
            1.0);
  // Extra columns are ignored, and the column order does not matter.
  EXPECT_EQ(*Grade("label,age,image_id\nhispa,1,100004.jpg\nblast,2,100003.jpg\n"
                   "normal,3,100001.jpg\nblast,4,100002.jpg\n"),
            1.0);
}

TEST(PaddyDiseaseGradeTest, HandComputedAccuracy) {
  // 100001 and 100004 right, 100002 and 100003 wrong.
  EXPECT_EQ(*Grade("image_id,label\n100001.jpg,normal\n100002.jpg,hispa\n100003.jpg,Blast\n"
                   "100004.jpg,hispa\n"),
            0.5);
  // Missing labels (the sample submission's) count as wrong, not invalid.
  EXPECT_EQ(*Grade("image_id,label\n100001.jpg,\n100002.jpg,\n100003.jpg,\n100004.jpg,\n"), 0.0);
  EXPECT_EQ(*Grade("image_id,label\n100001.jpg,normal\n100002.jpg,\n100003.jpg,blast\n"
                   "100004.jpg,\n"),
            0.5);
  // Numbers never equal the disease names; with more than two labels
  // sklearn still scores them.
  EXPECT_EQ(*Grade("image_id,label\n100001.jpg,1\n100002.jpg,2\n100003.jpg,3\n100004.jpg,4\n"),
            0.0);
  // Numbers with a gap: fillna("") turns the list into text.
  EXPECT_EQ(*Grade("image_id,label\n100001.jpg,1.5\n100002.jpg,\n100003.jpg,3\n100004.jpg,4\n"),
            0.0);
}

TEST(PaddyDiseaseGradeTest, RejectsMissingColumns) {
  ExpectInvalid(Grade("image_id,prediction\n100001.jpg,normal\n100002.jpg,blast\n"
                      "100003.jpg,blast\n100004.jpg,hispa\n"),
                "Expected columns");
  ExpectInvalid(Grade("id,label\n100001.jpg,normal\n100002.jpg,blast\n100003.jpg,blast\n"
                      "100004.jpg,hispa\n"),
                "Expected columns");
  ExpectInvalid(Grade("image_id\n100001.jpg\n100002.jpg\n100003.jpg\n100004.jpg\n"),
                "Expected columns");
}

TEST(PaddyDiseaseGradeTest, RejectsWrongRowCount) {
  ExpectInvalid(Grade("image_id,label\n100001.jpg,normal\n100002.jpg,blast\n100003.jpg,blast\n"),
                "Expected 4 rows, but got 3");
  ExpectInvalid(Grade("image_id,label\n100001.jpg,normal\n100002.jpg,blast\n100003.jpg,blast\n"
                      "100004.jpg,hispa\n100005.jpg,hispa\n"),
                "Expected 4 rows, but got 5");
  ExpectInvalid(Grade("image_id,label\n"), "Expected 4 rows, but got 0");
}

TEST(PaddyDiseaseGradeTest, RejectsWrongIds) {
  // Repeated id (so another is missing).
  ExpectInvalid(Grade("image_id,label\n100001.jpg,normal\n100001.jpg,blast\n100003.jpg,blast\n"
                      "100004.jpg,hispa\n"),
                "Invalid image IDs");
  // Unknown id, an id without its extension, a missing id.
  ExpectInvalid(Grade("image_id,label\n100001.jpg,normal\n100009.jpg,blast\n100003.jpg,blast\n"
                      "100004.jpg,hispa\n"),
                "Invalid image IDs");
  ExpectInvalid(Grade("image_id,label\n100001,normal\n100002,blast\n100003,blast\n"
                      "100004,hispa\n"),
                "Invalid image IDs");
  ExpectInvalid(Grade("image_id,label\n100001.jpg,normal\n,blast\n100003.jpg,blast\n"
                      "100004.jpg,hispa\n"),
                "Invalid image IDs");
}

TEST(PaddyDiseaseGradeTest, RejectsWhatAccuracyScoreRejects) {
  // Non-integral numbers without gaps are a "continuous" target.
  ExpectInvalid(Grade("image_id,label\n100001.jpg,0.5\n100002.jpg,1\n100003.jpg,2\n"
                      "100004.jpg,3\n"),
                "continuous");
  // Two string labels against two numeric ones: np.union1d cannot sort them.
  constexpr std::string_view kBinaryAnswers =
      "image_id,label,variety,age\n"
      "100001.jpg,blast,ADT45,60\n"
      "100002.jpg,normal,Ponni,45\n";
  ExpectInvalid(Grade("image_id,label\n100001.jpg,0\n100002.jpg,1\n", kBinaryAnswers), "");
  EXPECT_EQ(*Grade("image_id,label\n100001.jpg,blast\n100002.jpg,blast\n", kBinaryAnswers), 0.5);
}

TEST(PaddyDiseaseGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  const std::string_view submission = "image_id,label\n100001.jpg,normal\n100002.jpg,blast\n";
  for (std::string_view answers : {
           "image_id,variety\n100001.jpg,ADT45\n100002.jpg,ADT45\n",
           "image_id,label,variety,age\n100001.jpg,normal,ADT45,\n100002.jpg,blast,IR20,50\n",
           "image_id,label\n100001.jpg,\n100002.jpg,blast\n",
       }) {
    SCOPED_TRACE(answers);
    const absl::StatusOr<double> result = Grade(submission, answers);
    ASSERT_FALSE(result.ok());
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
