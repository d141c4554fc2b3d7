#ifndef MLEBENCH_BASE_BASELINE_LIBM_H_
#define MLEBENCH_BASE_BASELINE_LIBM_H_

#include <string>

#include "absl/strings/string_view.h"

namespace mlebench {

// glibc's libm picks, at start-up and by CPU, between variants of exp, log,
// pow, sin, cos, tan, atan, atan2 and others (ifuncs): FMA or FMA4 code where
// the CPU has it, SSE2/AVX code otherwise. The variants do not round alike
// for every input, so a generator, preparer or grader would write other bytes
// on a machine with FMA than on one without (nomad2018's generator did:
// docs/performance.md, "Same bytes on every machine"), and a shared cache
// would hold whichever machine ran the action first. With FMA and FMA4
// masked in glibc's view of the CPU (this GLIBC_TUNABLES setting), every
// x86-64 runs the same variants. AVX-512 needs no mask: glibc 2.36's libm
// has no AVX-512 variant whose results differ.
//
// The Bazel actions that run these tools set this value in their environment
// (//base:baseline_libm.bzl, which must say the same; baseline_libm_test
// checks), so that they never re-execute themselves.
inline constexpr char kBaselineLibmTunable[] = "glibc.cpu.hwcaps=-FMA,-FMA4";

// The GLIBC_TUNABLES value that keeps every tunable of `current` (a
// colon-separated list of name=value) and masks FMA and FMA4 too: appended
// to the last glibc.cpu.hwcaps (the one glibc applies) when there is one, as
// a tunable of its own otherwise. `current` itself when it masks both
// already, so that applying it twice changes nothing.
std::string TunablesForBaselineLibm(absl::string_view current);

// Whether glibc's FMA or FMA4 variants are in use in this process (false
// where glibc or x86-64 is not, as there is nothing to mask).
bool FmaLibmVariantsActive();

// Makes the rest of this process use the baseline libm variants: when FMA or
// FMA4 variants are active, executes this program again (/proc/self/exe)
// with the same arguments and environment but GLIBC_TUNABLES as
// TunablesForBaselineLibm makes it, and does not return. Returns when nothing
// needs doing, and, with a warning on stderr, when it cannot be done (no
// /proc, or glibc ignores the tunables, as in a set-user-ID program). Call
// it first thing in main(), with main's argv. One extra exec (a few
// milliseconds) by hand; none in the Bazel actions, which set the variable.
void UseBaselineLibm(char** argv);

}  // namespace mlebench

#endif  // MLEBENCH_BASE_BASELINE_LIBM_H_
