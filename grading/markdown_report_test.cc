#include "grading/markdown_report.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(MarkdownReport, LeaderboardTableAndEscapedRows) {
  AggregateSummary summary;
  AgentAggregate* agent = summary.add_agents();
  agent->set_agent("//my:agent");
  agent->set_agent_digest("abc");
  agent->set_dataset("synthetic");
  agent->set_dataset_note("synthetic data: medals mean nothing about Kaggle performance");
  SplitAggregate* low = agent->add_splits();
  low->set_split("low");
  low->mutable_aggregate()->set_num_seeds_averaged(3);
  low->mutable_aggregate()->mutable_metrics()->mutable_any_medal_percentage()->set_mean(44.444);
  low->mutable_aggregate()->mutable_metrics()->mutable_any_medal_percentage()->set_standard_error(11.1111);

  SourcedReport hostile;
  hostile.report.set_competition_id("spaceship-titanic");
  hostile.report.set_agent("//my:agent");
  hostile.report.set_agent_digest("abc");
  hostile.report.set_dataset("synthetic");
  hostile.report.set_seed(2);
  hostile.report.set_submission_exists(true);
  hostile.report.set_invalid_reason("bad id | <script>\n| x | `y` [z](http://e)");
  SourcedReport other = hostile;
  other.report.set_agent("//someone:else");
  other.report.set_competition_id("not-mine");

  const std::string md = MarkdownReport(summary, {hostile, other});
  EXPECT_THAT(md, HasSubstr("| Low (%) | Medium (%) | High (%) | All (%) | Seeds |\n"));
  EXPECT_THAT(md, HasSubstr("| 44.44 ± 11.11 | - | - | - | 3 |\n"));
  EXPECT_THAT(md, HasSubstr("> synthetic data: medals mean nothing about Kaggle performance"));
  EXPECT_THAT(md, HasSubstr("| spaceship-titanic | 2 | none |"));
  // What the agent wrote stays in its cell: no raw '|', newline, tag or link.
  EXPECT_THAT(md, HasSubstr("no: bad id \\| \\<script\\>\\\\n\\| x \\| \\`y\\` \\[z\\](http://e)"));
  EXPECT_THAT(md, Not(HasSubstr("<script>")));
  EXPECT_THAT(md, Not(HasSubstr("not-mine")));
  EXPECT_THAT(MarkdownReport(AggregateSummary(), {}), HasSubstr("No reports."));
}

}  // namespace
}  // namespace mlebench
