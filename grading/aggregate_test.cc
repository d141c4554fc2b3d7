#include "grading/aggregate.h"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "grading/report.h"
#include "grading/summary.h"
#include "gtest/gtest.h"
#include "absl/strings/str_cat.h"

namespace mlebench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

const MedalThresholds kThresholds{
    .gold = 0.9, .silver = 0.8, .bronze = 0.7, .median = 0.5, .is_lower_better = false};

// Scores that win each outcome under kThresholds (a medal is above the median too).
constexpr double kGold = 0.95, kSilver = 0.85, kBronze = 0.75, kAboveMedian = 0.6, kBelow = 0.1;

const SplitDefinition kSplit{"low", {"a", "b", "c"}};

// A report as a competition test writes it. `score` nullopt with `exists`:
// an invalid submission; without: no submission.
SourcedReport Report(const std::string& id, std::optional<double> score, int64_t seed,
                     bool exists = true, const std::string& dataset = "synthetic",
                     const std::string& agent = "//agents:a") {
  ReportContext context{.agent = agent,
                        .seed = seed,
                        .dataset = dataset,
                        .submission_path = id + "/submission.csv"};
  CompetitionReport r = MakeReport(id, exists, score, score ? "" : "invalid", kThresholds, context);
  r.set_agent_digest("0123456789abcdef");
  return {r, absl::StrCat(id, ".seed-", seed, ".report.json")};
}

// The fixture of docs/agents.md, "Aggregating runs": three competitions, three seeds.
//   seed 0: a gold,         b above median, c invalid
//   seed 1: a silver,       b bronze,       c no submission
//   seed 2: a below median, b gold,         c above median
std::vector<SourcedReport> ThreeSeeds() {
  return {Report("a", kGold, 0),   Report("b", kAboveMedian, 0), Report("c", std::nullopt, 0),
          Report("a", kSilver, 1), Report("b", kBronze, 1),
          Report("c", std::nullopt, 1, /*exists=*/false),
          Report("a", kBelow, 2),  Report("b", kGold, 2),        Report("c", kAboveMedian, 2)};
}

void ExpectMetric(const AggregateMetric& m, double mean, double standard_error) {
  EXPECT_NEAR(m.mean(), mean, 1e-9);
  EXPECT_NEAR(m.standard_error(), standard_error, 1e-9);
  EXPECT_NEAR(m.ci_lower(), mean - 1.96 * standard_error, 1e-9);
  EXPECT_NEAR(m.ci_upper(), mean + 1.96 * standard_error, 1e-9);
}

absl::StatusOr<AggregateOutput> RunAggregate(const std::vector<SourcedReport>& reports,
                                    bool pad_missing = false, int64_t num_seeds = -1) {
  return AggregateRuns(reports, {.splits = {kSplit}, .pad_missing = pad_missing,
                                 .num_seeds = num_seeds});
}

TEST(AggregateRuns, CompleteSeedsHandComputed) {
  auto out = RunAggregate(ThreeSeeds());
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->summary.agents_size(), 1);
  const AgentAggregate& agent = out->summary.agents(0);
  ASSERT_EQ(agent.splits_size(), 1);
  const SplitAggregate& split = agent.splits(0);
  EXPECT_EQ(split.aggregate().num_seeds_averaged(), 3);
  EXPECT_EQ(split.aggregate().num_competitions_per_seed(), 3);
  const AggregateMetricsByName& m = split.aggregate().metrics();
  // any medal per seed: 1/3, 2/3, 1/3 -> mean 400/9; deviations -100/9,
  // 200/9, -100/9 -> variance (ddof=1) 10000/27 -> standard error 100/9.
  ExpectMetric(m.any_medal_percentage(), 400.0 / 9, 100.0 / 9);
  ExpectMetric(m.submission_exists_percentage(), 800.0 / 9, 100.0 / 9);  // 3/3, 2/3, 3/3
  ExpectMetric(m.valid_submissions_percentage(), 700.0 / 9, 100.0 / 9);  // 2/3, 2/3, 3/3
  ExpectMetric(m.above_median_percentage(), 200.0 / 3, 0);                // 2/3 each
  ExpectMetric(m.gold_medal_percentage(), 200.0 / 9, 100.0 / 9);          // 1/3, 0, 1/3
  ExpectMetric(m.silver_medal_percentage(), 100.0 / 9, 100.0 / 9);        // 0, 1/3, 0
  ExpectMetric(m.bronze_medal_percentage(), 100.0 / 9, 100.0 / 9);        // 0, 1/3, 0
  ExpectMetric(m.total_competitions(), 3, 0);
  // Upstream's printed figures for this fixture (Python repr of its floats).
  EXPECT_EQ(m.any_medal_percentage().mean(), 44.444444444444436);
  EXPECT_EQ(m.any_medal_percentage().standard_error(), 11.11111111111111);
  ASSERT_EQ(split.seeds_size(), 3);
  EXPECT_EQ(split.seeds(1).seed(), 1);
  EXPECT_EQ(split.seeds(1).total_competitions(), 3);
  EXPECT_NEAR(split.seeds(1).silver_medal_percentage(), 100.0 / 3, 1e-12);
  EXPECT_THAT(split.seeds_left_out(), IsEmpty());
  EXPECT_EQ(split.padded_reports(), 0);
  EXPECT_THAT(split.note(), HasSubstr("mean over 3 seeds (0, 1, 2) of 3 competitions"));
  EXPECT_THAT(split.note(), HasSubstr("1.96"));
  EXPECT_THAT(agent.dataset_note(), HasSubstr("mean nothing about Kaggle performance"));
  EXPECT_EQ(agent.directory(), "agents_a.0123456789ab.synthetic");
  EXPECT_EQ(split.experiment_id(), "agents_a.0123456789ab.synthetic.low");
}

TEST(AggregateRuns, WritesOneUpstreamGradingReportPerSeed) {
  auto out = RunAggregate(ThreeSeeds());
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->grading_reports.size(), 3u);
  EXPECT_EQ(out->grading_reports[0].path,
            "agents_a.0123456789ab.synthetic/low/seed-0/seed-0_grading_report.json");
  const AggregatedReport& seed1 = out->grading_reports[1].report;
  EXPECT_EQ(seed1.total_runs(), 3);
  EXPECT_EQ(seed1.total_runs_with_submissions(), 2);
  EXPECT_EQ(seed1.total_medals(), 2);
  ASSERT_EQ(seed1.competition_reports_size(), 3);
  EXPECT_EQ(seed1.competition_reports(2).competition_id(), "c");
  EXPECT_EQ(out->run_group_experiments_csv,
            "experiment_id,run_group\n"
            "agents_a.0123456789ab.synthetic.low,agents_a.0123456789ab.synthetic/low/seed-0\n"
            "agents_a.0123456789ab.synthetic.low,agents_a.0123456789ab.synthetic/low/seed-1\n"
            "agents_a.0123456789ab.synthetic.low,agents_a.0123456789ab.synthetic/low/seed-2\n");
  // Read back (as `mlebench aggregate` or `summarize` would): the same figures.
  std::vector<SourcedReport> again;
  for (const GradingReportFile& f : out->grading_reports) {
    auto parsed = ParseReports(ToPythonJson(f.report, 2), f.path);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    again.insert(again.end(), parsed->begin(), parsed->end());
  }
  auto second = RunAggregate(again);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(ToPythonJson(second->summary.agents(0).splits(0).aggregate()),
            ToPythonJson(out->summary.agents(0).splits(0).aggregate()));
}

// Seed 3 lacks c.
std::vector<SourcedReport> WithIncompleteSeed() {
  std::vector<SourcedReport> reports = ThreeSeeds();
  reports.push_back(Report("a", kGold, 3));
  reports.push_back(Report("b", kGold, 3));
  return reports;
}

TEST(AggregateRuns, IncompleteSeedIsLeftOutByDefault) {
  auto out = RunAggregate(WithIncompleteSeed());
  ASSERT_TRUE(out.ok()) << out.status();
  const SplitAggregate& split = out->summary.agents(0).splits(0);
  EXPECT_EQ(split.aggregate().num_seeds_averaged(), 3);
  ExpectMetric(split.aggregate().metrics().any_medal_percentage(), 400.0 / 9, 100.0 / 9);
  ASSERT_EQ(split.seeds_left_out_size(), 1);
  EXPECT_EQ(split.seeds_left_out(0).seed(), 3);
  EXPECT_THAT(split.seeds_left_out(0).missing_competitions(), ElementsAre("c"));
  EXPECT_THAT(split.note(), HasSubstr("left out, incomplete: seed 3"));
  EXPECT_EQ(out->grading_reports.size(), 3u);
}

TEST(AggregateRuns, PadMissingCountsTheMissingReportAsFailing) {
  auto out = RunAggregate(WithIncompleteSeed(), /*pad_missing=*/true);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_TRUE(out->summary.pad_missing());
  const SplitAggregate& split = out->summary.agents(0).splits(0);
  EXPECT_EQ(split.aggregate().num_seeds_averaged(), 4);
  EXPECT_EQ(split.padded_reports(), 1);
  ASSERT_EQ(split.seeds_size(), 4);
  EXPECT_THAT(split.seeds(3).padded_competitions(), ElementsAre("c"));
  // Seed 3: a gold, b gold, c padded -> any medal 2/3, submitted 2/3.
  // any medal 1/3, 2/3, 1/3, 2/3 -> mean 50; deviations -+50/3 -> variance
  // (ddof=1) 4 (2500/9) / 3 = 10000/27 -> standard error 100/sqrt(27) / 2.
  const AggregateMetricsByName& m = split.aggregate().metrics();
  ExpectMetric(m.any_medal_percentage(), 50, 50 / std::sqrt(27.0));
  // submitted 3/3, 2/3, 3/3, 2/3 -> mean 250/3, the same spread.
  ExpectMetric(m.submission_exists_percentage(), 250.0 / 3, 50 / std::sqrt(27.0));
  ExpectMetric(m.total_competitions(), 3, 0);
  EXPECT_THAT(split.note(), HasSubstr("padded: 1 missing reports counted as failing"));
  // The padded report is in seed 3's grading report, failing and saying why.
  ASSERT_EQ(out->grading_reports.size(), 4u);
  const CompetitionReport& padded = out->grading_reports[3].report.competition_reports(2);
  EXPECT_EQ(padded.competition_id(), "c");
  EXPECT_FALSE(padded.submission_exists());
  EXPECT_FALSE(padded.valid_submission());
  EXPECT_FALSE(padded.any_medal());
  EXPECT_EQ(padded.score().kind_case(), google::protobuf::Value::kNullValue);
  EXPECT_EQ(padded.seed(), 3);
  EXPECT_EQ(padded.gold_threshold(), 0.9);  // from another seed's report of c
  EXPECT_THAT(padded.invalid_reason(), HasSubstr("--pad-missing"));
  EXPECT_THAT(FormatAggregate(out->summary), HasSubstr("seed 3 padded: c counted as failing"));
}

TEST(AggregateRuns, MiddleSeedIncompleteIsLeftOutAsAWhole) {
  // Seed 1 lacks c: seeds 0 and 2 are averaged (upstream, pairing by order,
  // would pair seed 2's c with seed 1's a and b).
  std::vector<SourcedReport> reports;
  for (const SourcedReport& r : ThreeSeeds()) {
    if (r.report.seed() == 1 && r.report.competition_id() == "c") continue;
    reports.push_back(r);
  }
  auto out = RunAggregate(reports);
  ASSERT_TRUE(out.ok()) << out.status();
  const SplitAggregate& split = out->summary.agents(0).splits(0);
  ASSERT_EQ(split.seeds_size(), 2);
  EXPECT_EQ(split.seeds(1).seed(), 2);
  // any medal 1/3, 1/3.
  ExpectMetric(split.aggregate().metrics().any_medal_percentage(), 100.0 / 3, 0);
}

TEST(AggregateRuns, OneSeedHasStandardErrorZeroAsUpstream) {
  std::vector<SourcedReport> reports = {Report("a", kGold, 0), Report("b", kAboveMedian, 0), Report("c", std::nullopt, 0)};
  auto out = RunAggregate(reports);
  ASSERT_TRUE(out.ok()) << out.status();
  const SplitAggregate& split = out->summary.agents(0).splits(0);
  EXPECT_EQ(split.aggregate().num_seeds_averaged(), 1);
  const AggregateMetric& any = split.aggregate().metrics().any_medal_percentage();
  EXPECT_EQ(any.mean(), 33.33333333333333);  // 1 / 3 * 100, as Python
  EXPECT_EQ(any.standard_error(), 0.0);
  EXPECT_EQ(any.ci_lower(), any.mean());
  EXPECT_EQ(any.ci_upper(), any.mean());
  EXPECT_THAT(split.note(), HasSubstr("one seed: the standard error is undefined"));
}

TEST(AggregateRuns, NumSeedsKeepsTheFirstSeeds) {
  auto out = RunAggregate(ThreeSeeds(), false, 2);
  ASSERT_TRUE(out.ok()) << out.status();
  const SplitAggregate& split = out->summary.agents(0).splits(0);
  EXPECT_EQ(split.aggregate().num_seeds_averaged(), 2);
  // any medal 1/3, 2/3 -> mean 50, standard error 50/3.
  ExpectMetric(split.aggregate().metrics().any_medal_percentage(), 50, 50.0 / 3);
  ASSERT_EQ(split.seeds_left_out_size(), 1);
  EXPECT_EQ(split.seeds_left_out(0).seed(), 2);
  EXPECT_THAT(split.note(), HasSubstr("beyond --num-seeds: seed 2"));
}

TEST(AggregateRuns, DatasetsAreKeptApartAndSaidSo) {
  std::vector<SourcedReport> reports = ThreeSeeds();
  for (const std::string id : {"a", "b", "c"}) reports.push_back(Report(id, kGold, 0, true, "kaggle"));
  auto out = RunAggregate(reports);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->summary.agents_size(), 2);
  EXPECT_EQ(out->summary.agents(0).dataset(), "kaggle");
  EXPECT_EQ(out->summary.agents(0).dataset_note(), "");
  ExpectMetric(out->summary.agents(0).splits(0).aggregate().metrics().any_medal_percentage(), 100,
               0);
  EXPECT_EQ(out->summary.agents(1).dataset(), "synthetic");
  ExpectMetric(out->summary.agents(1).splits(0).aggregate().metrics().any_medal_percentage(),
               400.0 / 9, 100.0 / 9);
  EXPECT_THAT(out->summary.datasets_note(), HasSubstr("never averaged together"));
  const std::string text = FormatAggregate(out->summary);
  EXPECT_THAT(text, HasSubstr("mean nothing about Kaggle performance"));
  EXPECT_THAT(text, HasSubstr("on kaggle data"));
}

TEST(AggregateRuns, AgentsAndDigestsAreNeverMixed) {
  std::vector<SourcedReport> reports = ThreeSeeds();
  for (const std::string id : {"a", "b", "c"}) {
    SourcedReport r = Report(id, kGold, 0);
    r.report.set_agent_digest("fedcba9876543210");
    reports.push_back(r);
  }
  auto out = RunAggregate(reports);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->summary.agents_size(), 2);
  EXPECT_EQ(out->summary.agents(1).agent_digest(), "fedcba9876543210");
  EXPECT_EQ(out->summary.agents(1).splits(0).aggregate().num_seeds_averaged(), 1);
}

TEST(AggregateRuns, UpstreamReportsAreNumberedByOrder) {
  // Two upstream grading reports (no seed, agent or dataset): the first has
  // a, b, c, the second a and b, as upstream's script reads them.
  std::vector<SourcedReport> reports;
  for (const SourcedReport& r : ThreeSeeds()) {
    if (r.report.seed() == 2 || (r.report.seed() == 1 && r.report.competition_id() == "c")) continue;
    SourcedReport u = r;
    u.report.clear_agent();
    u.report.clear_agent_digest();
    u.report.clear_dataset();
    u.report.set_seed(0);
    u.seed_recorded = false;
    reports.push_back(u);
  }
  auto out = RunAggregate(reports);
  ASSERT_TRUE(out.ok()) << out.status();
  const AgentAggregate& agent = out->summary.agents(0);
  EXPECT_TRUE(agent.seeds_by_order());
  EXPECT_EQ(agent.directory(), "agent-not-recorded.data-not-recorded");
  // Upstream without --pad-missing: min(3 reports of a, ...) = 1 seed.
  EXPECT_EQ(agent.splits(0).aggregate().num_seeds_averaged(), 1);
  // With it: max = 2 seeds, the second's c padded.
  auto padded = RunAggregate(reports, true);
  ASSERT_TRUE(padded.ok()) << padded.status();
  const SplitAggregate& split = padded->summary.agents(0).splits(0);
  EXPECT_EQ(split.aggregate().num_seeds_averaged(), 2);
  EXPECT_THAT(split.seeds(1).padded_competitions(), ElementsAre("c"));
  // any medal 1/3, 2/3.
  ExpectMetric(split.aggregate().metrics().any_medal_percentage(), 50, 50.0 / 3);
}

TEST(AggregateRuns, MixingReportsWithAndWithoutSeedIsAnError) {
  std::vector<SourcedReport> reports = ThreeSeeds();
  reports.back().seed_recorded = false;
  auto out = RunAggregate(reports);
  ASSERT_FALSE(out.ok());
  EXPECT_THAT(out.status().message(), HasSubstr("some reports record their seed and some do not"));
}

TEST(AggregateRuns, DuplicatesCountOnceConflictsAreErrors) {
  std::vector<SourcedReport> reports = ThreeSeeds();
  SourcedReport copy = reports[0];
  copy.report.set_created_at("2024-01-01T00:00:00.000000");
  copy.source = "elsewhere/a.report.json";
  reports.push_back(copy);
  auto out = RunAggregate(reports);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->summary.reports(), 9);
  EXPECT_EQ(out->summary.duplicate_reports(), 1);
  reports.push_back(Report("a", kBelow, 0));
  auto conflict = RunAggregate(reports);
  ASSERT_FALSE(conflict.ok());
  EXPECT_THAT(conflict.status().message(), HasSubstr("conflicting reports for a"));
}

TEST(AggregateRuns, NoCompleteSeedSkipsTheSplit) {
  std::vector<SourcedReport> reports = {Report("a", kGold, 0), Report("b", kGold, 1)};
  auto out = RunAggregate(reports);
  ASSERT_FALSE(out.ok());
  EXPECT_THAT(out.status().message(), HasSubstr("have no report in any seed (c)"));
  EXPECT_THAT(out.status().message(), HasSubstr("--pad-missing"));
  // With another split that can be formed, the split is listed as skipped.
  auto two = AggregateRuns(reports, {.splits = {kSplit, {"dev", {"a"}}}});
  ASSERT_TRUE(two.ok()) << two.status();
  ASSERT_EQ(two->summary.agents(0).skipped_splits_size(), 1);
  EXPECT_EQ(two->summary.agents(0).skipped_splits(0).split(), "low");
  EXPECT_EQ(two->summary.agents(0).splits(0).split(), "dev");
}

TEST(SplitsByName, LiteIsLowAndAllIsEverything) {
  std::map<std::string, CompetitionInfo> table;
  table["x"] = {.id = "x", .splits = {"low", "split75"}};
  table["y"] = {.id = "y", .splits = {"dev"}};
  auto splits = SplitsByName(table, {"lite", "low", "all", "dev"});
  ASSERT_TRUE(splits.ok()) << splits.status();
  ASSERT_EQ(splits->size(), 3u);
  EXPECT_EQ((*splits)[0].name, "low");
  EXPECT_THAT((*splits)[0].competitions, ElementsAre("x"));
  EXPECT_THAT((*splits)[1].competitions, ElementsAre("x", "y"));
  EXPECT_FALSE(SplitsByName(table, {"huge"}).ok());
}

}  // namespace
}  // namespace mlebench

namespace mlebench {
namespace {

TEST(IsAggregateSummaryJson, SummariesAreNotReports) {
  EXPECT_TRUE(IsAggregateSummaryJson("{\"agents\": [], \"reports\": 0}"));
  EXPECT_FALSE(IsAggregateSummaryJson("{\"competition_reports\": []}"));
  EXPECT_FALSE(IsAggregateSummaryJson("{\"competition_id\": \"x\", \"invalid_reason\": \"\\\"agents\\\"\"}"));
  EXPECT_FALSE(IsAggregateSummaryJson("{"));
  EXPECT_FALSE(IsAggregateSummaryJson("[\"agents\"]"));
}

}  // namespace
}  // namespace mlebench
