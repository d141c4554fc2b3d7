#ifndef MLEBENCH_BASE_COMMAND_LINE_H_
#define MLEBENCH_BASE_COMMAND_LINE_H_

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// Parsed command line of the project's small tools: `--name value` or
// `--name=value` flags, bare `--name` for the names declared as switches,
// positional arguments, and everything after `--` kept verbatim. Unknown
// flags and flags given twice are errors ("unknown flag --x", "flag --x given
// twice", "flag --x needs a value"), so that a typo never silently changes
// behaviour.
struct CommandLine {
  std::map<std::string, std::string, std::less<>> flags;
  std::vector<std::string> positional;
  std::vector<std::string> after_dash_dash;

  bool Has(std::string_view name) const { return flags.count(name) > 0; }
  // The flag's value, or `fallback` when absent.
  std::string Get(std::string_view name, std::string_view fallback = "") const;
};

absl::StatusOr<CommandLine> ParseCommandLine(const std::vector<std::string>& args,
                                             const std::set<std::string, std::less<>>& value_flags,
                                             const std::set<std::string, std::less<>>& switches = {});

// Checks that every flag in `names` was given ("missing flag --x").
absl::Status RequireFlags(const CommandLine& cl, const std::vector<std::string>& names);

// Sets glibc's malloc up for a short process that reads large files once:
// one arena, heap rather than fresh mappings for blocks up to 32 MiB, and
// freed memory kept for reuse instead of returned to the kernel. Pages are
// then faulted in once instead of for every large vector; grading a 1M-row
// submission takes 10-15% less time (docs/performance.md). Peak memory is
// unchanged. Call it first thing in main(); a no-op without glibc.
void TuneMallocForShortRun();

// The body of a tool's main(): TuneMallocForShortRun(), then runs `run` on
// argv[1..] and turns a non-OK status into "<tool>: <status>" on stderr and
// exit status 1.
int RunToolMain(int argc, char** argv, const char* tool,
                absl::Status (*run)(const std::vector<std::string>& args));

}  // namespace mlebench

#endif  // MLEBENCH_BASE_COMMAND_LINE_H_
