#include "grading/competition_table.h"

#include <fstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace mlebench {

absl::StatusOr<std::map<std::string, CompetitionInfo>> ReadCompetitionTable(
    const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::map<std::string, CompetitionInfo> out;
  std::string line;
  int line_no = 0;
  const std::string header =
      "competition_id\tsplits\tupstream_metric\tanswers_path\tsample_submission_path";
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line_no == 1) {
      if (line != header) {
        return absl::InvalidArgumentError(absl::StrCat(path, ":1: unexpected header"));
      }
      continue;
    }
    if (line.empty()) continue;
    std::vector<std::string> f = absl::StrSplit(line, '\t');
    if (f.size() != 5) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ":", line_no, ": expected 5 tab-separated fields, got ", f.size()));
    }
    CompetitionInfo info{.id = f[0],
                         .splits = absl::StrSplit(f[1], ',', absl::SkipEmpty()),
                         .metric = f[2],
                         .answers_path = f[3],
                         .sample_submission_path = f[4]};
    if (!out.emplace(info.id, info).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ":", line_no, ": duplicate competition ", info.id));
    }
  }
  return out;
}

}  // namespace mlebench
