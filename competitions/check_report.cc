// The test step of a competition (see competition_test in defs.bzl): reads the
// graded report, adds who produced the submission and how it ran (agent,
// seed, and the isolation and network from the run record: kept out of the
// grade action so that an unchanged submission is never regraded), writes
// JUnit XML to $XML_OUTPUT_FILE, copies the report, run record and agent log
// into $TEST_UNDECLARED_OUTPUTS_DIR, prints one summary line and exits 0 or 1
// by the gating policy. With real data (--data_handle, --prepared_dir) it
// first checks that the prepared files are still those the report was graded
// on (see CheckHandleIsCurrent), since Bazel does not watch them.
//
// --isolation_requested bwrap|none is what --//agent_runner:isolation
// asked for; it needs --run_record. The gate (gating.h) fails a run that had
// no isolation unless it is `none`, and a run without bwrap when it is
// `bwrap`. A run record that cannot be read or parsed, or lacks "isolation"
// or "network", is a broken input (exit 2), whatever the gate.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "competitions/common/data_dir.h"
#include "base/command_line.h"
#include "base/display_text.h"
#include "grading/gating.h"
#include "grading/junit.h"
#include "grading/report.h"

namespace mlebench {
namespace {

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

absl::Status WriteFile(const std::filesystem::path& path, std::string_view content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  out.close();
  if (!out) return absl::InternalError(absl::StrCat("cannot write ", path.string()));
  return absl::OkStatus();
}

// One line on stderr; what it quotes may come from files an agent's run
// made, so it is escaped (base/display_text.h).
void PrintError(std::string_view message) {
  std::cerr << "check_report: " << EscapeForConsole(message, 2000) << "\n";
}

// Returns the process exit code: 0 pass, 1 gate failed, 2 broken inputs.
int Run(const std::vector<std::string>& args) {
  absl::StatusOr<CommandLine> cl = ParseCommandLine(
      args, {"competition", "report", "run_record", "agent_log", "agent", "seed", "gate",
             "data_handle", "prepared_dir", "isolation_requested"});
  if (cl.ok()) {
    if (absl::Status s = RequireFlags(*cl, {"competition", "report", "gate"}); !s.ok()) cl = s;
  }
  if (!cl.ok()) {
    PrintError(cl.status().ToString());
    return 2;
  }
  if (cl->Has("data_handle")) {
    absl::StatusOr<std::string> handle = ReadFile(cl->Get("data_handle"));
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
  absl::StatusOr<std::string> json = ReadFile(cl->Get("report"));
  absl::StatusOr<CompetitionReport> report =
      json.ok() ? ReportFromJson(*json) : absl::StatusOr<CompetitionReport>(json.status());
  if (!policy.ok() || !report.ok()) {
    PrintError(absl::StrCat(cl->Get("competition"), ": ",
                            (!policy.ok() ? policy.status() : report.status()).ToString()));
    return 2;
  }
  report->set_agent(cl->Get("agent"));
  int64_t seed = 0;
  if (absl::SimpleAtoi(cl->Get("seed", "0"), &seed)) report->set_seed(seed);

  GateOptions options;
  if (cl->Has("isolation_requested")) {
    absl::StatusOr<IsolationRequest> requested =
        ParseIsolationRequest(cl->Get("isolation_requested"));
    // Without the record there is nothing to hold the request against, and a
    // silent pass would look like a checked one.
    absl::Status s = requested.status();
    if (s.ok() && !cl->Has("run_record")) {
      s = absl::InvalidArgumentError("--isolation_requested needs --run_record");
    }
    if (!s.ok()) {
      PrintError(absl::StrCat(cl->Get("competition"), ": ", s.ToString()));
      return 2;
    }
    options.isolation_requested = *requested;
  }
  if (cl->Has("run_record")) {
    const std::string path = cl->Get("run_record");
    absl::StatusOr<std::string> text = ReadFile(path);
    absl::StatusOr<RunEnvironment> env =
        text.ok() ? RunEnvironmentFromRecord(*text) : absl::StatusOr<RunEnvironment>(text.status());
    if (env.ok()) {
      report->set_isolation(env->isolation);
      report->set_network(env->network);
    } else {
      // Fail closed whatever the gate: an unreadable record would otherwise
      // let a run pass whose isolation nobody checked.
      PrintError(absl::StrCat(cl->Get("competition"), ": ", path, ": ", env.status().ToString(),
                              "; cannot tell what isolation the agent ran under"));
      return 2;
    }
  }

  const GateDecision decision = Gate(*report, *policy, options);
  const std::string summary = SummaryLine(*report, *policy, decision, options);
  std::cout << summary << std::endl;

  if (const char* xml = std::getenv("XML_OUTPUT_FILE"); xml != nullptr && *xml) {
    if (absl::Status s =
            WriteFile(xml, CompetitionJUnitXml(*report, *policy, decision, summary, options));
        !s.ok()) {
      PrintError(s.ToString());
      return 2;
    }
  }
  if (const char* dir = std::getenv("TEST_UNDECLARED_OUTPUTS_DIR"); dir != nullptr && *dir) {
    const std::filesystem::path out(dir);
    const std::string id = report->competition_id();
    absl::Status s = WriteFile(out / (id + ".report.json"), ToPythonJson(*report, 2) + "\n");
    for (const auto& [flag, name] : {std::pair<std::string, std::string>{"run_record", ".run_record.json"},
                                     {"agent_log", ".agent.log"}}) {
      if (!s.ok() || !cl->Has(flag)) continue;
      absl::StatusOr<std::string> content = ReadFile(cl->Get(flag));
      s = content.ok() ? WriteFile(out / (id + name), *content) : content.status();
    }
    if (!s.ok()) {
      PrintError(s.ToString());
      return 2;
    }
  }
  if (!decision.pass) return 1;
  return 0;
}

}  // namespace
}  // namespace mlebench

int main(int argc, char** argv) {
  return mlebench::Run(std::vector<std::string>(argv + 1, argv + argc));
}
