#ifndef MLEBENCH_GRADING_MEDALS_H_
#define MLEBENCH_GRADING_MEDALS_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// A competition's medal thresholds, as upstream's `Grader.rank_score`
// derives them from the Kaggle leaderboard.
struct MedalThresholds {
  double gold = 0;
  double silver = 0;
  double bronze = 0;
  double median = 0;
  bool is_lower_better = false;

  bool operator==(const MedalThresholds&) const = default;
};

// Upstream's thresholds for a leaderboard whose `score` column is `scores`
// (in leaderboard order, best first):
//  - lower is better iff the first score is less than the last one;
//  - positions by Kaggle's team-count brackets: 1-99 teams: gold/silver/bronze
//    at max(1, int(n*0.1 | 0.2 | 0.4)); 100-249: gold 10, silver/bronze at
//    int(n*0.2 | 0.4); 250-999: gold 10+int(n*0.002), silver 50, bronze 100;
//    1000+: gold 10+int(n*0.002), silver int(n*0.05), bronze int(n*0.1)
//    (1-based positions, products in double precision then truncated);
//  - median: pandas' median of the scores (NaN skipped; mean of the two
//    middle values for an even count).
// An empty leaderboard is an error, as upstream's ValueError.
absl::StatusOr<MedalThresholds> ThresholdsFromLeaderboard(const std::vector<double>& scores);

// Reads an upstream `leaderboard.csv` (must have a numeric `score` column;
// a Git LFS pointer is an error that says so) and derives its thresholds.
// `scores`, when given, receives the scores read, in the rows' order.
absl::StatusOr<MedalThresholds> ThresholdsFromLeaderboardFile(
    const std::string& path, std::vector<double>* scores = nullptr);

// Where a leaderboard is not in leaderboard order: the first row (1-based)
// whose score is better than the score of a row above it, better meaning
// lower or higher as ThresholdsFromLeaderboard decides from the first and
// last scores; NaN scores are skipped. nullopt when the rows are in order
// (ties included). ThresholdsFromLeaderboard takes the rows as they come,
// as upstream does, so such a file gives thresholds of the wrong rows.
std::optional<size_t> FirstScoreOutOfOrder(const std::vector<double>& scores);

// Reads the embedded thresholds table (grading/medal_thresholds.csv: columns
// competition_id, gold, silver, bronze, median, is_lower_better).
absl::StatusOr<std::map<std::string, MedalThresholds, std::less<>>> ReadThresholdsTable(
    const std::string& path);

// Competition `id`'s line of that table (no line end): the thresholds as
// Python prints floats, is_lower_better as true/false.
std::string FormatThresholdsRow(std::string_view id, const MedalThresholds& t);

// The thresholds one grade uses and where they come from: upstream's
// leaderboard.csv when `leaderboard_csv` is not empty (source "leaderboard"),
// else the competition's row of the embedded table `thresholds_csv` (source
// "embedded"; NotFound when the table has no row for it).
struct ChosenThresholds {
  MedalThresholds thresholds;
  std::string source;
};
absl::StatusOr<ChosenThresholds> ChooseThresholds(std::string_view competition_id,
                                                  const std::string& leaderboard_csv,
                                                  const std::string& thresholds_csv);

struct MedalResult {
  bool gold = false;
  bool silver = false;
  bool bronze = false;
  bool above_median = false;
  bool any() const { return gold || silver || bronze; }
};

// Upstream's medal decision for an (already rounded) score: medal
// comparisons are inclusive (score >= threshold, or <= when lower is better),
// each medal only if no better one was won; above-median is strict. No score
// (missing or invalid submission) wins nothing.
MedalResult RankScore(std::optional<double> score, const MedalThresholds& thresholds);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_MEDALS_H_
