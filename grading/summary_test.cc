#include "grading/summary.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "grading/report.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::ContainsRegex;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

const MedalThresholds kThresholds{
    .gold = 0.9, .silver = 0.8, .bronze = 0.7, .median = 0.5, .is_lower_better = false};

// Scores that win each outcome under kThresholds.
constexpr double kGold = 0.95, kSilver = 0.85, kBronze = 0.75, kAboveMedian = 0.6, kBelow = 0.1;

CompetitionReport Report(const std::string& id, std::optional<double> score, int64_t seed = 0,
                         const std::string& agent = "//agents:a", bool exists = true) {
  ReportContext context{.agent = agent,
                        .seed = seed,
                        .dataset = "synthetic",
                        .submission_path = id + "/submission.csv"};
  // As a competition test writes it: the run's isolation filled in.
  CompetitionReport report =
      MakeReport(id, exists, score, score ? "" : "invalid", kThresholds, context);
  report.set_isolation("bwrap");
  report.set_network("deny");
  return report;
}

SourcedReport Sourced(const CompetitionReport& r, const std::string& source = "") {
  return {r, source.empty() ? r.competition_id() + "-" + std::to_string(r.seed()) : source};
}

bool IsNull(const google::protobuf::Value& v) {
  return v.kind_case() == google::protobuf::Value::kNullValue;
}

// --- ParseReports ---

TEST(ParseReports, ReadsOneReportAsWritten) {
  const CompetitionReport written = Report("comp", kSilver, 3);
  auto reports = ParseReports(ToPythonJson(written, 2), "dir/comp.report.json");
  ASSERT_TRUE(reports.ok()) << reports.status();
  ASSERT_EQ(reports->size(), 1u);
  EXPECT_EQ((*reports)[0].source, "dir/comp.report.json");
  EXPECT_EQ((*reports)[0].report.SerializeAsString(), written.SerializeAsString());
}

TEST(ParseReports, ReadsAggregatedReportsInOrder) {
  const AggregatedReport aggregated =
      Aggregate({Report("b", kGold), Report("a", std::nullopt, 0, "//agents:a", false)});
  auto reports = ParseReports(ToPythonJson(aggregated, 2), "x_grading_report.json");
  ASSERT_TRUE(reports.ok()) << reports.status();
  ASSERT_EQ(reports->size(), 2u);
  EXPECT_EQ((*reports)[0].report.competition_id(), "b");
  EXPECT_TRUE((*reports)[0].report.gold_medal());
  EXPECT_EQ((*reports)[1].source, "x_grading_report.json: competition_reports[1]");
  EXPECT_FALSE((*reports)[1].report.submission_exists());
  EXPECT_TRUE(IsNull((*reports)[1].report.score()));
}

TEST(ParseReports, UpstreamReportWithoutOurFieldsGetsDefaults) {
  // The shape of upstream's CompetitionReport.to_dict().
  const std::string upstream = R"({"competition_id": "spaceship-titanic", "score": 0.8,
      "gold_threshold": 0.82066, "silver_threshold": 0.81388, "bronze_threshold": 0.80967,
      "median_threshold": 0.79565, "any_medal": false, "gold_medal": false,
      "silver_medal": false, "bronze_medal": false, "above_median": true,
      "submission_exists": true, "valid_submission": true, "is_lower_better": false,
      "created_at": "2024-10-01T12:00:00.123456", "submission_path": "/x/submission.csv"})";
  auto reports = ParseReports(upstream, "u.json");
  ASSERT_TRUE(reports.ok()) << reports.status();
  const CompetitionReport& r = (*reports)[0].report;
  EXPECT_EQ(r.agent(), "");
  EXPECT_EQ(r.seed(), 0);
  EXPECT_EQ(r.dataset(), "");
  EXPECT_TRUE(r.above_median());
  EXPECT_EQ(r.score().number_value(), 0.8);
}

TEST(ParseReports, EachRequiredFieldIsRequired) {
  for (const std::string field : {"competition_id", "gold_medal", "silver_medal", "bronze_medal",
                                  "above_median", "submission_exists", "valid_submission"}) {
    google::protobuf::Struct object;
    for (const std::string name : {"gold_medal", "silver_medal", "bronze_medal", "above_median",
                                   "submission_exists", "valid_submission"}) {
      (*object.mutable_fields())[name].set_bool_value(false);
    }
    (*object.mutable_fields())["competition_id"].set_string_value("c");
    object.mutable_fields()->erase(field);
    std::string json;
    ASSERT_TRUE(google::protobuf::util::MessageToJsonString(object, &json).ok());
    auto reports = ParseReports(json, "f.json");
    ASSERT_FALSE(reports.ok()) << field;
    EXPECT_THAT(std::string(reports.status().message()),
                HasSubstr("f.json: missing field `" + field + "`"));
  }
}

TEST(ParseReports, MissingFieldInAggregatedReportNamesTheEntry) {
  auto reports = ParseReports(R"({"competition_reports": [{"competition_id": "c"}]})", "g.json");
  ASSERT_FALSE(reports.ok());
  EXPECT_THAT(std::string(reports.status().message()),
              HasSubstr("g.json: competition_reports[0]: missing field `gold_medal`"));
}

TEST(ParseReports, WrongTypesAreNamed) {
  const std::string base = R"("gold_medal": false, "silver_medal": false, "bronze_medal": false,
      "above_median": false, "submission_exists": true, "valid_submission": true)";
  struct Case {
    std::string extra;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {R"("competition_id": 3)", "`competition_id` must be a non-empty string"},
           {R"("competition_id": "")", "`competition_id` must be a non-empty string"},
           {R"("competition_id": "c", "seed": 1.5)", "`seed` must be an integer, not a number"},
           {R"("competition_id": "c", "seed": "1")", "`seed` must be an integer, not a string"},
           {R"("competition_id": "c", "agent": null)", "`agent` must be a string, not null"},
           {R"("competition_id": "c", "score": "0.5")", "`score` must be a number or null"},
           {R"("competition_id": "c", "gold_threshold": true)",
            "`gold_threshold` must be a number"},
       }) {
    const std::string json = "{" + c.extra + ", " + base + "}";
    auto reports = ParseReports(json, "t.json");
    ASSERT_FALSE(reports.ok()) << json;
    EXPECT_THAT(std::string(reports.status().message()), HasSubstr(c.message)) << json;
  }
  auto wrong_bool = ParseReports(R"({"competition_id": "c", "gold_medal": 1, "silver_medal": false,
      "bronze_medal": false, "above_median": false, "submission_exists": true,
      "valid_submission": true})",
                                 "t.json");
  ASSERT_FALSE(wrong_bool.ok());
  EXPECT_THAT(std::string(wrong_bool.status().message()),
              HasSubstr("`gold_medal` must be true or false, not a number"));
}

TEST(ParseReports, AnyMedalMustAgreeWithTheMedals) {
  CompetitionReport r = Report("c", kBelow);
  r.set_any_medal(true);
  auto reports = ParseReports(ToPythonJson(r), "bad.json");
  ASSERT_FALSE(reports.ok());
  EXPECT_THAT(std::string(reports.status().message()), HasSubstr("bad.json: `any_medal` is true"));
}

TEST(ParseReports, RejectsWhatIsNotAReport) {
  for (const std::string json : {"", "[1, 2]", "not json", "{\"competition_reports\": 3}",
                                 "{\"competition_reports\": [3]}"}) {
    auto reports = ParseReports(json, "n.json");
    ASSERT_FALSE(reports.ok()) << json;
    EXPECT_THAT(std::string(reports.status().message()), HasSubstr("n.json")) << json;
  }
  auto empty = ParseReports("{\"competition_reports\": []}", "e.json");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

// --- Summarize ---

TEST(Summarize, NoReportsIsAnError) { EXPECT_FALSE(Summarize({}).ok()); }

TEST(Summarize, OneSeedHasNoStandardError) {
  auto summary = Summarize({Sourced(Report("a", kGold)), Sourced(Report("b", kBelow)),
                            Sourced(Report("c", kAboveMedian)), Sourced(Report("d", kBronze))});
  ASSERT_TRUE(summary.ok()) << summary.status();
  ASSERT_EQ(summary->agents_size(), 1);
  const AgentSummary& agent = summary->agents(0);
  EXPECT_EQ(agent.agent(), "//agents:a");
  EXPECT_EQ(agent.dataset(), "synthetic");
  EXPECT_EQ(agent.num_seeds(), 1);
  EXPECT_EQ(agent.any_medal_percentage().mean(), 50.0);
  EXPECT_TRUE(IsNull(agent.any_medal_percentage().standard_error()));
  EXPECT_TRUE(IsNull(agent.any_medal_percentage().ci_lower()));
  EXPECT_EQ(agent.above_median_percentage().mean(), 75.0);
  ASSERT_EQ(agent.seeds_size(), 1);
  const SeedSummary& seed = agent.seeds(0);
  EXPECT_EQ(seed.total_competitions(), 4);
  EXPECT_EQ(seed.gold_medals(), 1);
  EXPECT_EQ(seed.silver_medals(), 0);
  EXPECT_EQ(seed.bronze_medals(), 1);
  EXPECT_EQ(seed.any_medals(), 2);
  EXPECT_EQ(seed.above_median(), 3);
  EXPECT_EQ(seed.valid_submissions(), 4);
  EXPECT_EQ(summary->reports(), 4);
  EXPECT_EQ(summary->duplicate_reports(), 0);
}

std::vector<SourcedReport> ThreeSeeds() {
  return {
      // seed 0: 2 of 3 medals
      Sourced(Report("a", kGold, 0)),
      Sourced(Report("b", kSilver, 0)),
      Sourced(Report("c", kBelow, 0)),
      // seed 1: 1 of 3; one invalid, one missing submission
      Sourced(Report("a", kBronze, 1)),
      Sourced(Report("b", std::nullopt, 1)),
      Sourced(Report("c", std::nullopt, 1, "//agents:a", false)),
      // seed 2: none
      Sourced(Report("a", kBelow, 2)),
      Sourced(Report("b", kAboveMedian, 2)),
      Sourced(Report("c", kBelow, 2)),
  };
}

TEST(Summarize, ThreeSeedsGiveMeanAndStandardError) {
  auto summary = Summarize(ThreeSeeds());
  ASSERT_TRUE(summary.ok()) << summary.status();
  const AgentSummary& agent = summary->agents(0);
  EXPECT_EQ(agent.num_seeds(), 3);
  // Per seed 200/3, 100/3 and 0 percent: mean 100/3; sample standard
  // deviation 100/3, so the standard error is 100/3/sqrt(3).
  EXPECT_NEAR(agent.any_medal_percentage().mean(), 100.0 / 3, 1e-12);
  const double se = 100.0 / 3 / std::sqrt(3.0);
  EXPECT_NEAR(agent.any_medal_percentage().standard_error().number_value(), se, 1e-12);
  EXPECT_NEAR(agent.any_medal_percentage().ci_lower().number_value(), 100.0 / 3 - 1.96 * se, 1e-12);
  EXPECT_NEAR(agent.any_medal_percentage().ci_upper().number_value(), 100.0 / 3 + 1.96 * se, 1e-12);
  EXPECT_NEAR(agent.gold_medal_percentage().mean(), 100.0 / 9, 1e-12);
  // Valid: 3, 1, 3 of 3.
  EXPECT_NEAR(agent.valid_submissions_percentage().mean(), 700.0 / 9, 1e-12);
  EXPECT_NEAR(agent.submission_exists_percentage().mean(), 800.0 / 9, 1e-12);
  ASSERT_EQ(agent.seeds_size(), 3);
  EXPECT_EQ(agent.seeds(1).seed(), 1);
  EXPECT_EQ(agent.seeds(1).submissions(), 2);
  EXPECT_EQ(agent.seeds(1).valid_submissions(), 1);
  ASSERT_EQ(agent.competitions_size(), 3);
  const CompetitionAcrossSeeds& a = agent.competitions(0);
  EXPECT_EQ(a.competition_id(), "a");
  EXPECT_EQ(a.seeds_seen(), 3);
  EXPECT_EQ(a.medals(), 2);
  std::vector<std::string> outcomes;
  for (const auto& c : agent.competitions()) {
    for (const auto& o : c.outcomes()) outcomes.push_back(c.competition_id() + o.outcome());
  }
  EXPECT_THAT(outcomes,
              ElementsAre("agold", "abronze", "abelow-median", "bsilver", "binvalid",
                          "babove-median", "cbelow-median", "cno-submission", "cbelow-median"));
}

TEST(Summarize, DoesNotDependOnTheOrderOfReports) {
  std::vector<SourcedReport> reports = ThreeSeeds();
  auto forward = Summarize(reports);
  std::reverse(reports.begin(), reports.end());
  auto backward = Summarize(reports);
  ASSERT_TRUE(forward.ok() && backward.ok());
  EXPECT_EQ(ToPythonJson(*forward), ToPythonJson(*backward));
  EXPECT_EQ(FormatSummary(*forward), FormatSummary(*backward));
}

TEST(Summarize, IdenticalReportsCountOnceEvenWhenGradedAtDifferentTimes) {
  CompetitionReport first = Report("a", kGold);
  first.set_created_at("2024-01-01T00:00:00");
  CompetitionReport again = first;
  again.set_created_at("2024-06-01T00:00:00");
  auto summary = Summarize({Sourced(first, "one.json"), Sourced(again, "two.json"),
                            Sourced(first, "one-copy.json"), Sourced(Report("b", kBelow))});
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->reports(), 2);
  EXPECT_EQ(summary->duplicate_reports(), 2);
  EXPECT_EQ(summary->agents(0).seeds(0).total_competitions(), 2);
  EXPECT_EQ(summary->agents(0).any_medal_percentage().mean(), 50.0);
}

TEST(Summarize, ConflictingReportsNameBothSourcesAndTheDifference) {
  auto summary = Summarize({Sourced(Report("a", kGold, 4), "first/outputs.zip:a.report.json"),
                            Sourced(Report("a", kBelow, 4), "second/a.report.json")});
  ASSERT_FALSE(summary.ok());
  const std::string message(summary.status().message());
  EXPECT_THAT(message,
              HasSubstr("conflicting reports for a (agent //agents:a, synthetic data, seed 4)"));
  EXPECT_THAT(message,
              HasSubstr("first/outputs.zip:a.report.json and second/a.report.json differ"));
  EXPECT_THAT(message, HasSubstr("score"));
  EXPECT_THAT(message, HasSubstr("gold_medal"));
}

TEST(Summarize, KeepsAgentsAndDatasetsApart) {
  CompetitionReport kaggle = Report("a", kBelow, 0, "//agents:a");
  kaggle.set_dataset("kaggle");
  auto summary = Summarize({Sourced(Report("a", kGold, 0, "//agents:b")),
                            Sourced(Report("a", kBelow, 0, "//agents:a")), Sourced(kaggle),
                            Sourced(Report("b", kGold, 0, "//agents:a"))});
  ASSERT_TRUE(summary.ok()) << summary.status();
  ASSERT_EQ(summary->agents_size(), 3);
  EXPECT_EQ(summary->agents(0).agent(), "//agents:a");
  EXPECT_EQ(summary->agents(0).dataset(), "kaggle");
  EXPECT_EQ(summary->agents(0).any_medal_percentage().mean(), 0.0);
  EXPECT_EQ(summary->agents(1).agent(), "//agents:a");
  EXPECT_EQ(summary->agents(1).dataset(), "synthetic");
  EXPECT_EQ(summary->agents(1).any_medal_percentage().mean(), 50.0);
  EXPECT_EQ(summary->agents(2).agent(), "//agents:b");
  EXPECT_EQ(summary->agents(2).any_medal_percentage().mean(), 100.0);
}

TEST(Summarize, SeedsWithFewerCompetitionsListWhatIsMissing) {
  auto summary = Summarize({Sourced(Report("a", kGold, 0)), Sourced(Report("b", kGold, 0)),
                            Sourced(Report("a", kGold, 1))});
  ASSERT_TRUE(summary.ok()) << summary.status();
  const AgentSummary& agent = summary->agents(0);
  EXPECT_TRUE(agent.seeds(0).missing_competitions().empty());
  EXPECT_THAT(agent.seeds(1).missing_competitions(), ElementsAre("b"));
  EXPECT_EQ(agent.seeds(1).any_medal_percentage(), 100.0);
  EXPECT_EQ(agent.competitions(1).seeds_seen(), 1);
  EXPECT_THAT(FormatSummary(*summary),
              HasSubstr("warning: seed 1 has no report for b; its percentages are over its 1 "
                        "competitions"));
  EXPECT_THAT(FormatSummary(*summary),
              ContainsRegex("  b +1 +1 +0 +- +[0-9.]+ gold +-\n"));
}

TEST(Summarize, RunsThatDifferOnlyInWhatTheyMeasuredAreOneReport) {
  CompetitionReport first = Report("a", kGold, 0);
  CompetitionReport again = first;
  first.set_wall_seconds(1.25);
  first.set_cpu_seconds(1.5);
  first.set_memory_peak_bytes(1000);
  again.set_wall_seconds(1.5);
  again.set_cpu_seconds(1.75);
  again.set_memory_peak_bytes(2000);
  auto summary = Summarize({Sourced(first), Sourced(again, "agent_test")});
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->reports(), 1);
  EXPECT_EQ(summary->duplicate_reports(), 1);
  again.set_agent_digest("other code");
  summary = Summarize({Sourced(first), Sourced(again, "agent_test")});
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->agents_size(), 2);  // another digest is another agent
}

// --- FormatSummary ---

TEST(FormatSummary, OneSeed) {
  auto summary = Summarize({Sourced(Report("spaceship-titanic", kGold)),
                            Sourced(Report("spaceship-titanic", kGold), "copy"),
                            Sourced(Report("aerial-cactus-identification", std::nullopt))});
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(
      FormatSummary(*summary),
      "2 reports (and 1 identical duplicate, counted once), 1 agent\n"
      "\n"
      "agent //agents:a on synthetic data: 1 seed, 2 competitions\n"
      "  any medal         50.0% (1 seed: standard error n/a)\n"
      "  gold              50.0% (1 seed: standard error n/a)\n"
      "  silver            0.0% (1 seed: standard error n/a)\n"
      "  bronze            0.0% (1 seed: standard error n/a)\n"
      "  above median      50.0% (1 seed: standard error n/a)\n"
      "  valid submission  50.0% (1 seed: standard error n/a)\n"
      "\n"
      "  seed  competitions  submissions  valid  beat sample  gold  silver  bronze  any medal  "
      "above median\n"
      "  0     2             2            1      0            1     0       0       50.0%      "
      "50.0%\n"
      "\n"
      "  competition                   seeds  medals  beat sample  sample score  seed 0\n"
      "  aerial-cactus-identification  1      0       0            -             invalid\n"
      "  spaceship-titanic             1      1       0            -             0.95 gold\n");
}

TEST(FormatSummary, ThreeSeedsShowStandardError) {
  auto summary = Summarize(ThreeSeeds());
  ASSERT_TRUE(summary.ok()) << summary.status();
  const std::string text = FormatSummary(*summary);
  EXPECT_THAT(text, HasSubstr("9 reports, 1 agent\n"));
  EXPECT_THAT(text, HasSubstr("agent //agents:a on synthetic data: 3 seeds, 3 competitions\n"));
  EXPECT_THAT(
      text,
      HasSubstr("  any medal         33.3% +- 19.2% (mean +- standard error over 3 seeds)\n"));
  EXPECT_THAT(
      text, ContainsRegex("  b +3 +1 +0 +- +[0-9.]+ silver +invalid +[0-9.]+ above-median\n"));
}

TEST(FormatSummary, RunsWithoutOrWithUnknownIsolationAreFlagged) {
  CompetitionReport unisolated = Report("a", kGold);
  unisolated.set_isolation("none");
  unisolated.set_network("allow");
  CompetitionReport unknown = Report("b", kGold);
  unknown.clear_isolation();
  unknown.clear_network();
  auto summary = Summarize({Sourced(unisolated), Sourced(unknown), Sourced(Report("c", kBelow))});
  ASSERT_TRUE(summary.ok()) << summary.status();
  ASSERT_EQ(summary->agents_size(), 1);
  EXPECT_EQ(summary->agents(0).unisolated_reports(), 1);
  EXPECT_EQ(summary->agents(0).isolation_unknown_reports(), 1);
  const std::string text = FormatSummary(*summary);
  EXPECT_THAT(text, HasSubstr("  warning: 1 of 3 reports come from runs without isolation "
                              "(isolation none): the agent could have read the answers, so "
                              "these numbers are no result\n"));
  EXPECT_THAT(text, HasSubstr("  note: 1 of 3 reports do not record the isolation of their run"));

  // All isolated: neither line.
  auto clean = Summarize({Sourced(Report("a", kGold)), Sourced(Report("b", kBelow))});
  ASSERT_TRUE(clean.ok());
  EXPECT_THAT(FormatSummary(*clean), Not(HasSubstr("isolation")));
}

TEST(FormatSummary, UnrecordedAgentAndDatasetAreSaidSo) {
  CompetitionReport r = Report("a", kGold, 0, "");
  r.clear_dataset();
  auto summary = Summarize({Sourced(r)});
  ASSERT_TRUE(summary.ok());
  EXPECT_THAT(
      FormatSummary(*summary),
      HasSubstr("agent (agent not recorded) on data not recorded: 1 seed, 1 competition\n"));
}

}  // namespace
}  // namespace mlebench
