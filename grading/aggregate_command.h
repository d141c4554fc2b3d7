#ifndef MLEBENCH_GRADING_AGGREGATE_COMMAND_H_
#define MLEBENCH_GRADING_AGGREGATE_COMMAND_H_

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "base/command_line.h"
#include "grading/competition_table.h"

namespace mlebench {

// `aggregate`: upstream's leaderboard figures over the reports found at the
// paths `cl.positional[first_path...]` (directories, archives or report files,
// as CollectReports reads them), for the splits of --split (comma-separated;
// default low,medium,high,split75) of `competitions`, with --pad-missing and
// --num-seeds N (a positive integer, or -1: every usable seed). Writes, under
// --output-dir (which must be new or empty): a grading report per seed,
// run_group_experiments.csv, summary.json, report.md and report.html; prints
// the leaderboard table and where it saved them to `out`.
//
// `mlebench aggregate` (tools/mlebench.cc) and the split summaries' action
// (//grading:aggregate_main, competitions/rules.bzl's split_summary) both run
// it, so the two give the same files. `user_path` turns a path as given into
// the one to open (the CLI's are relative to where `bazel run` started).
// A missing argument, a bad --num-seeds, an unknown split, a non-empty output
// directory and every error of collecting and aggregating are errors; nothing
// is written before the reports are read and aggregated.
absl::Status RunAggregateCommand(
    const CommandLine& cl, size_t first_path,
    const std::map<std::string, CompetitionInfo>& competitions,
    const std::function<std::filesystem::path(const std::string&)>& user_path,
    std::ostream& out);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_AGGREGATE_COMMAND_H_
