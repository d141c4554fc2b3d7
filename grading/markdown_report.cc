#include "grading/markdown_report.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "base/display_text.h"
#include "base/python_float.h"
#include "grading/gating.h"

namespace mlebench {
namespace {

// Text in a table cell: one line, escaped, and nothing Markdown reads as
// syntax ('|' ends a cell; backticks, '*', '_', '<', '[' format or link).
std::string Cell(const std::string& text, size_t max = 120) {
  std::string escaped = EscapeForConsole(text, max);
  std::string out;
  for (char c : escaped) {
    if (c == '|' || c == '`' || c == '*' || c == '_' || c == '<' || c == '>' || c == '[' ||
        c == ']' || c == '\\') {
      out += '\\';
    }
    out += c;
  }
  return out;
}

std::string Score(const CompetitionReport& r) {
  return r.score().kind_case() == google::protobuf::Value::kNumberValue
             ? FormatPythonFloat(r.score().number_value())
             : "none";
}

std::string Bytes(int64_t bytes) {
  if (bytes < 0) return "-";
  return absl::StrFormat("%.2f GiB", static_cast<double>(bytes) / (1 << 30));
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
    std::map<std::string, const SplitAggregate*> splits;
    for (const SplitAggregate& split : agent.splits()) splits[split.split()] = &split;
    absl::StrAppend(&md, "\n| Low (%) | Medium (%) | High (%) | All (%) | Seeds |\n",
                    "| --- | --- | --- | --- | --- |\n|");
    int64_t seeds = 0;
    for (const char* name : {"low", "medium", "high", "split75"}) {
      auto it = splits.find(name);
      if (it == splits.end()) {
        absl::StrAppend(&md, " - |");
        continue;
      }
      const AggregateMetric& medal = it->second->aggregate().metrics().any_medal_percentage();
      seeds = std::max(seeds, it->second->aggregate().num_seeds_averaged());
      absl::StrAppend(&md, absl::StrFormat(" %.2f ± %.2f |", medal.mean(), medal.standard_error()));
    }
    absl::StrAppend(&md, " ", seeds, " |\n");
    for (const SkippedSplit& skipped : agent.skipped_splits()) {
      absl::StrAppend(&md, "\n- ", Cell(skipped.split()), ": not aggregated (",
                      Cell(skipped.reason(), 300), ")");
    }
    if (agent.skipped_splits_size() > 0) md += "\n";

    // Per competition and seed, from this agent's reports.
    std::vector<const CompetitionReport*> mine;
    for (const SourcedReport& s : reports) {
      const CompetitionReport& r = s.report;
      if (r.agent() == agent.agent() && r.agent_digest() == agent.agent_digest() &&
          r.dataset() == agent.dataset()) {
        mine.push_back(&r);
      }
    }
    std::sort(mine.begin(), mine.end(), [](const CompetitionReport* a, const CompetitionReport* b) {
      return std::make_tuple(a->competition_id(), a->seed()) < std::make_tuple(b->competition_id(), b->seed());
    });
    absl::StrAppend(
        &md, "\n| Competition | Seed | Score | Gold | Silver | Bronze | Median | Medal | Above median "
             "| Valid | Wall s | CPU s | Peak memory | GPUs | Ended by | Isolation | Network |\n",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
        "| --- | --- |\n");
    for (const CompetitionReport* r : mine) {
      const std::string valid =
          r->valid_submission()
              ? "yes"
              : (r->submission_exists() ? "no: " + Cell(r->invalid_reason(), 80) : "no submission");
      absl::StrAppend(&md, "| ", Cell(r->competition_id()), " | ", r->seed(), " | ", Score(*r), " | ",
                      FormatPythonFloat(r->gold_threshold()), " | ",
                      FormatPythonFloat(r->silver_threshold()), " | ",
                      FormatPythonFloat(r->bronze_threshold()), " | ",
                      FormatPythonFloat(r->median_threshold()), " | ", std::string(MedalName(*r)),
                      " | ", r->above_median() ? "yes" : "no", " | ", valid, " | ",
                      absl::StrFormat("%.1f", r->wall_seconds()), " | ",
                      absl::StrFormat("%.1f", r->cpu_seconds()), " | ",
                      Bytes(r->memory_peak_bytes()), " | ", r->gpus(), " | ",
                      Cell(r->ended_by().empty() ? "-" : r->ended_by()), " | ",
                      Cell(r->isolation().empty() ? "-" : r->isolation()), " | ",
                      Cell(r->network().empty() ? "-" : r->network()), " |\n");
    }
  }
  if (summary.agents_size() == 0) md += "\nNo reports.\n";
  return md;
}

}  // namespace mlebench
