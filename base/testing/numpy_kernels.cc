#include "base/testing/numpy_kernels.h"

#include <cstdlib>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/status_macros.h"
#include "base/testing/test_util.h"

namespace mlebench::testing {
namespace {

constexpr char kVariable[] = "NPY_DISABLE_CPU_FEATURES";

// Runs a one-line numpy query and returns its space-separated words.
absl::StatusOr<std::vector<std::string>> Words(const std::vector<std::string>& argv) {
  const CommandResult result = RunCommand(argv);
  if (result.exit_code != 0) {
    return absl::InternalError(absl::StrCat(absl::StrJoin(argv, " "), " failed: ", result.output));
  }
  return std::vector<std::string>(
      absl::StrSplit(result.output, absl::ByAnyChar(" \n"), absl::SkipEmpty()));
}

}  // namespace

std::string NumpyKernelsName(NumpyKernels kernels) {
  return kernels == NumpyKernels::kBaseline ? "baseline" : "machine";
}

absl::StatusOr<std::vector<std::string>> NumpyDispatchedFeatures() {
  static const absl::StatusOr<std::vector<std::string>>* features =
      new absl::StatusOr<std::vector<std::string>>(
          Words({"/usr/bin/env", "-u", kVariable, ReferencePython(), "-c",
                 "from numpy.core._multiarray_umath import __cpu_dispatch__, __cpu_features__; "
                 "print(' '.join(f for f in __cpu_dispatch__ if __cpu_features__.get(f)))"}));
  return *features;
}

absl::StatusOr<std::vector<std::string>> WithNumpyKernels(NumpyKernels kernels,
                                                          std::vector<std::string> argv) {
  std::vector<std::string> wrapped = {"/usr/bin/env"};
  if (kernels == NumpyKernels::kBaseline) {
    ASSIGN_OR_RETURN(std::vector<std::string> features, NumpyDispatchedFeatures());
    // A numpy that dispatches nothing runs its baseline anyway.
    if (!features.empty()) {
      wrapped.push_back(absl::StrCat(kVariable, "=", absl::StrJoin(features, " ")));
    }
  }
  for (std::string& word : argv) wrapped.push_back(std::move(word));
  return wrapped;
}

absl::Status RunNumpyReference(NumpyKernels kernels, const std::string& script,
                               std::vector<std::string> args, const char* seed_variable) {
  std::vector<std::string> argv = {ReferencePython(), script};
  for (std::string& arg : args) argv.push_back(std::move(arg));
  const char* seed = seed_variable != nullptr ? std::getenv(seed_variable) : nullptr;
  if (seed != nullptr) argv.push_back(seed);
  ASSIGN_OR_RETURN(std::vector<std::string> command, WithNumpyKernels(kernels, std::move(argv)));
  const CommandResult result = RunCommand(command);
  if (result.exit_code != 0) {
    return absl::InternalError(absl::StrCat(absl::StrJoin(command, " "), " exited with ",
                                            result.exit_code, ":\n", result.output));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> NumpyEnabledDispatchedFeatures(NumpyKernels kernels) {
  absl::StatusOr<std::vector<std::string>> argv = WithNumpyKernels(
      kernels, {ReferencePython(), "-c",
                "from numpy.core._multiarray_umath import __cpu_dispatch__, __cpu_features__; "
                "print(' '.join(f for f in __cpu_dispatch__ if __cpu_features__.get(f)))"});
  if (!argv.ok()) return argv.status();
  return Words(*argv);
}

}  // namespace mlebench::testing
