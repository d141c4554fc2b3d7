// The split summaries' action (competitions/rules.bzl, split_summary):
//   aggregate PATH... --competitions TSV --output-dir DIR [--split S,...]
//             [--pad-missing] [--num-seeds N]
// `mlebench aggregate` with the competition table given as a file instead of
// found in the CLI's runfiles; both run RunAggregateCommand
// (grading/aggregate_command.h), so the files are the same.
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "base/baseline_libm.h"
#include "base/command_line.h"
#include "base/status_macros.h"
#include "grading/aggregate_command.h"
#include "grading/competition_table.h"

namespace mlebench {
namespace {

absl::Status Run(const std::vector<std::string>& args) {
  ASSIGN_OR_RETURN(CommandLine cl, ParseCommandLine(args, {"competitions", "output-dir", "split",
                                                           "num-seeds"},
                                                    {"pad-missing"}));
  RETURN_IF_ERROR(RequireFlags(cl, {"competitions"}));
  ASSIGN_OR_RETURN(auto competitions, ReadCompetitionTable(cl.Get("competitions")));
  return RunAggregateCommand(
      cl, 0, competitions, [](const std::string& p) { return std::filesystem::path(p); },
      std::cout);
}

}  // namespace
}  // namespace mlebench

int main(int argc, char** argv) {
  mlebench::UseBaselineLibm(argv);
  return mlebench::RunToolMain(argc, argv, "aggregate", &mlebench::Run);
}
