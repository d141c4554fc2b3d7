#include "grading/markdown_report.h"

#include "absl/strings/str_cat.h"
#include "grading/report_rows.h"

namespace mlebench {
namespace {

// Display text (report_rows.h) in a table cell: nothing Markdown reads as
// syntax ('|' ends a cell; backticks, '*', '_', '<', '[' format or link).
std::string Markdown(const std::string& display) {
  std::string out;
  for (char c : display) {
    if (c == '|' || c == '`' || c == '*' || c == '_' || c == '<' || c == '>' || c == '[' ||
        c == ']' || c == '\\') {
      out += '\\';
    }
    out += c;
  }
  return out;
}

std::string Cell(const std::string& text, size_t max = 120) {
  return Markdown(DisplayCell(text, max));
}

void AppendRow(std::string* md, const std::vector<std::string>& display_cells) {
  *md += "|";
  for (const std::string& cell : display_cells) absl::StrAppend(md, " ", Markdown(cell), " |");
  *md += "\n";
}

}  // namespace

std::string MarkdownReport(const AggregateSummary& summary,
                           const std::vector<SourcedReport>& reports) {
  std::string md = "# MLE-bench results\n";
  for (const AgentAggregate& agent : summary.agents()) {
    absl::StrAppend(&md, "\n## ", Cell(agent.agent().empty() ? "(unnamed agent)" : agent.agent()),
                    "\n\n", "digest `", Cell(agent.agent_digest(), 64), "`, dataset ",
                    Cell(agent.dataset().empty() ? "unknown" : agent.dataset()), "\n");
    if (!agent.dataset_note().empty()) absl::StrAppend(&md, "\n> ", Cell(agent.dataset_note(), 400), "\n");
    md += "\n";
    AppendRow(&md, {kLeaderboardColumns.begin(), kLeaderboardColumns.end()});
    AppendRow(&md, std::vector<std::string>(kLeaderboardColumns.size(), "---"));
    AppendRow(&md, LeaderboardCells(agent));
    for (const SkippedSplit& skipped : agent.skipped_splits()) {
      absl::StrAppend(&md, "\n- ", Cell(skipped.split()), ": not aggregated (",
                      Cell(skipped.reason(), 300), ")");
    }
    if (agent.skipped_splits_size() > 0) md += "\n";

    md += "\n";
    AppendRow(&md, CompetitionColumns());
    AppendRow(&md, std::vector<std::string>(CompetitionColumns().size(), "---"));
    for (const CompetitionReport* r : ReportsOfAgent(agent, reports)) AppendRow(&md, CompetitionCells(*r));
  }
  if (summary.agents_size() == 0) md += "\nNo reports.\n";
  return md;
}

}  // namespace mlebench
