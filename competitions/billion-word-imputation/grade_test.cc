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

// Upstream's private test.csv: ids from 0, every sentence quoted, quotes
// doubled.
constexpr std::string_view kAnswers =
    "\"id\",\"sentence\"\n"
    "0,\"The dog barked .\"\n"
    "1,\"\"\" Yes , \"\" she said .\"\n"
    "2,\"Il fait beau \xc3\xa0 Paris .\"\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(BillionWordImputationGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(BillionWordImputationGradeTest, PerfectSubmissionScoresZero) {
  EXPECT_EQ(*Grade("id,sentence\n"
                   "2,Il fait beau \xc3\xa0 Paris .\n"
                   "0,The dog barked .\n"
                   "1,\"\"\" Yes , \"\" she said .\"\n"),
            0.0);
}

TEST(BillionWordImputationGradeTest, HandComputedScore) {
  // Row 0: "barked " inserted back would be 7 edits away ("The dog ."): 7.
  // Row 1: the quote and its space missing at the front: 2.
  // Row 2: "a" for "à" is one substitution (one code point, two bytes): 1.
  EXPECT_EQ(*Grade("id,sentence,extra\n"
                   "0,The dog .,x\n"
                   "1,\"Yes , \"\" she said .\",x\n"
                   "2,Il fait beau a Paris .,x\n"),
            (7.0 + 2.0 + 1.0) / 3.0);
}

TEST(BillionWordImputationGradeTest, SentencesMustBeText) {
  // An empty field reads as NaN, and Levenshtein.distance raises TypeError.
  ExpectInvalid(Grade("id,sentence\n0,\n1,a\n2,b\n"), "must be text");
  // An all-number column is read as numbers: TypeError too.
  ExpectInvalid(Grade("id,sentence\n0,1\n1,2\n2,3\n"), "must be text");
  ExpectInvalid(Grade("id,sentence\n0,True\n1,False\n2,True\n"), "must be text");
  // Text that merely looks like a number is fine in a text column.
  EXPECT_TRUE(Grade("id,sentence\n0,1\n1,2\n2,x\n").ok());
}

TEST(BillionWordImputationGradeTest, ColumnsRowsAndIds) {
  ExpectInvalid(Grade("Id,sentence\n0,a\n1,a\n2,a\n"), "Missing id column");
  ExpectInvalid(Grade("id,text\n0,a\n1,a\n2,a\n"), "Missing sentence column");
  ExpectInvalid(Grade("id,sentence\n0,a\n1,a\n"), "different lengths");
  ExpectInvalid(Grade("id,sentence\n0,a\n1,a\n2,a\n3,a\n"), "different lengths");
  ExpectInvalid(Grade("id,sentence\n0,a\n1,a\n3,a\n"), "same IDs");
  ExpectInvalid(Grade("id,sentence\n0,a\n1,a\n1,a\n"), "same IDs");
  ExpectInvalid(Grade("id,sentence\n0,a\n1,a\n,a\n"), "same IDs");
  // Text ids never equal the answers' integers; mixed ones cannot be sorted.
  ExpectInvalid(Grade("id,sentence\nx,a\ny,a\nz,a\n"), "same IDs");
  ExpectInvalid(Grade("id,sentence\n0,a\n1,a\nz,a\n"), "sort");
  // Float ids equal to the integers are the same ids (numpy compares values).
  EXPECT_EQ(*Grade("id,sentence\n0.0,The dog barked .\n1.0,x\n2.0,y\n"), (0.0 + 20.0 + 22.0) / 3.0);
}

TEST(BillionWordImputationGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"id,text\n0,x\n", "Id,sentence\n0,x\n", "id,sentence\n0,1\n"}) {
    absl::StatusOr<double> result = Grade("id,sentence\n0,x\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers << ": " << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
