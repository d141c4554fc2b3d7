// The split-level regression gate (a test per split, //competitions:
// <split>_regression_test): fails when the split's any-medal share falls
// more than --max_regression percentage points below the baseline's.
//
//   split_regression --split NAME --competitions a,b,... --summary SUMMARY_JSON
//                    --reports DIR [--baseline GRADING_REPORT] [--max_regression N]
//
// The current share is the mean over seeds in SUMMARY_JSON (mlebench
// aggregate's, for one agent); the baseline's is the share of the split's
// competitions with a medal in GRADING_REPORT (an upstream-shaped grading
// report, e.g. a committed seed of //competitions:<split>_reports), or, when
// the baseline is itself a summary, its mean - or with several seeds the
// lower end of its interval. Without a baseline there is nothing to hold the
// run to: it says so and passes. A failure names the competitions whose
// medal dropped (from the split's reports in DIR, seed by seed). Exit status
// 0 pass, 1 regression, 2 broken input.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/command_line.h"
#include "base/display_text.h"
#include "base/files.h"
#include "base/status_macros.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "grading/aggregate.h"
#include "grading/gating.h"
#include "grading/summary.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using google::protobuf::Struct;
using google::protobuf::Value;

const Value* Field(const Struct& s, const std::string& key) {
  auto it = s.fields().find(key);
  return it == s.fields().end() ? nullptr : &it->second;
}

// A split's any-medal share in mlebench aggregate's summary.json: the mean
// over seeds, the interval's lower end, and the seeds averaged.
struct Share {
  double mean = 0;
  double ci_lower = 0;
  int64_t seeds = 0;
};

absl::StatusOr<Share> SplitShare(const std::string& json, const std::string& split) {
  Struct summary;
  if (!google::protobuf::util::JsonStringToMessage(json, &summary).ok()) {
    return absl::InvalidArgumentError("the summary is not JSON");
  }
  const Value* agents = Field(summary, "agents");
  if (agents == nullptr || agents->kind_case() != Value::kListValue ||
      agents->list_value().values_size() != 1) {
    return absl::InvalidArgumentError("the summary must hold exactly one agent");
  }
  const Value* splits = Field(agents->list_value().values(0).struct_value(), "splits");
  if (splits == nullptr || splits->kind_case() != Value::kListValue) {
    return absl::InvalidArgumentError("the summary has no splits");
  }
  for (const Value& s : splits->list_value().values()) {
    const Value* name = Field(s.struct_value(), "split");
    if (name == nullptr || name->string_value() != split) continue;
    const Value* aggregate = Field(s.struct_value(), "aggregate");
    const Value* metrics = aggregate ? Field(aggregate->struct_value(), "metrics") : nullptr;
    const Value* medal = metrics ? Field(metrics->struct_value(), "any_medal_percentage") : nullptr;
    const Value* mean = medal ? Field(medal->struct_value(), "mean") : nullptr;
    const Value* lower = medal ? Field(medal->struct_value(), "ci_lower") : nullptr;
    const Value* seeds = aggregate ? Field(aggregate->struct_value(), "num_seeds_averaged") : nullptr;
    if (mean == nullptr || mean->kind_case() != Value::kNumberValue) {
      return absl::InvalidArgumentError(absl::StrCat("the summary's ", split, " has no any-medal mean"));
    }
    Share share{.mean = mean->number_value(), .ci_lower = mean->number_value()};
    if (lower != nullptr && lower->kind_case() == Value::kNumberValue) share.ci_lower = lower->number_value();
    if (seeds != nullptr && seeds->kind_case() == Value::kNumberValue) {
      share.seeds = static_cast<int64_t>(seeds->number_value());
    }
    return share;
  }
  return absl::InvalidArgumentError(absl::StrCat("the summary has no split ", split,
                                                 " (no complete seed?)"));
}

absl::Status Run(const CommandLine& cl, bool& regressed) {
  const std::string split = cl.Get("split");
  const std::vector<std::string> ids = absl::StrSplit(cl.Get("competitions"), ',', absl::SkipEmpty());
  const std::set<std::string> in_split(ids.begin(), ids.end());
  if (in_split.empty()) return absl::InvalidArgumentError("--competitions lists none");
  ASSIGN_OR_RETURN(const std::string summary, ReadFileToString(cl.Get("summary")));
  ASSIGN_OR_RETURN(const Share current_share, SplitShare(summary, split));
  const double current = current_share.mean;
  if (cl.Get("baseline", "").empty()) {
    std::cout << split << ": any medal " << absl::StrFormat("%.2f", current)
              << "%; no baseline (--//competitions:baseline) to hold it to\n";
    return absl::OkStatus();
  }
  int64_t max_regression = 0;
  if (!absl::SimpleAtoi(cl.Get("max_regression", "0"), &max_regression) || max_regression < 0) {
    return absl::InvalidArgumentError("--max_regression must be a number of points >= 0");
  }
  ASSIGN_OR_RETURN(const std::string baseline_json, ReadFileToString(cl.Get("baseline")));
  // A baseline that is itself a summary (an earlier //competitions:
  // <split>_summary's summary.json): its mean, or with several seeds the
  // lower end of its interval, is what the share may not fall below.
  if (IsAggregateSummaryJson(baseline_json)) {
    ASSIGN_OR_RETURN(const Share baseline, SplitShare(baseline_json, split));
    const bool interval = baseline.seeds > 1;
    const double floor = (interval ? baseline.ci_lower : baseline.mean) -
                         static_cast<double>(max_regression);
    std::cout << split << ": any medal " << absl::StrFormat("%.2f", current)
              << "%, baseline summary " << absl::StrFormat("%.2f", baseline.mean) << "% over "
              << baseline.seeds << " seed(s)"
              << (interval ? absl::StrFormat(", interval from %.2f%%", baseline.ci_lower) : "")
              << ", allowed drop " << max_regression << " points\n";
    if (current + 1e-9 >= floor) return absl::OkStatus();
    regressed = true;
    std::cout << split << ": FAIL: the any-medal share fell to "
              << absl::StrFormat("%.2f", current) << "%, below "
              << absl::StrFormat("%.2f", floor) << "% (the baseline's "
              << (interval ? "interval" : "mean") << " less the " << max_regression
              << " points allowed by --//competitions:max_regression)\n";
    return absl::OkStatus();
  }
  ASSIGN_OR_RETURN(const std::vector<SourcedReport> baseline_reports,
                   ParseReports(baseline_json, cl.Get("baseline")));
  std::map<std::string, CompetitionReport> baseline;
  for (const SourcedReport& r : baseline_reports) {
    if (in_split.contains(r.report.competition_id())) baseline[r.report.competition_id()] = r.report;
  }
  int medals = 0;
  for (const auto& [id, r] : baseline) medals += r.any_medal() ? 1 : 0;
  const double baseline_share = 100.0 * medals / static_cast<double>(in_split.size());
  const double drop = baseline_share - current;
  std::cout << split << ": any medal " << absl::StrFormat("%.2f", current) << "%, baseline "
            << absl::StrFormat("%.2f", baseline_share) << "% (" << baseline.size() << " of "
            << in_split.size() << " competitions in the baseline), allowed drop " << max_regression
            << " points\n";
  if (drop <= static_cast<double>(max_regression) + 1e-9) return absl::OkStatus();
  regressed = true;
  // What dropped, seed by seed, from the split's reports.
  std::vector<std::string> drops;
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(cl.Get("reports"), ec)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    ASSIGN_OR_RETURN(const std::string json, ReadFileToString(file));
    ASSIGN_OR_RETURN(const std::vector<SourcedReport> reports, ParseReports(json, file.string()));
    for (const SourcedReport& r : reports) {
      auto it = baseline.find(r.report.competition_id());
      if (it == baseline.end() || !MedalRegression(r.report, it->second).has_value()) continue;
      drops.push_back(absl::StrCat(r.report.competition_id(), " seed ", r.report.seed(), " (",
                                   std::string(MedalName(it->second)), " -> ",
                                   std::string(MedalName(r.report)), ")"));
    }
  }
  std::cout << split << ": FAIL: the any-medal share fell " << absl::StrFormat("%.2f", drop)
            << " points below the baseline's, more than the " << max_regression
            << " allowed (--//competitions:max_regression); medals dropped: "
            << (drops.empty() ? std::string("none by competition (fewer seeds with medals)")
                              : EscapeForConsole(absl::StrJoin(drops, ", "), 4000))
            << "\n";
  return absl::OkStatus();
}

}  // namespace
}  // namespace mlebench

int main(int argc, char** argv) {
  absl::StatusOr<mlebench::CommandLine> cl = mlebench::ParseCommandLine(
      std::vector<std::string>(argv + 1, argv + argc),
      {"split", "competitions", "summary", "reports", "baseline", "max_regression"}, {});
  absl::Status s = cl.ok() ? absl::OkStatus() : cl.status();
  for (const char* flag : {"split", "competitions", "summary", "reports"}) {
    if (s.ok() && !cl->Has(flag)) s = absl::InvalidArgumentError(absl::StrCat("--", flag, " is required"));
  }
  bool regressed = false;
  if (s.ok()) s = mlebench::Run(*cl, regressed);
  if (!s.ok()) {
    std::cerr << "split_regression: " << mlebench::EscapeForConsole(std::string(s.message()), 2000)
              << "\n";
    return 2;
  }
  return regressed ? 1 : 0;
}
