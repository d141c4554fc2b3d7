// The reports of a split's competition tests, per seed, as upstream's
// grading reports (what its aggregation reads): the action behind
// //competitions:<split>_reports.
//
//   split_reports --agent LABEL --manifest FILE --out DIR
//
// Each line of FILE is "competition id<TAB>seed<TAB>graded report<TAB>run
// record<TAB>sample report" (paths relative to the working directory). For
// each seed, DIR/seed-<N>_grading_report.json holds the reports of that seed,
// completed as each competition's test completes them (CompleteReport: agent,
// seed, the run record's isolation, network, budget and usage, the sample's
// score), ordered by competition id, with upstream's totals. Deterministic:
// the same inputs give the same bytes. Exit status 2 for unreadable inputs.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/command_line.h"
#include "base/display_text.h"
#include "base/files.h"
#include "base/status_macros.h"
#include "grading/gating.h"
#include "grading/report.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

absl::StatusOr<CompetitionReport> ReadReport(const std::string& path) {
  ASSIGN_OR_RETURN(std::string json, ReadFileToString(path));
  absl::StatusOr<CompetitionReport> report = ReportFromJson(json);
  if (!report.ok()) {
    return absl::Status(report.status().code(), absl::StrCat(path, ": ", report.status().message()));
  }
  return report;
}

absl::Status Run(const CommandLine& cl) {
  ASSIGN_OR_RETURN(const std::string manifest, ReadFileToString(cl.Get("manifest")));
  std::map<int64_t, std::map<std::string, CompetitionReport>> by_seed;
  for (absl::string_view line : absl::StrSplit(manifest, '\n', absl::SkipEmpty())) {
    const std::vector<std::string> fields = absl::StrSplit(line, '\t');
    int64_t seed = 0;
    if (fields.size() != 5 || !absl::SimpleAtoi(fields[1], &seed)) {
      return absl::InvalidArgumentError(absl::StrCat("bad manifest line '", line, "'"));
    }
    ASSIGN_OR_RETURN(const CompetitionReport graded, ReadReport(fields[2]));
    ASSIGN_OR_RETURN(const std::string record, ReadFileToString(fields[3]));
    ASSIGN_OR_RETURN(const CompetitionReport sample, ReadReport(fields[4]));
    absl::StatusOr<CompetitionReport> report =
        CompleteReport(graded, cl.Get("agent"), seed, record, sample);
    if (!report.ok()) {
      return absl::Status(report.status().code(),
                          absl::StrCat(fields[3], ": ", report.status().message()));
    }
    by_seed[seed][fields[0]] = *std::move(report);
  }
  const fs::path out = cl.Get("out");
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) return absl::InternalError(absl::StrCat("cannot create ", out.string()));
  for (const auto& [seed, reports] : by_seed) {
    std::vector<CompetitionReport> ordered;
    for (const auto& [id, report] : reports) ordered.push_back(report);
    RETURN_IF_ERROR(WriteStringToFile(out / absl::StrCat("seed-", seed, "_grading_report.json"),
                                      ToPythonJson(Aggregate(ordered), 2) + "\n"));
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace mlebench

int main(int argc, char** argv) {
  absl::StatusOr<mlebench::CommandLine> cl = mlebench::ParseCommandLine(
      std::vector<std::string>(argv + 1, argv + argc), {"agent", "manifest", "out"}, {});
  absl::Status s = cl.ok() ? absl::OkStatus() : cl.status();
  if (s.ok()) {
    for (const char* flag : {"agent", "manifest", "out"}) {
      if (!cl->Has(flag)) s = absl::InvalidArgumentError(absl::StrCat("--", flag, " is required"));
    }
  }
  if (s.ok()) s = mlebench::Run(*cl);
  if (!s.ok()) {
    std::cerr << "split_reports: " << mlebench::EscapeForConsole(std::string(s.message()), 2000)
              << "\n";
    return 2;
  }
  return 0;
}
