#include "base/baseline_libm.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

#if defined(__x86_64__) && defined(__GLIBC__)
// glibc 2.36's header is C: its inline functions return `_Bool`, which GCC
// takes in C++ and clang (the fuzzers' and sanitized tests' compiler) does not.
#if defined(__clang__)
#define _Bool bool
#endif
#include <sys/platform/x86.h>
#if defined(__clang__)
#undef _Bool
#endif
#endif

extern char** environ;

namespace mlebench {
namespace {

constexpr char kHwcapsPrefix[] = "glibc.cpu.hwcaps=";
constexpr char kVariable[] = "GLIBC_TUNABLES";

}  // namespace

std::string TunablesForBaselineLibm(absl::string_view current) {
  if (current.empty()) return kBaselineLibmTunable;
  const absl::string_view prefix = kHwcapsPrefix;
  const absl::string_view masks = absl::string_view(kBaselineLibmTunable).substr(prefix.size());
  std::vector<std::string> tunables = absl::StrSplit(current, ':');
  // glibc applies the last glibc.cpu.hwcaps it reads: the masks go there.
  for (auto it = tunables.rbegin(); it != tunables.rend(); ++it) {
    if (!absl::StartsWith(*it, prefix)) continue;
    const std::vector<std::string> listed = absl::StrSplit(it->substr(prefix.size()), ',');
    std::string& hwcaps = *it;
    bool changed = false;
    for (absl::string_view mask : absl::StrSplit(masks, ',')) {
      if (std::find(listed.begin(), listed.end(), mask) != listed.end()) continue;
      absl::StrAppend(&hwcaps, hwcaps.size() == prefix.size() ? "" : ",", mask);
      changed = true;
    }
    return changed ? absl::StrJoin(tunables, ":") : std::string(current);
  }
  return absl::StrCat(current, ":", kBaselineLibmTunable);
}

bool FmaLibmVariantsActive() {
#if defined(__x86_64__) && defined(__GLIBC__)
  return CPU_FEATURE_ACTIVE(FMA) || CPU_FEATURE_ACTIVE(FMA4);
#else
  return false;
#endif
}

void UseBaselineLibm(char** argv) {
  if (!FmaLibmVariantsActive()) return;
  const char* set = std::getenv(kVariable);
  const std::string current = set == nullptr ? "" : set;
  const std::string wanted = TunablesForBaselineLibm(current);
  if (set != nullptr && wanted == current) {
    // Asked for already, and still active: glibc ignored the variable.
    std::fprintf(stderr,
                 "warning: glibc ignores %s=%s here: this process uses libm's FMA variants, "
                 "whose results may differ in the last bit from other machines'\n",
                 kVariable, current.c_str());
    return;
  }
  std::vector<std::string> variables;
  for (char** e = environ; *e != nullptr; ++e) {
    if (!absl::StartsWith(*e, absl::StrCat(kVariable, "="))) variables.emplace_back(*e);
  }
  variables.push_back(absl::StrCat(kVariable, "=", wanted));
  std::vector<char*> envp;
  for (std::string& v : variables) envp.push_back(v.data());
  envp.push_back(nullptr);
  execve("/proc/self/exe", argv, envp.data());
  std::fprintf(stderr,
               "warning: cannot execute /proc/self/exe again with %s=%s (%s): this process "
               "uses libm's FMA variants, whose results may differ in the last bit from other "
               "machines'\n",
               kVariable, wanted.c_str(), std::strerror(errno));
}

}  // namespace mlebench
