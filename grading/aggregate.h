#ifndef MLEBENCH_GRADING_AGGREGATE_H_
#define MLEBENCH_GRADING_AGGREGATE_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "grading/aggregate.pb.h"
#include "grading/competition_table.h"
#include "grading/report.pb.h"
#include "grading/summary.h"

namespace mlebench {

// `mlebench aggregate`: upstream's leaderboard figures
// (experiments/aggregate_grading_reports.py) over seeds, per agent and split,
// and upstream-compatible grading reports that give upstream's script the
// same figures.
//
// Upstream's semantics, which this follows:
//  - A seed is one report per competition of the split. Upstream pairs runs
//    into seeds by order: the k-th report of each competition (its input
//    files in sorted path order, each file's reports sorted by competition
//    id) belongs to seed k. Our reports record their seed, and seeds are
//    paired by that number; reports without a `seed` key (upstream's) are
//    numbered by order exactly as upstream does (in the order given, which
//    is sorted path order within each directory). Reports of competitions
//    outside the split are ignored.
//  - By default only complete seeds count (every competition of the split
//    has a report); a seed lacking one is left out, and no complete seed at
//    all is a skipped split (upstream raises). With pad_missing every seed
//    that has a report of the split counts, and each missing competition
//    counts as a failing report (no submission, invalid, no medal), as
//    upstream's zero_report. num_seeds >= 0 keeps the first that many
//    (by seed) of those, as upstream's --num-seeds.
//  - Per seed: total_competitions (the split's size) and each figure's share
//    of it in percent: submission_exists, valid_submissions, above_median,
//    gold_medal, silver_medal, bronze_medal, any_medal (gold, silver or
//    bronze).
//  - Across seeds, for each figure (total_competitions included, as
//    upstream): mean (numpy's np.mean, bit for bit), standard_error
//    (scipy.stats.sem with ddof=1: np.std(ddof=1) / sqrt(n); 0.0 with one
//    seed, as upstream, although it is undefined there), ci_lower/ci_upper =
//    mean -+ 1.96 standard errors (upstream's normal interval, not Student's
//    t). Nothing is rounded (upstream prints Python's repr of each float;
//    the leaderboard shows any_medal_percentage's mean +- standard_error to
//    two decimals).
// Where ours differ from upstream: seeds are paired by their number, so a
// seed that lacks a competition other than the last one is left out (or
// padded) as a whole, where upstream's pairing by order would shift the
// later runs of that competition into earlier seeds; and agents (label and
// digest) and datasets are never mixed (upstream aggregates whatever files
// it is given).

// A split: its name and its competitions (sorted by id, as upstream's split
// files).
struct SplitDefinition {
  std::string name;
  std::vector<std::string> competitions;
};

// The splits named (lite, low, medium, high, split75, dev, all; "lite" is
// "low"; "all" is every competition of the table), from the competition
// table's split column. An unknown name is an error.
absl::StatusOr<std::vector<SplitDefinition>> SplitsByName(
    const std::map<std::string, CompetitionInfo>& table, const std::vector<std::string>& names);

struct AggregateOptions {
  std::vector<SplitDefinition> splits;
  bool pad_missing = false;
  int64_t num_seeds = -1;  // -1: every usable seed
};

// An upstream-compatible grading report (upstream's aggregated report shape,
// as `mlebench grade` writes it) and where it goes, relative to the output
// directory: <agent directory>/<split>/seed-<N>/seed-<N>_grading_report.json,
// one folder per seed, as upstream's runs/<run group>/ (N zero-padded to the
// widest seed of the split, so that sorted paths are in seed order).
struct GradingReportFile {
  std::string path;
  AggregatedReport report;
};

struct AggregateOutput {
  AggregateSummary summary;
  // One per agent, split and averaged seed: that seed's reports of the
  // split's competitions (sorted by id), padded ones included (no
  // submission, `invalid_reason` saying it was padded). Upstream's script on
  // one split's files (with that split, with or without --pad-missing) gives
  // the figures of `summary`.
  std::vector<GradingReportFile> grading_reports;
  // upstream's runs/run_group_experiments.csv rows for these folders
  // (header "experiment_id,run_group"; experiment id <agent directory>.<split>,
  // run group <agent directory>/<split>/seed-<N>).
  std::string run_group_experiments_csv;
};

// Aggregates `reports` (as CollectReports reads them) per (agent, agent
// digest, dataset) and split. Identical copies of a report (ReportDifference
// empty) count once; two different reports of one agent, dataset, seed and
// competition are an error naming both. Also errors: no reports, no split,
// a negative seed, a group mixing reports with and without a recorded seed,
// and nothing aggregated at all (every split of every group skipped: the
// error gives the reasons). A split that a group cannot form (no report of
// its competitions, or no complete seed without pad_missing) is listed in
// `skipped_splits`. Deterministic: the result depends on the reports' order
// only through the numbering of reports without a seed.
absl::StatusOr<AggregateOutput> AggregateRuns(const std::vector<SourcedReport>& reports,
                                              const AggregateOptions& options);

// Whether `json` is a summary as `mlebench aggregate` writes it (summary.json:
// a JSON object with an "agents" key) rather than reports (one report, or a
// grading report with "competition_reports"). What a baseline
// (--//competitions:baseline) is decides how it is compared.
bool IsAggregateSummaryJson(std::string_view json);

// The summary for a terminal: per agent and split the headline
// (any-medal percentage, mean +- standard error and the interval), the
// other figures, seeds left out or padded, skipped splits and the notes.
std::string FormatAggregate(const AggregateSummary& summary);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_AGGREGATE_H_
