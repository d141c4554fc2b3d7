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

// Every column of private/test.csv; each graded class has both labels.
constexpr std::string_view kAnswers =
    "StudyInstanceUID,ETT - Abnormal,ETT - Borderline,ETT - Normal,NGT - Abnormal,"
    "NGT - Borderline,NGT - Incompletely Imaged,NGT - Normal,CVC - Abnormal,CVC - Borderline,"
    "CVC - Normal,Swan Ganz Catheter Present,PatientID\n"
    "1.2.826.4,0,0,1,0,0,0,1,1,0,0,0,ec89415d1\n"
    "1.2.826.1,1,0,0,1,0,0,0,1,0,0,1,bf4c6da3c\n"
    "1.2.826.2,0,1,0,0,1,0,0,0,1,1,0,3fc1c97e5\n"
    "1.2.826.3,0,0,1,0,0,1,0,0,1,1,0,c31019814\n";

constexpr std::string_view kHeader =
    "StudyInstanceUID,ETT - Abnormal,ETT - Borderline,ETT - Normal,NGT - Abnormal,"
    "NGT - Borderline,NGT - Incompletely Imaged,NGT - Normal,CVC - Abnormal,CVC - Borderline\n";

absl::StatusOr<double> Grade(std::string_view rows) {
  return testing::GradeCsvText(kId, std::string(kHeader) + std::string(rows), kAnswers);
}

using testing::ExpectInvalid;

TEST(RanzcrGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(RanzcrGradeTest, PerfectInAnyRowAndColumnOrderWithExtraColumns) {
  EXPECT_EQ(*Grade("1.2.826.1,0.9,0,0,1,0,0,0,1,0\n1.2.826.2,0,1,0,0,1,0,0,0,1\n"
                   "1.2.826.3,0,0,1,0,0,1,0,0,1\n1.2.826.4,0,0,0.6,0,0,0,1,1,0\n"),
            1.0);
  // The ungraded columns may be absent, extra ones are ignored.
  EXPECT_EQ(*testing::GradeCsvText(
                kId,
                "CVC - Borderline,CVC - Abnormal,NGT - Normal,NGT - Incompletely Imaged,"
                "NGT - Borderline,NGT - Abnormal,ETT - Normal,ETT - Borderline,ETT - Abnormal,"
                "StudyInstanceUID,CVC - Normal,notes\n"
                "1,0,0,1,0,0,1,0,0,1.2.826.3,0.5,x\n0,1,1,0,0,0,1,0,0,1.2.826.4,0.5,y\n"
                "1,0,0,0,1,0,0,1,0,1.2.826.2,0.5,z\n0,1,0,0,0,1,0,0,1,1.2.826.1,0.5,w\n",
                kAnswers),
            1.0);
}

TEST(RanzcrGradeTest, HandComputedMeanOfColumnAucs) {
  // Eight columns ranked perfectly; "ETT - Normal" scores 0.2, 0.9, 0.8, 0.7
  // for rows 1-4: positives 3 and 4 beat negative 1 but not negative 2, so
  // 2 of 4 pairs.
  EXPECT_DOUBLE_EQ(*Grade("1.2.826.1,1,0,0.2,1,0,0,0,1,0\n1.2.826.2,0,1,0.9,0,1,0,0,0,1\n"
                          "1.2.826.3,0,0,0.8,0,0,1,0,0,1\n1.2.826.4,0,0,0.7,0,0,0,1,1,0\n"),
                   (8.0 + 0.5) / 9.0);
  // The sample submission: all zeros.
  EXPECT_EQ(*Grade("1.2.826.1,0,0,0,0,0,0,0,0,0\n1.2.826.2,0,0,0,0,0,0,0,0,0\n"
                   "1.2.826.3,0,0,0,0,0,0,0,0,0\n1.2.826.4,0,0,0,0,0,0,0,0,0\n"),
            0.5);
  // Every column reversed.
  EXPECT_EQ(*Grade("1.2.826.1,0,1,1,0,1,1,1,0,1\n1.2.826.2,1,0,1,1,0,1,1,1,0\n"
                   "1.2.826.3,1,1,0,1,1,0,1,1,0\n1.2.826.4,1,1,0,1,1,1,0,0,1\n"),
            0.0);
  // Booleans are 0/1 scores.
  EXPECT_EQ(*Grade("1.2.826.1,True,False,False,True,False,False,False,True,False\n"
                   "1.2.826.2,False,True,False,False,True,False,False,False,True\n"
                   "1.2.826.3,False,False,True,False,False,True,False,False,True\n"
                   "1.2.826.4,False,False,True,False,False,False,True,True,False\n"),
            1.0);
}

TEST(RanzcrGradeTest, RejectsMissingColumnsAndWrongRowCount) {
  ExpectInvalid(testing::GradeCsvText(kId,
                                      "StudyInstanceUID,ETT - Abnormal\n1.2.826.1,1\n"
                                      "1.2.826.2,0\n1.2.826.3,0\n1.2.826.4,0\n",
                                      kAnswers),
                "Class ETT - Borderline is not in the submission");
  ExpectInvalid(testing::GradeCsvText(
                    kId,
                    "id,ETT - Abnormal,ETT - Borderline,ETT - Normal,NGT - Abnormal,"
                    "NGT - Borderline,NGT - Incompletely Imaged,NGT - Normal,CVC - Abnormal,"
                    "CVC - Borderline\n1.2.826.1,1,0,0,1,0,0,0,1,0\n1.2.826.2,0,1,0,0,1,0,0,0,1\n"
                    "1.2.826.3,0,0,1,0,0,1,0,0,1\n1.2.826.4,0,0,1,0,0,0,1,1,0\n",
                    kAnswers),
                "StudyInstanceUID");
  ExpectInvalid(Grade("1.2.826.1,1,0,0,1,0,0,0,1,0\n1.2.826.2,0,1,0,0,1,0,0,0,1\n"
                      "1.2.826.3,0,0,1,0,0,1,0,0,1\n"),
                "Expected 4 rows in submission, got 3");
  ExpectInvalid(Grade("1.2.826.1,1,0,0,1,0,0,0,1,0\n1.2.826.2,0,1,0,0,1,0,0,0,1\n"
                      "1.2.826.3,0,0,1,0,0,1,0,0,1\n1.2.826.4,0,0,1,0,0,0,1,1,0\n"
                      "1.2.826.5,0,0,1,0,0,0,1,1,0\n"),
                "Expected 4 rows in submission, got 5");
  ExpectInvalid(Grade(""), "Expected 4 rows in submission, got 0");
}

TEST(RanzcrGradeTest, RejectsWrongIds) {
  // Repeated, unknown, missing.
  for (std::string_view ids : {"1.2.826.1,1.2.826.1", "1.2.826.1,1.2.826.9", "1.2.826.1,"}) {
    SCOPED_TRACE(ids);
    const std::string first(ids.substr(0, ids.find(','))), second(ids.substr(ids.find(',') + 1));
    ExpectInvalid(Grade(first + ",1,0,0,1,0,0,0,1,0\n" + second +
                        ",0,1,0,0,1,0,0,0,1\n1.2.826.3,0,0,1,0,0,1,0,0,1\n"
                        "1.2.826.4,0,0,1,0,0,0,1,1,0\n"),
                  "same StudyInstanceUID values");
  }
}

TEST(RanzcrGradeTest, RejectsScoresThatAreNotProbabilities) {
  for (std::string_view bad : {"1.5", "-0.1", "inf", "-inf"}) {
    SCOPED_TRACE(bad);
    ExpectInvalid(Grade("1.2.826.1,1,0,0,1,0,0,0,1,0\n1.2.826.2,0,1,0,0,1,0,0,0,1\n"
                        "1.2.826.3,0,0,1,0,0,1,0,0,1\n1.2.826.4,0,0,1,0,0,0,1,1," +
                        std::string(bad) + "\n"),
                  "between 0 and 1 inclusive");
  }
  ExpectInvalid(Grade("1.2.826.1,1,0,0,1,0,0,0,1,0\n1.2.826.2,0,1,0,0,1,0,0,0,1\n"
                      "1.2.826.3,0,0,1,0,0,high,0,0,1\n1.2.826.4,0,0,1,0,0,0,1,1,0\n"),
                "to be numeric");
  // A missing score passes upstream's range check (pandas skips NaN) and
  // then roc_auc_score rejects it.
  ExpectInvalid(Grade("1.2.826.1,1,0,0,1,0,0,0,1,0\n1.2.826.2,0,1,0,0,1,0,0,0,1\n"
                      "1.2.826.3,0,0,1,0,0,,0,0,1\n1.2.826.4,0,0,1,0,0,0,1,1,0\n"),
                "roc_auc_score rejects `NGT - Incompletely Imaged`");
}

TEST(RanzcrGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  const absl::StatusOr<double> result = testing::GradeCsvText(
      kId, std::string(kHeader) + "1.2.826.1,1,0,0,1,0,0,0,1,0\n",
      "StudyInstanceUID,ETT - Abnormal\n1.2.826.1,1\n");
  ASSERT_FALSE(result.ok());
  EXPECT_FALSE(IsInvalidSubmission(result.status())) << result.status();
}

}  // namespace
}  // namespace mlebench::grade_test
