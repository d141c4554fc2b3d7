#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// Sorted by file: Charlock, Maize, Sugar beet, Fat Hen.
constexpr std::string_view kAnswers =
    "file,species\n"
    "c3d4e5f6a.png,Sugar beet\n"
    "0050f38b3.png,Charlock\n"
    "fe9a0b1c2.png,Fat Hen\n"
    "51b3e36ab.png,Maize\n";

absl::StatusOr<double> Grade(std::string_view submission) {
  return testing::GradeCsvText(kId, submission, kAnswers);
}

using testing::ExpectInvalid;

TEST(PlantSeedlingsGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(PlantSeedlingsGradeTest, PerfectInAnyRowOrderWithExtraColumns) {
  EXPECT_EQ(*Grade("file,species\n0050f38b3.png,Charlock\n51b3e36ab.png,Maize\n"
                   "c3d4e5f6a.png,Sugar beet\nfe9a0b1c2.png,Fat Hen\n"),
            1.0);
  EXPECT_EQ(*Grade("species,score,file\nFat Hen,1,fe9a0b1c2.png\nMaize,2,51b3e36ab.png\n"
                   "Sugar beet,3,c3d4e5f6a.png\nCharlock,4,0050f38b3.png\n"),
            1.0);
}

TEST(PlantSeedlingsGradeTest, MicroF1IsTheShareOfRightLabels) {
  // Micro F1 of single-label rows: 2 tp out of 4 predictions and 4 truths.
  EXPECT_EQ(*Grade("file,species\n0050f38b3.png,Charlock\n51b3e36ab.png,Maize\n"
                   "c3d4e5f6a.png,Sugar Beet\nfe9a0b1c2.png,Black-grass\n"),
            0.5);
  // The sample submission: all "Sugar beet", one right.
  EXPECT_EQ(*Grade("file,species\n0050f38b3.png,Sugar beet\n51b3e36ab.png,Sugar beet\n"
                   "c3d4e5f6a.png,Sugar beet\nfe9a0b1c2.png,Sugar beet\n"),
            0.25);
  // A missing prediction among names is the label "nan" (wrong), and a
  // number among names is text: both scored, as upstream.
  EXPECT_EQ(*Grade("file,species\n0050f38b3.png,Charlock\n51b3e36ab.png,\n"
                   "c3d4e5f6a.png,7\nfe9a0b1c2.png,Fat Hen\n"),
            0.5);
}

TEST(PlantSeedlingsGradeTest, RejectsMissingColumnsAndWrongLength) {
  ExpectInvalid(Grade("image,species\n0050f38b3.png,Charlock\n"), "'file' column");
  ExpectInvalid(Grade("file,label\n0050f38b3.png,Charlock\n"), "'species' column");
  ExpectInvalid(Grade(""), "'file' column");
  ExpectInvalid(Grade("file,species\n0050f38b3.png,Charlock\n51b3e36ab.png,Maize\n"
                      "c3d4e5f6a.png,Sugar beet\n"),
                "Submission length 3 != answers length 4");
  ExpectInvalid(Grade("file,species\n"), "Submission length 0 != answers length 4");
}

TEST(PlantSeedlingsGradeTest, RejectsWrongFiles) {
  ExpectInvalid(Grade("file,species\n0050f38b3.png,Charlock\n51b3e36ab.png,Maize\n"
                      "c3d4e5f6a.png,Sugar beet\nfe9a0b1c3.png,Fat Hen\n"),
                "mismatched 'file'");
  ExpectInvalid(Grade("file,species\n0050f38b3.png,Charlock\n0050f38b3.png,Maize\n"
                      "c3d4e5f6a.png,Sugar beet\nfe9a0b1c2.png,Fat Hen\n"),
                "mismatched 'file'");
  ExpectInvalid(Grade("file,species\n0050f38b3.png,Charlock\n,Maize\n"
                      "c3d4e5f6a.png,Sugar beet\nfe9a0b1c2.png,Fat Hen\n"),
                "mismatched 'file'");
  ExpectInvalid(Grade("file,species\n1,Charlock\n2,Maize\n3,Sugar beet\n4,Fat Hen\n"),
                "mismatched 'file'");
}

TEST(PlantSeedlingsGradeTest, RejectsPredictionsWithoutNames) {
  const std::string files[] = {"0050f38b3.png", "51b3e36ab.png", "c3d4e5f6a.png", "fe9a0b1c2.png"};
  for (const std::string values :
       {"1,2,3,4", "1.5,2,3,4", ",,,", "True,False,True,True", "1,2,,4"}) {
    SCOPED_TRACE(values);
    std::string csv = "file,species\n";
    size_t start = 0;
    for (const std::string& file : files) {
      const size_t end = values.find(',', start);
      csv += file + "," + values.substr(start, end - start) + "\n";
      start = end + 1;
    }
    ExpectInvalid(Grade(csv), "f1_score rejects");
  }
}

TEST(PlantSeedlingsGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {std::string_view("file,label\na.png,Maize\n"),
                                   std::string_view("name,species\na.png,Maize\n"),
                                   std::string_view("file,species\na.png,1\n")}) {
    absl::StatusOr<double> result =
        testing::GradeCsvText(kId, "file,species\na.png,Maize\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
