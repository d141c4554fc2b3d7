// The test step of a competition (see competition_test in defs.bzl): reads the
// graded report, adds who produced the submission and how it ran (agent,
// seed, and the isolation and network from the run record: kept out of the
// grade action so that an unchanged submission is never regraded), writes
// JUnit XML to $XML_OUTPUT_FILE, copies the report (ours, and as upstream's
// grading report), the submission, the run record, the agent log and the
// agent's kept code/ and logs/ into $TEST_UNDECLARED_OUTPUTS_DIR, prints one summary line and exits 0 or 1
// by the gating policy. With real data (--data_handle, --prepared_dir) it
// first checks that the prepared files are still those the report was graded
// on (see CheckHandleIsCurrent), since Bazel does not watch them.
//
// --isolation_requested bwrap|none is what --//agent_runner:isolation
// asked for; it needs --run_record. The gate (gating.h) fails a run that had
// no isolation unless it is `none`, and a run without bwrap when it is
// `bwrap`. A run record that cannot be read or parsed, or lacks "isolation"
// or "network", is a broken input (exit 2), whatever the gate.
// --network_requested auto|deny|allowlist|unconfined is what
// --//agent_runner:network asked for: a run with the host's whole network
// passes only when it is `unconfined` (or isolation `none` was asked for).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/files.h"
#include "base/status_macros.h"
#include "competitions/common/data_dir.h"
#include "base/command_line.h"
#include "base/display_text.h"
#include "grading/gating.h"
#include "grading/junit.h"
#include "grading/report.h"
#include "grading/aggregate.h"
#include "grading/summary.h"

namespace mlebench {
namespace {

// One line on stderr; what it quotes may come from files an agent's run
// made, so it is escaped (base/display_text.h).
void PrintError(std::string_view message) {
  std::cerr << "check_report: " << EscapeForConsole(message, 2000) << "\n";
}

// The last `count` lines of `text` (at most 64 KiB of it).
std::vector<std::string> LastLines(const std::string& text, size_t count) {
  const size_t start = text.size() > (size_t{64} << 10) ? text.size() - (size_t{64} << 10) : 0;
  std::vector<std::string> lines =
      absl::StrSplit(absl::string_view(text).substr(start), '\n', absl::SkipEmpty());
  if (lines.size() > count) lines.erase(lines.begin(), lines.end() - count);
  return lines;
}

// One seed's files: its graded report, and, when known, its run record and
// agent log.
struct SeedRun {
  int64_t seed = 0;
  std::string report;
  std::string run_record;
  std::string agent_log;
  // The agent's kept code/ and logs/ (a directory; empty when unknown).
  std::string artifacts;
  // The directory holding the graded submission.csv, if the agent made one
  // (empty when unknown).
  std::string submission_dir;
};

// The runs of a --runs manifest: one line per seed, "seed<TAB>report<TAB>
// run record<TAB>agent log[<TAB>kept code and logs[<TAB>submission dir]]"
// (paths relative to the working directory).
absl::StatusOr<std::vector<SeedRun>> ReadRunsManifest(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
  std::vector<SeedRun> runs;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    const std::vector<std::string> fields = absl::StrSplit(line, '\t');
    SeedRun run;
    if (fields.size() < 4 || fields.size() > 6 || !absl::SimpleAtoi(fields[0], &run.seed)) {
      return absl::InvalidArgumentError(absl::StrCat(path, ": bad line '", line, "'"));
    }
    run.report = fields[1];
    run.run_record = fields[2];
    run.agent_log = fields[3];
    if (fields.size() >= 5) run.artifacts = fields[4];
    if (fields.size() >= 6) run.submission_dir = fields[5];
    runs.push_back(std::move(run));
  }
  if (runs.empty()) return absl::InvalidArgumentError(absl::StrCat(path, " lists no runs"));
  return runs;
}

// Returns the process exit code: 0 pass, 1 gate failed, 2 broken inputs.
int Run(const std::vector<std::string>& args) {
  absl::StatusOr<CommandLine> cl = ParseCommandLine(
      args, {"competition", "report", "run_record", "agent_log", "agent", "seed", "gate",
             "data_handle", "prepared_dir", "isolation_requested", "network_requested", "runs", "sample_report",
             "baseline"});
  if (cl.ok()) {
    absl::Status s = RequireFlags(*cl, {"competition", "gate"});
    if (s.ok() && cl->Has("runs") == cl->Has("report")) {
      s = absl::InvalidArgumentError("give exactly one of --report and --runs");
    }
    if (!s.ok()) cl = s;
  }
  if (!cl.ok()) {
    PrintError(cl.status().ToString());
    return 2;
  }
  if (cl->Has("data_handle")) {
    absl::StatusOr<std::string> handle = ReadFileToString(cl->Get("data_handle"));
    absl::Status current = handle.ok() ? CheckHandleIsCurrent(*handle, cl->Get("prepared_dir"))
                                       : handle.status();
    if (!current.ok()) {
      PrintError(absl::StrCat(cl->Get("competition"), ": ", current.message(),
                              "; run `bazel sync --only=mlebench_data` so that the build scans, "
                              "prepares and grades it again"));
      return 2;
    }
  }
  absl::StatusOr<GatingPolicy> policy = ParseGatingPolicy(cl->Get("gate"));
  if (!policy.ok()) {
    PrintError(absl::StrCat(cl->Get("competition"), ": ", policy.status().ToString()));
    return 2;
  }
  // Several seeds (--runs) are reported each under its own file names; a
  // single run keeps the names it always had.
  const bool per_seed_files = cl->Has("runs");
  std::vector<SeedRun> runs;
  if (per_seed_files) {
    absl::StatusOr<std::vector<SeedRun>> listed = ReadRunsManifest(cl->Get("runs"));
    if (!listed.ok()) {
      PrintError(absl::StrCat(cl->Get("competition"), ": ", listed.status().ToString()));
      return 2;
    }
    runs = *std::move(listed);
  } else {
    SeedRun run;
    run.report = cl->Get("report");
    run.run_record = cl->Get("run_record", "");
    run.agent_log = cl->Get("agent_log", "");
    if (!absl::SimpleAtoi(cl->Get("seed", "0"), &run.seed)) run.seed = 0;
    runs.push_back(std::move(run));
  }

  GateOptions options;
  if (cl->Has("isolation_requested")) {
    absl::StatusOr<IsolationRequest> requested =
        ParseIsolationRequest(cl->Get("isolation_requested"));
    // Without the record there is nothing to hold the request against, and a
    // silent pass would look like a checked one.
    absl::Status s = requested.status();
    if (s.ok() && std::any_of(runs.begin(), runs.end(),
                              [](const SeedRun& run) { return run.run_record.empty(); })) {
      s = absl::InvalidArgumentError("--isolation_requested needs --run_record");
    }
    if (!s.ok()) {
      PrintError(absl::StrCat(cl->Get("competition"), ": ", s.ToString()));
      return 2;
    }
    options.isolation_requested = *requested;
  }
  if (cl->Has("network_requested")) {
    const std::string requested = cl->Get("network_requested");
    if (requested != "auto" && requested != "deny" && requested != "allowlist" &&
        requested != "unconfined") {
      PrintError(absl::StrCat(cl->Get("competition"), ": --network_requested must be auto, deny, ",
                              "allowlist or unconfined, got '", requested, "'"));
      return 2;
    }
    options.unconfined_network_requested = requested == "unconfined";
  }

  // The sample submission graded on the same answers: what each seed is
  // measured against (gate `sample`, "beaten" in the summary).
  std::optional<CompetitionReport> sample;
  if (cl->Has("sample_report")) {
    absl::StatusOr<std::string> json = ReadFileToString(cl->Get("sample_report"));
    absl::StatusOr<CompetitionReport> report =
        json.ok() ? ReportFromJson(*json) : absl::StatusOr<CompetitionReport>(json.status());
    if (!report.ok()) {
      PrintError(absl::StrCat(cl->Get("competition"), ": the sample submission's report: ",
                              report.status().ToString()));
      return 2;
    }
    sample = *std::move(report);
  }

  // The same competition's report from an earlier run (--baseline: an
  // upstream-shaped grading report, e.g. a seed of //competitions:
  // <split>_reports): no seed may have a lower medal.
  std::optional<CompetitionReport> baseline;
  if (cl->Has("baseline")) {
    absl::StatusOr<std::string> json = ReadFileToString(cl->Get("baseline"));
    // A summary (the split regression tests' kind of baseline) holds no
    // competition's medal: nothing to hold this test to.
    const bool summary = json.ok() && IsAggregateSummaryJson(*json);
    absl::StatusOr<std::vector<SourcedReport>> reports =
        summary     ? absl::StatusOr<std::vector<SourcedReport>>(std::vector<SourcedReport>())
        : json.ok() ? ParseReports(*json, cl->Get("baseline"))
                    : absl::StatusOr<std::vector<SourcedReport>>(json.status());
    if (!reports.ok()) {
      PrintError(absl::StrCat(cl->Get("competition"), ": the baseline ", cl->Get("baseline"), ": ",
                              reports.status().ToString()));
      return 2;
    }
    for (SourcedReport& r : *reports) {
      if (r.report.competition_id() == cl->Get("competition")) baseline = std::move(r.report);
    }
  }

  std::vector<SeedResult> results;
  for (const SeedRun& run : runs) {
    absl::StatusOr<std::string> json = ReadFileToString(run.report);
    absl::StatusOr<CompetitionReport> graded =
        json.ok() ? ReportFromJson(*json) : absl::StatusOr<CompetitionReport>(json.status());
    if (!graded.ok()) {
      PrintError(absl::StrCat(cl->Get("competition"), ": ", graded.status().ToString()));
      return 2;
    }
    std::optional<std::string> record;
    if (!run.run_record.empty()) {
      absl::StatusOr<std::string> text = ReadFileToString(run.run_record);
      if (!text.ok()) {
        PrintError(absl::StrCat(cl->Get("competition"), ": ", run.run_record, ": ",
                                text.status().ToString(),
                                "; cannot tell what isolation the agent ran under"));
        return 2;
      }
      record = *std::move(text);
    }
    std::string run_end;
    absl::StatusOr<CompetitionReport> report =
        CompleteReport(*graded, cl->Get("agent"), run.seed, record, sample, &run_end);
    if (!report.ok()) {
      // Fail closed whatever the gate: an unreadable record would otherwise
      // let a run pass whose isolation nobody checked.
      PrintError(absl::StrCat(cl->Get("competition"), ": ", run.run_record, ": ",
                              report.status().ToString(),
                              "; cannot tell what isolation the agent ran under"));
      return 2;
    }
    SeedResult result;
    result.decision = Gate(*report, *policy, options);
    if (result.decision.pass && baseline.has_value()) {
      if (std::optional<std::string> drop = MedalRegression(*report, *baseline)) {
        result.decision = GateDecision{false, *std::move(drop)};
      }
    }
    result.summary = SummaryLine(*report, *policy, result.decision, options);
    if (per_seed_files) result.summary = absl::StrCat("seed ", run.seed, ": ", result.summary);
    result.report = *std::move(report);
    std::cout << result.summary << std::endl;
    // Why a failing seed has no valid submission: how the agent ended and
    // the end of its log (escaped: the agent wrote it), with where the rest is.
    if (!result.decision.pass && !result.report.valid_submission() && !run.agent_log.empty()) {
      std::cout << "  " << (run_end.empty() ? "the agent's run" : run_end)
                << "; its log: bazel-bin/" << EscapeForConsole(run.agent_log, 300)
                << ", which ends:" << std::endl;
      for (const std::string& line : LastLines(ReadFileToString(run.agent_log).value_or(""), 10)) {
        std::cout << "    " << EscapeForConsole(line, 300) << std::endl;
      }
    }
    results.push_back(std::move(result));
  }

  if (const char* xml = std::getenv("XML_OUTPUT_FILE"); xml != nullptr && *xml) {
    const std::string junit =
        per_seed_files ? CompetitionJUnitXml(results, *policy, options)
                       : CompetitionJUnitXml(results[0].report, *policy, results[0].decision,
                                             results[0].summary, options);
    if (absl::Status s = WriteStringToFile(xml, junit); !s.ok()) {
      PrintError(s.ToString());
      return 2;
    }
  }
  if (const char* dir = std::getenv("TEST_UNDECLARED_OUTPUTS_DIR"); dir != nullptr && *dir) {
    const std::filesystem::path out(dir);
    for (size_t i = 0; i < runs.size(); ++i) {
      const CompetitionReport& report = results[i].report;
      const std::string base =
          per_seed_files ? absl::StrCat(report.competition_id(), ".seed-", runs[i].seed)
                         : report.competition_id();
      absl::Status s = WriteStringToFile(out / (base + ".report.json"), ToPythonJson(report, 2) + "\n");
      // The same as upstream's grading report (what its aggregation and
      // leaderboard tooling read: `competition_reports` and the totals).
      if (s.ok()) {
        s = WriteStringToFile(out / (base + ".grading_report.json"),
                      ToPythonJson(Aggregate({report}), 2) + "\n");
      }
      // The submission itself, so that the run can be graded again later.
      if (s.ok() && !runs[i].submission_dir.empty()) {
        const std::filesystem::path submission =
            std::filesystem::path(runs[i].submission_dir) / "submission.csv";
        std::error_code ec;
        if (std::filesystem::is_regular_file(submission, ec)) {
          std::filesystem::copy_file(submission, out / (base + ".submission.csv"), ec);
          if (ec) {
            s = absl::InternalError(absl::StrCat("cannot copy ", submission.string(), ": ",
                                                 ec.message()));
          }
        }
      }
      for (const auto& [path, name] :
           {std::pair<std::string, std::string>{runs[i].run_record, ".run_record.json"},
            {runs[i].agent_log, ".agent.log"}}) {
        if (!s.ok() || path.empty()) continue;
        absl::StatusOr<std::string> content = ReadFileToString(path);
        s = content.ok() ? WriteStringToFile(out / (base + name), *content) : content.status();
      }
      // The agent's kept code/ and logs/ (regular files only, safe names:
      // keep_tree.h), so that the test's outputs can be audited.
      if (s.ok() && !runs[i].artifacts.empty()) {
        std::error_code ec;
        std::filesystem::copy(runs[i].artifacts, out / (base + ".artifacts"),
                              std::filesystem::copy_options::recursive |
                                  std::filesystem::copy_options::copy_symlinks,
                              ec);
        if (ec) {
          s = absl::InternalError(absl::StrCat("cannot copy ", runs[i].artifacts, ": ",
                                               ec.message()));
        }
      }
      if (!s.ok()) {
        PrintError(s.ToString());
        return 2;
      }
    }
  }
  const bool pass = std::all_of(results.begin(), results.end(),
                                [](const SeedResult& r) { return r.decision.pass; });
  return pass ? 0 : 1;
}

}  // namespace
}  // namespace mlebench

int main(int argc, char** argv) {
  return mlebench::Run(std::vector<std::string>(argv + 1, argv + argc));
}
