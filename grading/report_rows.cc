#include "grading/report_rows.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/display_text.h"
#include "base/python_float.h"
#include "grading/gating.h"

namespace mlebench {
namespace {

std::string Score(const CompetitionReport& r) {
  return r.score().kind_case() == google::protobuf::Value::kNumberValue
             ? FormatPythonFloat(r.score().number_value())
             : "none";
}

std::string Bytes(int64_t bytes) {
  if (bytes < 0) return "-";
  return absl::StrFormat("%.2f GiB", static_cast<double>(bytes) / (1 << 30));
}

std::string OrDash(const std::string& text) { return text.empty() ? "-" : DisplayCell(text); }

}  // namespace

std::string DisplayCell(const std::string& text, size_t max) { return EscapeForConsole(text, max); }

std::vector<std::string> LeaderboardCells(const AgentAggregate& agent) {
  std::map<std::string, const SplitAggregate*> splits;
  for (const SplitAggregate& split : agent.splits()) splits[split.split()] = &split;
  std::vector<std::string> cells;
  int64_t seeds = 0;
  for (const char* name : {"low", "medium", "high", "split75"}) {
    auto it = splits.find(name);
    if (it == splits.end()) {
      cells.push_back("-");
      continue;
    }
    const AggregateMetric& medal = it->second->aggregate().metrics().any_medal_percentage();
    seeds = std::max(seeds, it->second->aggregate().num_seeds_averaged());
    cells.push_back(absl::StrFormat("%.2f ± %.2f", medal.mean(), medal.standard_error()));
  }
  cells.push_back(absl::StrCat(seeds));
  return cells;
}

const std::vector<std::string>& CompetitionColumns() {
  static const auto* const kColumns = new std::vector<std::string>{
      "Competition", "Seed",  "Score", "Gold",        "Silver", "Bronze",
      "Median",      "Medal", "Above median", "Valid", "Wall s", "CPU s",
      "Peak memory", "GPUs",  "Ended by",     "Isolation", "Network"};
  return *kColumns;
}

std::vector<const CompetitionReport*> ReportsOfAgent(const AgentAggregate& agent,
                                                     const std::vector<SourcedReport>& reports) {
  std::vector<const CompetitionReport*> mine;
  for (const SourcedReport& s : reports) {
    const CompetitionReport& r = s.report;
    if (r.agent() == agent.agent() && r.agent_digest() == agent.agent_digest() &&
        r.dataset() == agent.dataset()) {
      mine.push_back(&r);
    }
  }
  std::sort(mine.begin(), mine.end(), [](const CompetitionReport* a, const CompetitionReport* b) {
    return std::make_tuple(a->competition_id(), a->seed()) <
           std::make_tuple(b->competition_id(), b->seed());
  });
  return mine;
}

std::vector<std::string> CompetitionCells(const CompetitionReport& r) {
  const std::string valid =
      r.valid_submission()
          ? "yes"
          : (r.submission_exists() ? "no: " + DisplayCell(r.invalid_reason(), 80) : "no submission");
  return {DisplayCell(r.competition_id()),
          absl::StrCat(r.seed()),
          Score(r),
          FormatPythonFloat(r.gold_threshold()),
          FormatPythonFloat(r.silver_threshold()),
          FormatPythonFloat(r.bronze_threshold()),
          FormatPythonFloat(r.median_threshold()),
          std::string(MedalName(r)),
          r.above_median() ? "yes" : "no",
          valid,
          absl::StrFormat("%.1f", r.wall_seconds()),
          absl::StrFormat("%.1f", r.cpu_seconds()),
          Bytes(r.memory_peak_bytes()),
          absl::StrCat(r.gpus()),
          OrDash(r.ended_by()),
          OrDash(r.isolation()),
          OrDash(r.network())};
}

}  // namespace mlebench
