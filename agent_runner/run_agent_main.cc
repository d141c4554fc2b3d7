// Runs an agent on one competition inside a Bazel action (see runner.h):
//
//   run_agent --competition ID --public DIR --description FILE --agent EXE
//             --time_limit_s N --seed N
//             --submission_out DIR --log_out FILE --record_out FILE
//             [--grace_s S] [--workspace DIR] [--keep_workspace] [--link_public]
//             [--isolation auto|bwrap|none] [--network allow|deny] [--bwrap PATH]
//             [-- extra args passed to the agent]
//
// --isolation (default auto) and --network (default allow): see README.md.
// --bwrap names the bubblewrap executable (default /usr/bin/bwrap).
// --link_public links the public files into data/ instead of copying them
// (real datasets in a stable data dir; see RunOptions::link_public).
//
// Exits 0 whenever the agent could be run, whatever it did; non-zero only for
// errors of the runner itself (bad flags, unreadable inputs, failed syscalls).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "agent_runner/runner.h"

namespace mlebench {
namespace {

constexpr char kUsage[] =
    "usage: run_agent --competition ID --public DIR --description FILE --agent EXE\n"
    "                 --time_limit_s N --seed N\n"
    "                 --submission_out DIR --log_out FILE --record_out FILE\n"
    "                 [--grace_s S] [--workspace DIR] [--keep_workspace] [--link_public]\n"
    "                 [--sample_submission NAME]   # inside --public; default sample_submission.csv\n"
    "                 [--isolation auto|bwrap|none] [--network allow|deny] [--bwrap PATH]\n"
    "                 [-- extra args passed to the agent]\n";

struct Flags {
  RunOptions run;
  std::string record_out;
};

absl::StatusOr<Flags> ParseFlags(int argc, char** argv) {
  constexpr absl::string_view kValueFlags[] = {
      "competition", "public",         "description", "agent",      "time_limit_s",
      "seed",        "submission_out", "log_out",     "record_out", "workspace",
      "grace_s",     "isolation",      "network",     "bwrap",      "sample_submission"};
  std::map<std::string, std::string> values;
  Flags flags;
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (arg == "--") {
      flags.run.agent_args.assign(argv + i + 1, argv + argc);
      break;
    }
    if (arg == "--keep_workspace") {
      flags.run.keep_workspace = true;
      continue;
    }
    if (arg == "--link_public") {
      flags.run.link_public = true;
      continue;
    }
    if (arg.substr(0, 2) != "--") {
      return absl::InvalidArgumentError(absl::StrCat("unexpected argument '", arg, "'"));
    }
    arg.remove_prefix(2);
    std::string name(arg.substr(0, arg.find('=')));
    if (std::find(std::begin(kValueFlags), std::end(kValueFlags), name) == std::end(kValueFlags)) {
      return absl::InvalidArgumentError(absl::StrCat("unknown flag --", name));
    }
    std::string value;
    if (arg.find('=') != absl::string_view::npos) {
      value = std::string(arg.substr(arg.find('=') + 1));
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      return absl::InvalidArgumentError(absl::StrCat("flag --", name, " needs a value"));
    }
    if (!values.emplace(name, value).second) {
      return absl::InvalidArgumentError(absl::StrCat("flag --", name, " given twice"));
    }
  }
  for (absl::string_view required :
       {"competition", "public", "description", "agent", "time_limit_s", "seed", "submission_out",
        "log_out", "record_out"}) {
    if (!values.contains(std::string(required))) {
      return absl::InvalidArgumentError(absl::StrCat("missing flag --", required));
    }
  }
  RunOptions& run = flags.run;
  run.competition_id = values["competition"];
  run.public_dir = values["public"];
  run.description_file = values["description"];
  run.agent = values["agent"];
  run.submission_out = values["submission_out"];
  run.log_out = values["log_out"];
  flags.record_out = values["record_out"];
  if (!absl::SimpleAtoi(values["time_limit_s"], &run.time_limit_s)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--time_limit_s must be an integer, got '", values["time_limit_s"], "'"));
  }
  if (!absl::SimpleAtoi(values["seed"], &run.seed)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--seed must be an integer, got '", values["seed"], "'"));
  }
  if (values.contains("grace_s") &&
      (!absl::SimpleAtod(values["grace_s"], &run.grace_s) || !std::isfinite(run.grace_s))) {
    return absl::InvalidArgumentError(
        absl::StrCat("--grace_s must be a number, got '", values["grace_s"], "'"));
  }
  if (values.contains("workspace")) run.workspace = values["workspace"];
  if (values.contains("sample_submission")) run.sample_submission = values["sample_submission"];
  if (values.contains("isolation")) {
    const std::optional<Isolation> isolation = ParseIsolation(values["isolation"]);
    if (!isolation.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--isolation must be auto, bwrap or none, got '", values["isolation"], "'"));
    }
    run.isolation = *isolation;
  }
  if (values.contains("network")) {
    const std::optional<Network> network = ParseNetwork(values["network"]);
    if (!network.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--network must be allow or deny, got '", values["network"], "'"));
    }
    run.network = *network;
  }
  if (values.contains("bwrap")) run.bwrap = values["bwrap"];
  // This binary's only children are agents, so it may reap them all.
  run.kill_all_children = true;
  return flags;
}

absl::Status Main(int argc, char** argv) {
  absl::StatusOr<Flags> flags = ParseFlags(argc, argv);
  if (!flags.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(flags.status().message(), "\n", kUsage));
  }
  // Orphans that leave the agent's process group become our children, so
  // that they too are killed when the run ends.
  if (absl::Status s = BecomeChildSubreaper(); !s.ok()) return s;
  absl::StatusOr<RunRecord> record = RunAgent(flags->run);
  if (!record.ok()) return record.status();
  std::ofstream out(flags->record_out, std::ios::binary | std::ios::trunc);
  out << RunRecordToJson(*record);
  out.close();
  if (!out) return absl::InternalError(absl::StrCat("cannot write ", flags->record_out));
  return absl::OkStatus();
}

}  // namespace
}  // namespace mlebench

int main(int argc, char** argv) {
  absl::Status status = mlebench::Main(argc, argv);
  if (!status.ok()) {
    std::cerr << "run_agent: " << status.message() << "\n";
    return 1;
  }
  return 0;
}
