#ifndef MLEBENCH_GRADING_COMPETITION_TABLE_H_
#define MLEBENCH_GRADING_COMPETITION_TABLE_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// One row of competitions/competitions.tsv: upstream's competition list.
struct CompetitionInfo {
  std::string id;
  std::vector<std::string> splits;  // e.g. {"low", "split75"}
  std::string metric;               // upstream's grader name
  // Relative to a data dir, e.g. "<id>/prepared/private/test.csv".
  std::string answers_path;
  std::string sample_submission_path;
};

// Reads the tab-separated table (header: competition_id, splits,
// upstream_metric, answers_path, sample_submission_path). Errors name the
// file and line.
absl::StatusOr<std::map<std::string, CompetitionInfo>> ReadCompetitionTable(
    const std::string& path);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_COMPETITION_TABLE_H_
