#ifndef MLEBENCH_GRADING_REPORT_ROWS_H_
#define MLEBENCH_GRADING_REPORT_ROWS_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "grading/aggregate.pb.h"
#include "grading/report.pb.h"
#include "grading/summary.h"

namespace mlebench {

// The rows the reports for people (markdown_report.h, html_report.h) show,
// as display text: every cell is one line, with what an agent wrote passed
// through EscapeForConsole (control characters and line breaks shown as
// escapes, long text cut). Each format escapes its own syntax on top.

// The leaderboard's columns: "Low (%)", "Medium (%)", "High (%)", "All (%)"
// (splits low, medium, high, split75), then "Seeds".
inline constexpr std::array<const char*, 5> kLeaderboardColumns = {
    "Low (%)", "Medium (%)", "High (%)", "All (%)", "Seeds"};

// One agent's leaderboard row: the any-medal share of each split as
// "mean ± standard error" to two decimals, "-" where the agent has no such
// split, then the most seeds any of those splits averaged.
std::vector<std::string> LeaderboardCells(const AgentAggregate& agent);

// The per-competition table's columns: Competition, Seed, Score, Gold,
// Silver, Bronze, Median, Medal, Above median, Valid, Wall s, CPU s, Peak
// memory, GPUs, Ended by, Isolation, Network.
const std::vector<std::string>& CompetitionColumns();

// The reports among `reports` of `agent` (same label, digest and dataset),
// by competition id, then seed.
std::vector<const CompetitionReport*> ReportsOfAgent(const AgentAggregate& agent,
                                                     const std::vector<SourcedReport>& reports);

// One report's cells, in CompetitionColumns()'s order. Valid is "yes",
// "no submission" or "no: <invalid reason>" (the reason cut at 80 bytes).
std::vector<std::string> CompetitionCells(const CompetitionReport& report);

// Display text of `text`: EscapeForConsole cut at `max` bytes.
std::string DisplayCell(const std::string& text, size_t max = 120);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_REPORT_ROWS_H_
