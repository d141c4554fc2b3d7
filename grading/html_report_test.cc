#include "grading/html_report.h"

#include <cmath>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::DoubleEq;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(ThresholdPosition, HigherIsBetterInterpolatesAndClamps) {
  // median 0.5, bronze 0.6, silver 0.7, gold 0.9
  EXPECT_THAT(ThresholdPosition(0.5, 0.5, 0.6, 0.7, 0.9, false), DoubleEq(0));
  EXPECT_THAT(ThresholdPosition(0.65, 0.5, 0.6, 0.7, 0.9, false), DoubleEq(1.5));
  EXPECT_THAT(ThresholdPosition(0.8, 0.5, 0.6, 0.7, 0.9, false), DoubleEq(2.5));
  EXPECT_THAT(ThresholdPosition(0.9, 0.5, 0.6, 0.7, 0.9, false), DoubleEq(3));
  // Beyond gold at the last gap's scale (0.2), clamped at 3.5.
  EXPECT_THAT(ThresholdPosition(0.95, 0.5, 0.6, 0.7, 0.9, false), DoubleEq(3.25));
  EXPECT_THAT(ThresholdPosition(5, 0.5, 0.6, 0.7, 0.9, false), DoubleEq(3.5));
  // Below the median at the first gap's scale (0.1), clamped at -1.
  EXPECT_THAT(ThresholdPosition(0.45, 0.5, 0.6, 0.7, 0.9, false), DoubleEq(-0.5));
  EXPECT_THAT(ThresholdPosition(-100, 0.5, 0.6, 0.7, 0.9, false), DoubleEq(-1));
  EXPECT_THAT(ThresholdPosition(INFINITY, 0.5, 0.6, 0.7, 0.9, false), DoubleEq(3.5));
}

TEST(ThresholdPosition, LowerIsBetterPutsBetterToTheRight) {
  // RMSE-like: median 10, bronze 8, silver 6, gold 2.
  EXPECT_THAT(ThresholdPosition(10, 10, 8, 6, 2, true), DoubleEq(0));
  EXPECT_THAT(ThresholdPosition(9, 10, 8, 6, 2, true), DoubleEq(0.5));
  EXPECT_THAT(ThresholdPosition(4, 10, 8, 6, 2, true), DoubleEq(2.5));
  EXPECT_THAT(ThresholdPosition(1, 10, 8, 6, 2, true), DoubleEq(3.25));
  EXPECT_THAT(ThresholdPosition(11, 10, 8, 6, 2, true), DoubleEq(-0.5));
  EXPECT_THAT(ThresholdPosition(1000, 10, 8, 6, 2, true), DoubleEq(-1));
}

TEST(ThresholdPosition, EqualThresholdsPlaceAScoreAtTheHighestItReaches) {
  // bronze == silver == gold: reaching them is gold, as grading's medal.
  EXPECT_THAT(ThresholdPosition(1.0, 0.5, 1.0, 1.0, 1.0, false), DoubleEq(3));
  EXPECT_THAT(ThresholdPosition(0.75, 0.5, 1.0, 1.0, 1.0, false), DoubleEq(0.5));
  // Beyond gold at the last non-empty gap's scale (0.5).
  EXPECT_THAT(ThresholdPosition(1.25, 0.5, 1.0, 1.0, 1.0, false), DoubleEq(3.5));
  // All equal: no scale, so the ends of the axis.
  EXPECT_THAT(ThresholdPosition(1, 1, 1, 1, 1, false), DoubleEq(3));
  EXPECT_THAT(ThresholdPosition(1.1, 1, 1, 1, 1, false), DoubleEq(3.5));
  EXPECT_THAT(ThresholdPosition(0.9, 1, 1, 1, 1, false), DoubleEq(-1));
  EXPECT_THAT(ThresholdPosition(0.9, 1, 1, 1, 1, true), DoubleEq(3.5));
}

TEST(ThresholdPosition, NanScoreOrThresholdIsNan) {
  EXPECT_TRUE(std::isnan(ThresholdPosition(NAN, 0.5, 0.6, 0.7, 0.9, false)));
  EXPECT_TRUE(std::isnan(ThresholdPosition(0.6, NAN, 0.6, 0.7, 0.9, false)));
  EXPECT_TRUE(std::isnan(ThresholdPosition(0.6, 0.5, 0.6, 0.7, NAN, true)));
}

TEST(HtmlEscape, EscapesMarkupCharacters) {
  EXPECT_EQ(HtmlEscape("<a href=\"x\" title='y'>&</a>"),
            "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
}

SourcedReport Report(const std::string& id, int64_t seed, double score, const std::string& medal) {
  SourcedReport s;
  CompetitionReport& r = s.report;
  r.set_competition_id(id);
  r.set_agent("//my:agent");
  r.set_agent_digest("abc");
  r.set_dataset("synthetic");
  r.set_seed(seed);
  r.set_submission_exists(true);
  r.set_valid_submission(true);
  r.mutable_score()->set_number_value(score);
  r.set_median_threshold(0.5);
  r.set_bronze_threshold(0.6);
  r.set_silver_threshold(0.7);
  r.set_gold_threshold(0.9);
  if (medal == "gold") r.set_gold_medal(true);
  if (medal == "bronze") r.set_bronze_medal(true);
  return s;
}

TEST(HtmlReport, SelfContainedTablesPlotsAndEscapedAgentText) {
  AggregateSummary summary;
  AgentAggregate* agent = summary.add_agents();
  agent->set_agent("//my:agent<b>");
  agent->set_agent_digest("abc");
  agent->set_dataset("synthetic");
  agent->set_dataset_note("synthetic data: medals mean nothing about Kaggle performance");
  SplitAggregate* low = agent->add_splits();
  low->set_split("low");
  low->mutable_aggregate()->set_num_seeds_averaged(2);
  low->mutable_aggregate()->mutable_metrics()->mutable_any_medal_percentage()->set_mean(50);
  low->mutable_aggregate()->mutable_metrics()->mutable_any_medal_percentage()->set_standard_error(10);
  SeedMetrics* seed = low->add_seeds();
  seed->set_seed(0);
  seed->set_total_competitions(2);
  seed->set_gold_medal_percentage(50);
  seed->set_bronze_medal_percentage(50);

  std::vector<SourcedReport> reports = {Report("a-comp", 0, 0.95, "gold"),
                                        Report("b-comp", 0, 0.65, "bronze")};
  SourcedReport hostile = Report("b-comp", 1, 0, "none");
  hostile.report.clear_score();
  hostile.report.set_valid_submission(false);
  hostile.report.set_invalid_reason("bad <script>alert(1)</script>\n\"x\" & 'y'");
  reports.push_back(hostile);
  for (SourcedReport& r : reports) r.report.set_agent("//my:agent<b>");
  SourcedReport other = Report("not-mine", 0, 1, "gold");
  other.report.set_agent("//someone:else");
  reports.push_back(other);

  const std::string html = HtmlReport(summary, reports);
  EXPECT_THAT(html, HasSubstr("<!DOCTYPE html>"));
  EXPECT_THAT(html, HasSubstr("<th>Low (%)</th><th>Medium (%)</th><th>High (%)</th><th>All (%)</th>"));
  EXPECT_THAT(html, HasSubstr("<td class=\"num\">50.00 ± 10.00</td><td class=\"num\">-</td>"));
  EXPECT_THAT(html, HasSubstr("<th>Competition</th><th>Seed</th><th>Score</th><th>Gold</th>"));
  EXPECT_THAT(html, HasSubstr("<svg class=\"medal-counts\""));
  EXPECT_THAT(html, HasSubstr("<svg class=\"thresholds\""));
  EXPECT_THAT(html, HasSubstr("<title>low seed 0: 1 gold</title>"));
  EXPECT_THAT(html, HasSubstr("<title>a-comp seed 0: 0.95 (gold)</title>"));
  EXPECT_THAT(html, HasSubstr("<title>b-comp seed 1: none (none)</title>"));
  // What the agent wrote is one line and escaped.
  EXPECT_THAT(html, HasSubstr("&lt;script&gt;alert(1)&lt;/script&gt;\\n&quot;x&quot; &amp; &#39;y&#39;"));
  EXPECT_THAT(html, HasSubstr("<h2>//my:agent&lt;b&gt;</h2>"));
  EXPECT_THAT(html, Not(HasSubstr("not-mine")));
  // Self-contained: nothing to run or load.
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_THAT(html, Not(HasSubstr("src=")));
  EXPECT_THAT(html, Not(HasSubstr("href=")));
  EXPECT_THAT(html, Not(HasSubstr("url(")));
  EXPECT_THAT(html, Not(HasSubstr("@import")));
  EXPECT_THAT(HtmlReport(AggregateSummary(), {}), HasSubstr("No reports."));
}

}  // namespace
}  // namespace mlebench
