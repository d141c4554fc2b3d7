#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// Answers as upstream's prepare writes them: Id 0..n-1, ClassId the label
// text ("0".."38"), which pandas reads back as int64.
constexpr std::string_view kAnswers =
    "Id,ClassId\n"
    "0,36\n"
    "1,5\n"
    "2,5\n"
    "3,0\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(Ml2021SpringHw2GradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(Ml2021SpringHw2GradeTest, PerfectSubmissionInAnyRowOrder) {
  EXPECT_EQ(*Grade("Id,ClassId\n3,0\n1,5\n0,36\n2,5\n"), 1.0);
  // Integral floats equal their ints.
  EXPECT_EQ(*Grade("Id,ClassId\n0,36.0\n1,5.0\n2,5.0\n3,0.0\n"), 1.0);
}

TEST(Ml2021SpringHw2GradeTest, WrongPredictions) {
  // The sample submission (all 0): one of four right.
  EXPECT_EQ(*Grade("Id,ClassId\n0,0\n1,0\n2,0\n3,0\n"), 0.25);
  // Two of four right; extra columns are ignored.
  EXPECT_EQ(*Grade("ClassId,Id,Note\n36,0,a\n5,1,b\n6,2,c\n38,3,d\n"), 0.5);
  // Text labels are never equal to the integer answers.
  EXPECT_EQ(*Grade("Id,ClassId\n0,a\n1,b\n2,c\n3,d\n"), 0.0);
}

TEST(Ml2021SpringHw2GradeTest, StructuralChecksInUpstreamOrder) {
  ExpectInvalid(Grade("Id,ClassId\n0,36\n1,5\n2,5\n"), "same length");
  ExpectInvalid(Grade("Id,ClassId\n0,36\n1,5\n2,5\n3,0\n4,0\n"), "same length");
  ExpectInvalid(Grade("Id,Class\n0,36\n1,5\n2,5\n3,0\n"), "must have a `ClassId` column");
  ExpectInvalid(Grade("id,ClassId\n0,36\n1,5\n2,5\n3,0\n"), "must have a `Id` column");
  ExpectInvalid(Grade(""), "same length");
}

TEST(Ml2021SpringHw2GradeTest, IdsMustMatch) {
  ExpectInvalid(Grade("Id,ClassId\n0,36\n1,5\n2,5\n4,0\n"), "do not match");
  ExpectInvalid(Grade("Id,ClassId\n0,36\n1,5\n1,5\n3,0\n"), "do not match");
  ExpectInvalid(Grade("Id,ClassId\n0,36\n,5\n2,5\n3,0\n"), "do not match");
  ExpectInvalid(Grade("Id,ClassId\na,36\nb,5\nc,5\nd,0\n"), "do not match");
}

TEST(Ml2021SpringHw2GradeTest, MissingOrFractionalClassesAreInvalid) {
  ExpectInvalid(Grade("Id,ClassId\n0,36\n1,\n2,5\n3,0\n"), "contains NaN");
  ExpectInvalid(Grade("Id,ClassId\n0,36\n1,5.5\n2,5\n3,0\n"), "multiclass and continuous");
  // Text with a hole: np.unique cannot sort str and NaN.
  ExpectInvalid(Grade("Id,ClassId\n0,a\n1,\n2,b\n3,c\n"), "not supported between");
}

TEST(Ml2021SpringHw2GradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  absl::StatusOr<double> result = Grade("Id,ClassId\n0,1\n", "Id,Label\n0,1\n");
  ASSERT_FALSE(result.ok());
  EXPECT_FALSE(IsInvalidSubmission(result.status()));
}

}  // namespace
}  // namespace mlebench::grade_test
