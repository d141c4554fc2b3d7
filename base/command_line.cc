#include "base/command_line.h"

#include <malloc.h>

#include <cstdio>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/display_text.h"

namespace mlebench {

std::string CommandLine::Get(std::string_view name, std::string_view fallback) const {
  auto it = flags.find(name);
  return it == flags.end() ? std::string(fallback) : it->second;
}

absl::StatusOr<CommandLine> ParseCommandLine(const std::vector<std::string>& args,
                                             const std::set<std::string, std::less<>>& value_flags,
                                             const std::set<std::string, std::less<>>& switches) {
  CommandLine cl;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      cl.after_dash_dash.assign(args.begin() + static_cast<long>(i) + 1, args.end());
      break;
    }
    if (a.size() < 2 || a[0] != '-' || a == "-") {
      cl.positional.push_back(a);
      continue;
    }
    std::string name = a.substr(a[1] == '-' ? 2 : 1);
    std::string value;
    bool has_value = false;
    if (size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    if (cl.flags.count(name)) {
      return absl::InvalidArgumentError(absl::StrCat("flag --", name, " given twice"));
    }
    if (switches.count(name)) {
      if (has_value) {
        return absl::InvalidArgumentError(absl::StrCat("flag --", name, " takes no value"));
      }
      cl.flags[name] = "true";
      continue;
    }
    if (!value_flags.count(name)) {
      return absl::InvalidArgumentError(absl::StrCat("unknown flag --", name));
    }
    if (!has_value) {
      if (i + 1 >= args.size()) {
        return absl::InvalidArgumentError(absl::StrCat("flag --", name, " needs a value"));
      }
      value = args[++i];
    }
    cl.flags[name] = value;
  }
  return cl;
}

absl::Status RequireFlags(const CommandLine& cl, const std::vector<std::string>& names) {
  for (const std::string& n : names) {
    if (!cl.Has(n)) return absl::InvalidArgumentError(absl::StrCat("missing flag --", n));
  }
  return absl::OkStatus();
}

void TuneMallocForShortRun() {
#ifdef __GLIBC__
  mallopt(M_ARENA_MAX, 1);
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
  mallopt(M_TOP_PAD, 128 << 20);
#endif
}

int RunToolMain(int argc, char** argv, const char* tool,
                absl::Status (*run)(const std::vector<std::string>& args)) {
  TuneMallocForShortRun();
  const absl::Status s = run(std::vector<std::string>(argv + 1, argv + argc));
  if (s.ok()) return 0;
  // A message may quote what a tool read (a submission an agent wrote).
  std::fprintf(stderr, "%s: %s\n", tool, EscapeForConsole(s.ToString(), 4000).c_str());
  return 1;
}

}  // namespace mlebench
