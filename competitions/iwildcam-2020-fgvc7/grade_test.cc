#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr std::string_view kAnswers =
    "Id,Category\n"
    "96b00332-21bc-11ea-a13a-137349068a90,73\n"
    "879d74d8-21bc-11ea-a13a-137349068a90,0\n"
    "9017f7aa-21bc-11ea-a13a-137349068a90,372\n"
    "90d93c58-21bc-11ea-a13a-137349068a90,0\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(IWildCamGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(IWildCamGradeTest, PerfectSubmissionInAnyRowOrder) {
  EXPECT_EQ(*Grade("Id,Category\n"
                   "90d93c58-21bc-11ea-a13a-137349068a90,0\n"
                   "9017f7aa-21bc-11ea-a13a-137349068a90,372\n"
                   "96b00332-21bc-11ea-a13a-137349068a90,73\n"
                   "879d74d8-21bc-11ea-a13a-137349068a90,0\n"),
            1.0);
}

TEST(IWildCamGradeTest, WrongPredictions) {
  // Two of four right ("empty" is category 0), extra columns ignored.
  EXPECT_EQ(*Grade("Category,Id,Score\n"
                   "0,96b00332-21bc-11ea-a13a-137349068a90,1\n"
                   "0,879d74d8-21bc-11ea-a13a-137349068a90,1\n"
                   "373,9017f7aa-21bc-11ea-a13a-137349068a90,1\n"
                   "0,90d93c58-21bc-11ea-a13a-137349068a90,1\n"),
            0.5);
  // Category names are not the ids.
  EXPECT_EQ(*Grade("Id,Category\n"
                   "96b00332-21bc-11ea-a13a-137349068a90,puma\n"
                   "879d74d8-21bc-11ea-a13a-137349068a90,empty\n"
                   "9017f7aa-21bc-11ea-a13a-137349068a90,bird\n"
                   "90d93c58-21bc-11ea-a13a-137349068a90,empty\n"),
            0.0);
}

TEST(IWildCamGradeTest, StructuralChecksInUpstreamOrder) {
  ExpectInvalid(Grade("Id,Category\n96b00332-21bc-11ea-a13a-137349068a90,73\n"), "same length");
  ExpectInvalid(Grade("Id,Predicted\na,1\nb,2\nc,3\nd,4\n"), "must have a `Category` column");
  ExpectInvalid(Grade("image_id,Category\na,1\nb,2\nc,3\nd,4\n"), "must have a `Id` column");
  ExpectInvalid(Grade(""), "same length");
}

TEST(IWildCamGradeTest, IdsMustMatch) {
  ExpectInvalid(Grade("Id,Category\n"
                      "96b00332-21bc-11ea-a13a-137349068a90,73\n"
                      "96b00332-21bc-11ea-a13a-137349068a90,0\n"
                      "9017f7aa-21bc-11ea-a13a-137349068a90,372\n"
                      "90d93c58-21bc-11ea-a13a-137349068a90,0\n"),
                "do not match");
  ExpectInvalid(Grade("Id,Category\n"
                      "96b00332-21bc-11ea-a13a-137349068a90.jpg,73\n"
                      "879d74d8-21bc-11ea-a13a-137349068a90,0\n"
                      "9017f7aa-21bc-11ea-a13a-137349068a90,372\n"
                      "90d93c58-21bc-11ea-a13a-137349068a90,0\n"),
                "do not match");
}

TEST(IWildCamGradeTest, MissingOrFractionalCategoriesAreInvalid) {
  ExpectInvalid(Grade("Id,Category\n"
                      "96b00332-21bc-11ea-a13a-137349068a90,73\n"
                      "879d74d8-21bc-11ea-a13a-137349068a90,\n"
                      "9017f7aa-21bc-11ea-a13a-137349068a90,372\n"
                      "90d93c58-21bc-11ea-a13a-137349068a90,0\n"),
                "contains NaN");
  ExpectInvalid(Grade("Id,Category\n"
                      "96b00332-21bc-11ea-a13a-137349068a90,73.5\n"
                      "879d74d8-21bc-11ea-a13a-137349068a90,0\n"
                      "9017f7aa-21bc-11ea-a13a-137349068a90,372\n"
                      "90d93c58-21bc-11ea-a13a-137349068a90,0\n"),
                "multiclass and continuous");
}

TEST(IWildCamGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  absl::StatusOr<double> result = Grade("Id,Category\na,1\n", "Id,Label\na,1\n");
  ASSERT_FALSE(result.ok());
  EXPECT_FALSE(IsInvalidSubmission(result.status()));
}

}  // namespace
}  // namespace mlebench::grade_test
