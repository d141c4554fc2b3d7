#ifndef MLEBENCH_GRADING_SUMMARY_H_
#define MLEBENCH_GRADING_SUMMARY_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "grading/report.pb.h"
#include "grading/summary.pb.h"

namespace mlebench {

// MLE-bench's headline numbers over many graded runs (`mlebench summarize`).

// A report and where it was read from, for messages ("a/outputs.zip:x.report.json").
struct SourcedReport {
  CompetitionReport report;
  std::string source;
  // Whether the report's JSON had a `seed` key (ours always do; upstream's
  // never do, and `mlebench aggregate` then numbers seeds by order as
  // upstream's aggregation script does).
  bool seed_recorded = true;
};

// Reads the reports in `json`: either one report object (a competition test's
// `<id>.report.json`, or upstream's `CompetitionReport.to_dict()`) or an
// aggregated report, an object with a `competition_reports` list (written by
// `mlebench grade`, ours or upstream's). Each report needs what upstream's
// summary script reads: `competition_id` (a non-empty string) and the booleans
// `gold_medal`, `silver_medal`, `bronze_medal`, `above_median`,
// `submission_exists`, `valid_submission`. Our own fields are optional
// (upstream's reports lack them): `agent` and `dataset` default to "", `seed`
// to 0 (`seed_recorded` says whether `seed` was there). A present field of
// the wrong type, a non-integral seed, or an `any_medal` that disagrees with
// the three medals is an error. Errors name `source` (and the list index) and
// the field.
absl::StatusOr<std::vector<SourcedReport>> ParseReports(std::string_view json,
                                                        std::string_view source);

// How two reports differ ("" when they do not), ignoring when they were
// graded and what the run measured (created_at, wall_seconds, cpu_seconds,
// memory_peak_bytes): two copies of one run's report are the same report.
std::string ReportDifference(const CompetitionReport& a, const CompetitionReport& b);

// Groups `reports` by (agent, dataset), never mixing two agents' numbers, and
// within a group by seed and competition. A report counts as a duplicate of
// another with the same (agent, dataset, seed, competition_id) when they agree
// on every field but `created_at` (the same run found twice, or graded
// twice); it is counted once. Reports that disagree are an error naming both
// sources and the difference. Per seed, the percentages are over the
// competitions that seed has (a competition another seed has and this one
// lacks is listed in `missing_competitions`); "any medal" is gold, silver or
// bronze, as in upstream's summary. Across seeds: the mean, and the standard
// error (sample standard deviation / sqrt(seeds)), null with one seed.
// No reports at all is an error. The result does not depend on the order of
// `reports`.
absl::StatusOr<BenchmarkSummary> Summarize(const std::vector<SourcedReport>& reports);

// The summary as text for a terminal: one block per agent with the headline
// (any-medal share, mean +- standard error over seeds), a table per seed and
// a table per competition (its outcome in each seed). Deterministic.
std::string FormatSummary(const BenchmarkSummary& summary);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_SUMMARY_H_
