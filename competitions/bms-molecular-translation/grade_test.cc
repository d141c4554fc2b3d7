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

// Upstream's private test.csv: the held-out rows of train_labels.csv.
constexpr std::string_view kAnswers =
    "image_id,InChI\n"
    "c2a4f1e0b3d9,InChI=1S/C2H6/c1-2/h1-2H3\n"
    "000011a64c74,\"InChI=1S/C3H8/c1-3-2/h3H2,1-2H3\"\n"
    "5b1e9f0a7c22,InChI=1S/CH4/h1H4\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(BmsMolecularTranslationGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(BmsMolecularTranslationGradeTest, PerfectSubmissionScoresZero) {
  EXPECT_EQ(*Grade("image_id,InChI\n"
                   "5b1e9f0a7c22,InChI=1S/CH4/h1H4\n"
                   "000011a64c74,\"InChI=1S/C3H8/c1-3-2/h3H2,1-2H3\"\n"
                   "c2a4f1e0b3d9,InChI=1S/C2H6/c1-2/h1-2H3\n"),
            0.0);
}

TEST(BmsMolecularTranslationGradeTest, HandComputedScore) {
  // The sample submission's water for all three; Python's
  // Levenshtein.distance gives 17 against propane, 11 against ethane and 4
  // against methane (checked with /usr/bin/python3).
  EXPECT_EQ(*Grade("image_id,InChI\n"
                   "c2a4f1e0b3d9,InChI=1S/H2O/h1H2\n"
                   "000011a64c74,InChI=1S/H2O/h1H2\n"
                   "5b1e9f0a7c22,InChI=1S/H2O/h1H2\n"),
            (17.0 + 11.0 + 4.0) / 3.0);
  // A one-character change, extra columns ignored.
  EXPECT_EQ(*Grade("image_id,InChI,extra\n"
                   "c2a4f1e0b3d9,InChI=1S/C2H6/c1-2/h1-2H4,x\n"
                   "000011a64c74,\"InChI=1S/C3H8/c1-3-2/h3H2,1-2H3\",x\n"
                   "5b1e9f0a7c22,InChI=1S/CH4/h1H4,x\n"),
            1.0 / 3.0);
}

TEST(BmsMolecularTranslationGradeTest, NonTextPredictionsBecomeTheirPythonStr) {
  // astype(str): a missing prediction is "nan", a float column "1.5".
  EXPECT_EQ(*Grade("image_id,InChI\nc2a4f1e0b3d9,\n000011a64c74,1.5\n5b1e9f0a7c22,2\n",
                   "image_id,InChI\nc2a4f1e0b3d9,nan\n000011a64c74,1.5\n5b1e9f0a7c22,2."
                   "0\n"),
            0.0);
  // Non-ASCII text counts code points: "é" for "e" is one substitution.
  EXPECT_EQ(*Grade("image_id,InChI\nc2a4f1e0b3d9,InChI=1S/C2H6/c1-2/h1-2H3\n"
                   "000011a64c74,\"InChI=1S/C3H8/c1-3-2/h3H2,1-2H3\"\n"
                   "5b1e9f0a7c22,InChI=1S/CH4/h1H4\xc3\xa9\n"),
            1.0 / 3.0);
}

TEST(BmsMolecularTranslationGradeTest, ColumnsRowsAndIds) {
  ExpectInvalid(Grade("image_id,InChI\nc2a4f1e0b3d9,a\n000011a64c74,a\n"), "same length");
  ExpectInvalid(Grade("image_id,InChI\nc2a4f1e0b3d9,a\n000011a64c74,"
                      "a\n5b1e9f0a7c22,a\nx,a\n"),
                "same length");
  ExpectInvalid(Grade("id,InChI\nc2a4f1e0b3d9,a\n000011a64c74,a\n5b1e9f0a7c22,a\n"),
                "'image_id' column");
  ExpectInvalid(Grade("image_id,inchi\nc2a4f1e0b3d9,a\n000011a64c74,a\n5b1e9f0a7c22,a\n"),
                "'InChI' column");
  ExpectInvalid(Grade("image_id,InChI\nc2a4f1e0b3d9,a\n000011a64c74,a\n5b1e9f0a7c23,a\n"),
                "same ids");
  ExpectInvalid(Grade("image_id,InChI\nc2a4f1e0b3d9,a\n000011a64c74,a\n000011a64c74,a\n"),
                "same ids");
  ExpectInvalid(Grade("image_id,InChI\nc2a4f1e0b3d9,a\n000011a64c74,a\n,a\n"), "same ids");
  ExpectInvalid(Grade("image_id,InChI\n1,a\n2,a\n3,a\n"), "same ids");
}

TEST(BmsMolecularTranslationGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"image_id,text\na,x\n", "id,InChI\na,x\n"}) {
    absl::StatusOr<double> result = Grade("image_id,InChI\na,x\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers << ": " << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
