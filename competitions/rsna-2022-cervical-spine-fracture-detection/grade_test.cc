#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

using testing::ExpectInvalid;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;
const std::vector<std::string> kTypes = {"patient_overall", "C1", "C2", "C3",
                                         "C4", "C5", "C6", "C7"};

// Study 1.2.5 has a C2 fracture; study 1.2.40 none. As prepare writes them.
std::string Answers() {
  std::string csv = "StudyInstanceUID,prediction_type,fractured,row_id\n";
  for (const std::string& type : kTypes) {
    for (const char* study : {"1.2.5", "1.2.40"}) {
      const bool fractured = std::string(study) == "1.2.5" && (type == "patient_overall" || type == "C2");
      absl::StrAppend(&csv, study, ",", type, ",", fractured ? 1 : 0, ",", study, "_", type, "\n");
    }
  }
  return csv;
}

// A submission predicting `p(study, type)`.
template <typename F>
std::string Submission(F p) {
  std::string csv = "row_id,fractured\n";
  for (const char* study : {"1.2.40", "1.2.5"}) {
    for (const std::string& type : kTypes) absl::StrAppend(&csv, study, "_", type, ",", p(study, type), "\n");
  }
  return csv;
}

absl::StatusOr<double> Grade(std::string_view submission) {
  return testing::GradeCsvText(kId, submission, Answers());
}

TEST(RsnaCervicalGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(RsnaCervicalGradeTest, HandComputedScores) {
  // The sample submission's 0.5 everywhere: ln 2 whatever the weights.
  EXPECT_NEAR(*Grade(Submission([](const std::string&, const std::string&) { return "0.5"; })),
              std::log(2.0), 1e-15);
  // Perfect hard answers: only the 1e-15 clipping remains.
  const absl::StatusOr<double> perfect = Grade(Submission([](const std::string& s, const std::string& t) {
    return s == "1.2.5" && (t == "patient_overall" || t == "C2") ? "1" : "0";
  }));
  ASSERT_TRUE(perfect.ok()) << perfect.status();
  EXPECT_LT(*perfect, 1e-14);
  // 0.2 everywhere: study 1.2.5 has weights 14 + 2 (positive) and 6 x 1;
  // study 1.2.40 has 7 + 7 x 1.
  const double pos = -std::log(0.2), neg = -std::log(0.8);
  EXPECT_NEAR(*Grade(Submission([](const std::string&, const std::string&) { return "0.2"; })),
              ((16 * pos + 6 * neg) / 22 + neg) / 2, 1e-12);
}

TEST(RsnaCervicalGradeTest, ColumnsAndValues) {
  ExpectInvalid(Grade("id,fractured\n1.2.5_C1,0.5\n"), "missing the `row_id` column");
  ExpectInvalid(Grade("row_id,prob\n1.2.5_C1,0.5\n"), "missing the `fractured` column");
  ExpectInvalid(Grade(Submission([](const std::string&, const std::string& t) {
                  return t == "C3" ? "1.5" : "0.5"; })), "between 0 and 1");
  ExpectInvalid(Grade(Submission([](const std::string&, const std::string& t) {
                  return t == "C3" ? "" : "0.5"; })), "between 0 and 1");
  ExpectInvalid(Grade(Submission([](const std::string&, const std::string& t) {
                  return t == "C3" ? "x" : "0.5"; })), "must be numbers");
}

TEST(RsnaCervicalGradeTest, IdsMustMatch) {
  const std::string full = Submission([](const std::string&, const std::string&) { return "0.5"; });
  ExpectInvalid(Grade(full.substr(0, full.rfind("1.2.5_C7"))), "same ids");
  ExpectInvalid(Grade(full + "1.2.5_C8,0.5\n"), "same ids");
  std::string renamed = full;
  renamed.replace(renamed.find("1.2.40_C4"), 9, "1.2.41_C4");
  ExpectInvalid(Grade(renamed), "same ids");
}

TEST(RsnaCervicalGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  const std::string submission = "row_id,fractured\n1.2.5_C1,0.5\n";
  for (const std::string answers : {"row_id,fractured\n1.2.5_C1,2\n", "row_id,label\n1.2.5_C1,1\n",
                                    "row_id,fractured\n1.2.5_C1,1\n"}) {
    absl::StatusOr<double> result = testing::GradeCsvText(kId, submission, answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
