#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr std::string_view kAnswers =
    "image_id,label\n"
    "1000015157.jpg,0\n"
    "1000201771.jpg,3\n"
    "100042118.jpg,1\n"
    "1000723321.jpg,4\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(CassavaGradeTest, Registered) { EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID); }

TEST(CassavaGradeTest, PerfectSubmissionInAnyRowOrder) {
  EXPECT_EQ(*Grade("image_id,label\n1000723321.jpg,4\n100042118.jpg,1\n1000015157.jpg,0\n"
                   "1000201771.jpg,3\n"),
            1.0);
  EXPECT_EQ(*Grade("image_id,label\n1000015157.jpg,0.0\n1000201771.jpg,3.0\n100042118.jpg,1.0\n"
                   "1000723321.jpg,4.0\n"),
            1.0);
}

TEST(CassavaGradeTest, WrongPredictions) {
  // The sample submission (all 4): one of four right.
  EXPECT_EQ(*Grade("image_id,label\n1000015157.jpg,4\n1000201771.jpg,4\n100042118.jpg,4\n"
                   "1000723321.jpg,4\n"),
            0.25);
  // Three of four right, extra columns ignored.
  EXPECT_EQ(*Grade("label,image_id,p\n0,1000015157.jpg,x\n3,1000201771.jpg,y\n2,100042118.jpg,z\n"
                   "4,1000723321.jpg,w\n"),
            0.75);
  // Disease names are not the integer labels.
  EXPECT_EQ(*Grade("image_id,label\n1000015157.jpg,CBB\n1000201771.jpg,CMD\n100042118.jpg,CBSD\n"
                   "1000723321.jpg,Healthy\n"),
            0.0);
}

TEST(CassavaGradeTest, StructuralChecksInUpstreamOrder) {
  ExpectInvalid(Grade("image_id,label\n1000015157.jpg,0\n"), "same length");
  ExpectInvalid(Grade("image_id,target\n1000015157.jpg,0\n1000201771.jpg,3\n100042118.jpg,1\n"
                      "1000723321.jpg,4\n"),
                "must have a `label` column");
  ExpectInvalid(Grade("image,label\n1000015157.jpg,0\n1000201771.jpg,3\n100042118.jpg,1\n"
                      "1000723321.jpg,4\n"),
                "must have a `image_id` column");
  ExpectInvalid(Grade(""), "same length");
}

TEST(CassavaGradeTest, IdsMustMatch) {
  // Without the ".jpg" suffix.
  ExpectInvalid(Grade("image_id,label\n1000015157,0\n1000201771,3\n100042118,1\n1000723321,4\n"),
                "do not match");
  ExpectInvalid(Grade("image_id,label\n1000015157.jpg,0\n1000015157.jpg,3\n100042118.jpg,1\n"
                      "1000723321.jpg,4\n"),
                "do not match");
  ExpectInvalid(Grade("image_id,label\n1000015157.jpg,0\n,3\n100042118.jpg,1\n1000723321.jpg,4\n"),
                "do not match");
}

TEST(CassavaGradeTest, MissingOrFractionalLabelsAreInvalid) {
  ExpectInvalid(Grade("image_id,label\n1000015157.jpg,0\n1000201771.jpg,\n100042118.jpg,1\n"
                      "1000723321.jpg,4\n"),
                "contains NaN");
  ExpectInvalid(Grade("image_id,label\n1000015157.jpg,0\n1000201771.jpg,2.5\n100042118.jpg,1\n"
                      "1000723321.jpg,4\n"),
                "multiclass and continuous");
}

TEST(CassavaGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  absl::StatusOr<double> result = Grade("image_id,label\na.jpg,1\n", "image_id,disease\na.jpg,1\n");
  ASSERT_FALSE(result.ok());
  EXPECT_FALSE(IsInvalidSubmission(result.status()));
}

}  // namespace
}  // namespace mlebench::grade_test
