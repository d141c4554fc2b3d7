#ifndef MLEBENCH_GRADING_MARKDOWN_REPORT_H_
#define MLEBENCH_GRADING_MARKDOWN_REPORT_H_

#include <string>
#include <vector>

#include "grading/aggregate.pb.h"
#include "grading/summary.h"

namespace mlebench {

// A report for people, in Markdown (a CI comment, a pull request): per agent
// (label, digest, dataset, and the dataset's note in words),
//  - the leaderboard's table: `Low (%)`, `Medium (%)`, `High (%)` and
//    `All (%)` (split75, upstream's 75 competitions), each the any-medal
//    share as mean ± standard error over the seeds averaged, "-" where
//    `summary` has no such split for the agent;
//  - per competition and seed: score, the gold/silver/bronze/median
//    thresholds, medal, above median, valid or why not, wall time, CPU
//    seconds, peak memory, GPUs, what ended the run, isolation and network.
// `reports` are the reports `summary` was made from; those of another agent,
// digest or dataset are ignored. Everything an agent wrote (an invalid
// reason) is escaped and cut so that it cannot break the table or add
// Markdown of its own. Deterministic.
std::string MarkdownReport(const AggregateSummary& summary,
                           const std::vector<SourcedReport>& reports);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_MARKDOWN_REPORT_H_
