#include "grading/grade_submission.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "base/testing/test_util.h"
#include "grading/report.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::mlebench::testing::WriteFileOrFail;

// A grader for tests: the score is the mean of the submission's `p` column
// divided by the answers' `scale`; NaN-free and three-valued outcomes.
absl::StatusOr<double> MeanGrade(const Table& submission, const Table& answers) {
  const Column* p = submission.Find("p");
  if (p == nullptr) return InvalidSubmission("Submission must have a `p` column");
  const Column* scale = answers.Find("scale");
  if (scale == nullptr) return absl::InternalError("answers lack `scale`");
  double sum = 0;
  for (const Cell& c : p->cells) {
    if (!std::holds_alternative<double>(c)) return InvalidSubmission("p must be float");
    sum += std::get<double>(c);
  }
  return sum / static_cast<double>(p->cells.size()) /
         static_cast<double>(std::get<int64_t>(scale->cells[0]));
}

const CompetitionGrader kGrader{.id = "unit-test-competition", .grade = &MeanGrade};

const MedalThresholds kThresholds{.gold = 0.9, .silver = 0.8, .bronze = 0.7, .median = 0.5,
                                  .is_lower_better = false};

std::string WriteFile(const std::string& name, const std::string& content) {
  const std::string path = std::string(std::getenv("TEST_TMPDIR")) + "/" + name;
  WriteFileOrFail(path, content);
  return path;
}

TEST(GradeSubmissionFile, ScoresAreRoundedToFiveDecimalsAndRanked) {
  const std::string answers = WriteFile("answers.csv", "scale\n1\n");
  const std::string sub = WriteFile("sub.csv", "p\n0.912345678\n0.9\n");
  absl::StatusOr<CompetitionReport> r =
      GradeSubmissionFile(kGrader, sub, answers, kThresholds, {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->score().number_value(), 0.90617);
  EXPECT_TRUE(r->gold_medal());
  EXPECT_TRUE(r->valid_submission());
  EXPECT_TRUE(r->submission_exists());
}

TEST(GradeSubmissionFile, MissingOrNonCsvSubmissionDoesNotExist) {
  const std::string answers = WriteFile("answers2.csv", "scale\n1\n");
  for (const std::string& path :
       {std::string("/nonexistent/submission.csv"), WriteFile("sub.txt", "p\n1.0\n"),
        std::string(std::getenv("TEST_TMPDIR"))}) {
    absl::StatusOr<CompetitionReport> r =
        GradeSubmissionFile(kGrader, path, answers, kThresholds, {});
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_FALSE(r->submission_exists()) << path;
    EXPECT_FALSE(r->valid_submission()) << path;
    EXPECT_EQ(r->score().kind_case(), google::protobuf::Value::kNullValue);
    EXPECT_FALSE(r->any_medal());
  }
  // Upstream compares the suffix case-insensitively.
  const std::string upper = WriteFile("SUB.CSV", "p\n0.8\n");
  EXPECT_TRUE(GradeSubmissionFile(kGrader, upper, answers, kThresholds, {})->submission_exists());
}

TEST(GradeSubmissionFile, InvalidSubmissionsAreReportsWithAReason) {
  const std::string answers = WriteFile("answers3.csv", "scale\n1\n");
  absl::StatusOr<CompetitionReport> r = GradeSubmissionFile(
      kGrader, WriteFile("wrongcol.csv", "q\n0.5\n"), answers, kThresholds, {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->submission_exists());
  EXPECT_FALSE(r->valid_submission());
  EXPECT_EQ(r->invalid_reason(), "Submission must have a `p` column");
  // A submission that is not parseable CSV is invalid, not a crash.
  r = GradeSubmissionFile(kGrader, WriteFile("broken.csv", "p\n\"0.5\n"), answers, kThresholds, {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->valid_submission());
  EXPECT_NE(r->invalid_reason().find("not a readable CSV"), std::string::npos);
}

TEST(GradeSubmissionFile, InternalErrorsFailLoudly) {
  const std::string sub = WriteFile("ok.csv", "p\n0.5\n");
  EXPECT_FALSE(
      GradeSubmissionFile(kGrader, sub, WriteFile("bad_answers.csv", "other\n1\n"), kThresholds, {})
          .ok());
  EXPECT_FALSE(GradeSubmissionFile(kGrader, sub, "/nonexistent/answers.csv", kThresholds, {}).ok());
}

// A grader that reads only some of the answers' columns is given just those,
// and the limits still count the whole file.
TEST(ReadAnswersForGrading, OnlyTheColumnsTheGraderReadsAndLimitsOfTheWholeFile) {
  const std::string path = WriteFile("wide_answers.csv", "id,scale,a,b,c\nx,2,1,2,3\ny,2,4,5,6\n");
  CompetitionGrader grader = kGrader;
  grader.answers_csv.only_columns = {"scale"};
  absl::StatusOr<AnswersForGrading> narrow = ReadAnswersForGrading(grader, path);
  ASSERT_TRUE(narrow.ok()) << narrow.status();
  EXPECT_EQ(narrow->table.ColumnNames(), std::vector<std::string>{"scale"});
  EXPECT_EQ(narrow->table.num_rows(), 2u);
  absl::StatusOr<AnswersForGrading> full = ReadAnswersForGrading(kGrader, path);
  ASSERT_TRUE(full.ok()) << full.status();
  EXPECT_EQ(full->table.num_columns(), 5u);
  EXPECT_EQ(narrow->columns, 5);
  EXPECT_EQ(narrow->cells, 15);  // (2 rows + the header) x 5 columns
  EXPECT_EQ(narrow->cells, full->cells);
  EXPECT_EQ(narrow->limits.max_submission_cells, full->limits.max_submission_cells);
  EXPECT_EQ(narrow->limits.max_submission_columns, full->limits.max_submission_columns);
  absl::StatusOr<CompetitionReport> r = GradeSubmissionFile(
      grader, WriteFile("narrow_sub.csv", "p\n1.0\n"), path, kThresholds, {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->score().number_value(), 0.5);
}

// Upstream: a NaN score (e.g. Pearson of a constant column) is a valid
// submission that wins nothing; Python's json writes it as a bare NaN.
absl::StatusOr<double> NanGrade(const Table&, const Table&) { return std::nan(""); }

TEST(GradeSubmissionFile, NanScoreIsValidWinsNothingAndRoundTrips) {
  const CompetitionGrader nan_grader{.id = "nan-competition", .grade = &NanGrade};
  absl::StatusOr<CompetitionReport> r = GradeSubmissionFile(
      nan_grader, WriteFile("nan.csv", "p\n0.5\n"), WriteFile("nan_answers.csv", "scale\n1\n"),
      kThresholds, {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->valid_submission());
  EXPECT_TRUE(std::isnan(r->score().number_value()));
  EXPECT_FALSE(r->any_medal());
  EXPECT_FALSE(r->above_median());
  const std::string json = ToPythonJson(*r, 0);
  EXPECT_NE(json.find("\"score\": NaN, "), std::string::npos) << json;
  absl::StatusOr<CompetitionReport> back = ReportFromJson(json);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(std::isnan(back->score().number_value()));
  EXPECT_TRUE(back->valid_submission());
}

TEST(SetUpGrade, ThresholdsFromTheTableAndTheContextFromTheFlags) {
  const std::string table = WriteFile(
      "thresholds.csv",
      "competition_id,gold,silver,bronze,median,is_lower_better\n"
      "comp,0.9,0.8,0.7,0.5,false\n");
  absl::StatusOr<GradeSetup> setup = SetUpGrade("comp", "", table, "dummy", "7");
  ASSERT_TRUE(setup.ok()) << setup.status();
  EXPECT_EQ(setup->thresholds, kThresholds);
  EXPECT_EQ(setup->context.thresholds_source, "embedded");
  EXPECT_EQ(setup->context.agent, "dummy");
  EXPECT_EQ(setup->context.seed, 7);

  absl::StatusOr<GradeSetup> bad_seed = SetUpGrade("comp", "", table, "dummy", "x");
  EXPECT_EQ(bad_seed.status(), absl::InvalidArgumentError("--seed must be an integer"));
  // The thresholds' error comes first.
  EXPECT_EQ(SetUpGrade("other", "", table, "dummy", "x").status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace mlebench
