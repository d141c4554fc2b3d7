#include "grading/report.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "absl/status/status.h"
#include "base/testing/test_util.h"
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

TEST(ToPythonJson, MatchesUpstreamKeysOrderAndFormatting) {
  ReportContext ctx{.agent = "dummy", .seed = 3, .dataset = "synthetic",
                    .submission_path = "x/submission.csv"};
  CompetitionReport r = MakeReport("comp", true, 0.85, "", kThresholds, ctx);
  EXPECT_EQ(ToPythonJson(r, 2),
            "{\n"
            "  \"competition_id\": \"comp\",\n"
            "  \"score\": 0.85,\n"
            "  \"gold_threshold\": 0.9,\n"
            "  \"silver_threshold\": 0.8,\n"
            "  \"bronze_threshold\": 0.7,\n"
            "  \"median_threshold\": 0.5,\n"
            "  \"any_medal\": true,\n"
            "  \"gold_medal\": false,\n"
            "  \"silver_medal\": true,\n"
            "  \"bronze_medal\": false,\n"
            "  \"above_median\": true,\n"
            "  \"submission_exists\": true,\n"
            "  \"valid_submission\": true,\n"
            "  \"is_lower_better\": false,\n"
            "  \"created_at\": \"\",\n"
            "  \"submission_path\": \"x/submission.csv\",\n"
            "  \"invalid_reason\": \"\",\n"
            "  \"agent\": \"dummy\",\n"
            "  \"seed\": 3,\n"
            "  \"dataset\": \"synthetic\",\n"
            "  \"thresholds_source\": \"embedded\",\n"
            "  \"isolation\": \"\",\n"
            "  \"network\": \"\",\n"
            "  \"agent_digest\": \"\",\n"
            "  \"environment_digest\": \"\",\n"
            "  \"cpus\": 0,\n"
            "  \"memory_limit_bytes\": 0,\n"
            "  \"gpus\": 0,\n"
            "  \"processes_limit\": 0,\n"
            "  \"wall_seconds\": 0.0,\n"
            "  \"cpu_seconds\": 0.0,\n"
            "  \"memory_peak_bytes\": 0,\n"
            "  \"ended_by\": \"\",\n"
            "  \"sample_score\": null,\n"
            "  \"beats_sample\": false,\n"
            "  \"allowed_hosts\": [],\n"
            "  \"network_requests\": 0,\n"
            "  \"network_requests_refused\": 0,\n"
            "  \"network_requests_failed\": 0\n"
            "}");
}

TEST(ToPythonJson, NullScoreIntegralFloatsAndEscapes) {
  MedalThresholds t{.gold = 1, .silver = 1, .bronze = 1, .median = 0.9991};
  CompetitionReport r = MakeReport("c\"\xc3\xa9", false, std::nullopt, "why\n", t, {});
  const std::string json = ToPythonJson(r, 0);
  EXPECT_NE(json.find("\"competition_id\": \"c\\\"\\u00e9\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"score\": null"), std::string::npos) << json;
  EXPECT_NE(json.find("\"gold_threshold\": 1.0, "), std::string::npos) << json;
  EXPECT_NE(json.find("\"invalid_reason\": \"why\\n\""), std::string::npos) << json;
  EXPECT_EQ(json.find('\n'), std::string::npos);
}

TEST(ReportFromJson, RoundTrips) {
  CompetitionReport r = MakeReport("comp", true, 0.71234, "", kThresholds, {.seed = 7});
  absl::StatusOr<CompetitionReport> back = ReportFromJson(ToPythonJson(r));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->score().number_value(), 0.71234);
  EXPECT_TRUE(back->bronze_medal());
  EXPECT_EQ(back->seed(), 7);
  absl::StatusOr<CompetitionReport> null_score =
      ReportFromJson(ToPythonJson(MakeReport("c", false, std::nullopt, "", kThresholds, {})));
  ASSERT_TRUE(null_score.ok()) << null_score.status();
  EXPECT_EQ(null_score->score().kind_case(), google::protobuf::Value::kNullValue);
  EXPECT_FALSE(ReportFromJson("{not json").ok());
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

TEST(QuoteNonFiniteNumbers, OnlyBareTokensOutsideStrings) {
  EXPECT_EQ(QuoteNonFiniteNumbers(R"({"a": NaN, "b": "NaN \" Infinity", "c": [-Infinity, Infinity]})"),
            R"({"a": "NaN", "b": "NaN \" Infinity", "c": ["-Infinity", "Infinity"]})");
}

TEST(Aggregate, CountsLikeUpstream) {
  std::vector<CompetitionReport> reports = {
      MakeReport("a", true, 0.95, "", kThresholds, {}),
      MakeReport("b", true, 0.75, "", kThresholds, {}),
      MakeReport("c", true, std::nullopt, "bad", kThresholds, {}),
      MakeReport("d", false, std::nullopt, "", kThresholds, {}),
  };
  AggregatedReport a = Aggregate(reports);
  EXPECT_EQ(a.total_runs(), 4);
  EXPECT_EQ(a.total_runs_with_submissions(), 3);
  EXPECT_EQ(a.total_valid_submissions(), 2);
  EXPECT_EQ(a.total_medals(), 2);
  EXPECT_EQ(a.total_gold_medals(), 1);
  EXPECT_EQ(a.total_bronze_medals(), 1);
  EXPECT_EQ(a.total_above_median(), 2);
  EXPECT_EQ(a.competition_reports_size(), 4);
}

}  // namespace
}  // namespace mlebench
