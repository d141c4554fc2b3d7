#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

constexpr std::string_view kAnswers =
    "_id,category_id\n"
    "3,1000010653\n"
    "17,1000004079\n"
    "25,1000010653\n"
    "40,1000018296\n";

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(CdiscountGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(CdiscountGradeTest, PerfectSubmissionInAnyRowOrder) {
  EXPECT_EQ(*Grade("_id,category_id\n40,1000018296\n3,1000010653\n25,1000010653\n17,1000004079\n"),
            1.0);
}

TEST(CdiscountGradeTest, WrongPredictions) {
  // The sample submission's constant category: right on 2 of 4.
  EXPECT_EQ(*Grade("_id,category_id\n3,1000010653\n17,1000010653\n25,1000010653\n40,1000010653\n"),
            0.5);
  // Extra columns are ignored; one right of four.
  EXPECT_EQ(*Grade("category_id,_id,note\n1000004079,3,a\n1000004079,17,b\n1,25,c\n2,40,d\n"),
            0.25);
  // Labels written as floats compare by value (sklearn on int vs float).
  EXPECT_EQ(*Grade("_id,category_id\n3,1000010653.0\n17,1000004079.0\n25,2.0\n40,1000018296.0\n"),
            0.75);
  // A fractional label makes sklearn see continuous targets and raise.
  ExpectInvalid(Grade("_id,category_id\n3,1000010653.0\n17,1000004079.0\n25,1.5\n40,1.0\n"),
                "category_id");
}

TEST(CdiscountGradeTest, InvalidSubmissions) {
  ExpectInvalid(Grade("_id,category_id\n3,1000010653\n17,1000004079\n25,1000010653\n"),
                "same length");
  ExpectInvalid(Grade("_id,category\n3,1\n17,1\n25,1\n40,1\n"), "category_id");
  ExpectInvalid(Grade("id,category_id\n3,1\n17,1\n25,1\n40,1\n"), "_id");
  // An id that is not in the answers, and a duplicated one.
  ExpectInvalid(Grade("_id,category_id\n3,1\n17,1\n25,1\n41,1\n"), "do not match");
  ExpectInvalid(Grade("_id,category_id\n3,1\n17,1\n25,1\n25,1\n"), "do not match");
}

}  // namespace
}  // namespace mlebench::grade_test
