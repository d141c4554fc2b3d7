#ifndef MLEBENCH_GRADING_HTML_REPORT_H_
#define MLEBENCH_GRADING_HTML_REPORT_H_

#include <string>
#include <string_view>
#include <vector>

#include "grading/aggregate.pb.h"
#include "grading/summary.h"

namespace mlebench {

// The report for people as one self-contained HTML page: inline CSS and
// inline SVG only - no script, no external resource (no link, image, font
// or style sheet loaded from anywhere), so that it shows the same offline,
// attached to a CI run, as anywhere. Per agent (label, digest, dataset, and
// the dataset's note in words):
//  - the leaderboard's table, as markdown_report.h's (report_rows.h);
//  - a plot of medal counts (gold, silver, bronze stacked) per split and
//    seed, from the summary's per-seed figures;
//  - a plot of each competition's scores (one marker per seed, coloured by
//    its medal) against its thresholds on one normalised axis
//    (ThresholdPosition), so that metrics of different ranges and
//    directions sit side by side;
//  - the per-competition table, as markdown_report.h's.
// `reports` are the reports `summary` was made from; those of another agent,
// digest or dataset are ignored. Everything an agent wrote is escaped
// (HtmlEscape) after being made one line and cut (report_rows.h), so that it
// cannot add markup. Deterministic.
std::string HtmlReport(const AggregateSummary& summary,
                       const std::vector<SourcedReport>& reports);

// Where `score` sits on the plot's axis: the median threshold at 0, bronze
// at 1, silver at 2, gold at 3, linear between neighbouring thresholds,
// direction-aware (with is_lower_better the scores and thresholds are
// negated first, so better is always to the right). A score that reaches
// several equal thresholds sits at the highest of them, as its medal does
// (grading's `>=`, or `<=` when lower is better). Below the median it goes
// on at the first non-empty gap's scale, down to -1 at most; above gold at
// the last non-empty gap's scale, up to 3.5 at most (3.5 for any score above
// gold when all thresholds are equal). NaN when the score or a threshold is
// NaN.
double ThresholdPosition(double score, double median, double bronze, double silver, double gold,
                         bool is_lower_better);

// `text` with &, <, >, " and ' as character references: safe in element
// content and in quoted attribute values.
std::string HtmlEscape(std::string_view text);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_HTML_REPORT_H_
