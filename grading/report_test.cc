#include "grading/report.h"

#include <cmath>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

const MedalThresholds kThresholds{.gold = 0.9, .silver = 0.8, .bronze = 0.7, .median = 0.5,
                                  .is_lower_better = false};

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
