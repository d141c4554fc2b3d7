#ifndef MLEBENCH_BASE_TESTING_NUMPY_KERNELS_H_
#define MLEBENCH_BASE_TESTING_NUMPY_KERNELS_H_

// Testonly: running a numpy reference script with a chosen set of numpy's
// SIMD kernels.
//
// numpy picks the kernels of its ufuncs by the CPU it runs on. On a CPU with
// AVX-512 (AVX512_SKX), numpy (the reference environment's
// 1.26.4) computes float64 sin, cos, arccos, log, log1p, exp and power with
// Intel's SVML, whose results differ from
// glibc's libm in the last bits: measured over 1e5 random arguments, sin and
// cos by up to 3 ulps, arccos, log and log1p by up to 2, exp and power by 1;
// sums, products, sqrt, abs and clip are the same. Its baseline kernels
// (SSE, SSE2, SSE3: every x86-64 CPU) call libm, as our C++ does, so a
// reference run with kBaseline gives the same bits on every machine and can be
// compared exactly; a run with kMachine gives what upstream's grader computes
// on this machine.

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mlebench::testing {

enum class NumpyKernels {
  kBaseline,  // every feature numpy dispatches at run time disabled
  kMachine,   // whatever this CPU supports, less what an inherited
              // NPY_DISABLE_CPU_FEATURES turns off: so that
              // --test_env=NPY_DISABLE_CPU_FEATURES="AVX512F ..." stands in
              // for a machine without them
};

// "baseline" or "machine", for test names and messages.
std::string NumpyKernelsName(NumpyKernels kernels);

// The CPU features the reference numpy dispatches at run time (its
// __cpu_dispatch__) that this machine has, asked once per process: the ones
// the baseline turns off (numpy refuses, with a warning on every run, to
// disable a feature the CPU lacks, e.g. AVX-512 on a machine without it).
absl::StatusOr<std::vector<std::string>> NumpyDispatchedFeatures();

// `argv` (a ReferencePython() command) wrapped in /usr/bin/env so that its
// numpy runs with `kernels`.
absl::StatusOr<std::vector<std::string>> WithNumpyKernels(NumpyKernels kernels,
                                                          std::vector<std::string> argv);

// Runs `ReferencePython() script args...` with `kernels`, plus, when
// `seed_variable` names a set environment variable, its value as one more
// argument (so --test_env=SEED_VARIABLE=7 explores other inputs). An error
// carries the command's output.
absl::Status RunNumpyReference(NumpyKernels kernels, const std::string& script,
                               std::vector<std::string> args, const char* seed_variable = nullptr);

// The dispatched features that numpy turns on in a process started with
// `kernels`: none for kBaseline; this CPU's, less the inherited restriction,
// for kMachine.
absl::StatusOr<std::vector<std::string>> NumpyEnabledDispatchedFeatures(NumpyKernels kernels);

}  // namespace mlebench::testing

#endif  // MLEBENCH_BASE_TESTING_NUMPY_KERNELS_H_
