// main() of every competition's validate binary (competitions/defs.bzl),
// what an agent's validate_submission.sh runs in its sandbox
// (agent_runner/validation/validate_script.h): linked with exactly one
// grader, it checks a submission file against the competition's public
// sample submission and format rules (public_validation.h), never against
// the answers, and gives no score.
//
//   validate --competition ID --sample SAMPLE [--] SUBMISSION
//
// SAMPLE is the sample submission the agent sees (a .csv, or a .zip or .7z
// holding one file). Prints one line on standard output: exactly
// "Submission is valid." or "Submission is invalid: <reason>" (escaped, at
// most about a kilobyte). Exits 0 when valid, 1 when invalid, 2 on a usage
// error or a sample it cannot read (the reason on standard error).
//
// What checking costs is bounded by the sample (GradingLimits from its
// size, as the grade step's are from the answers'): a larger submission is
// invalid before it is read, and running out of the memory or CPU time those
// limits allow is an invalid verdict saying so, never a crash.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/command_line.h"
#include "grading/grader.h"
#include "grading/grading_limits.h"
#include "grading/public_validation.h"

namespace mlebench {
namespace {

constexpr int kValid = 0;
constexpr int kInvalid = 1;
constexpr int kUsage = 2;

constexpr char kUsageText[] =
    "usage: validate --competition ID --sample SAMPLE_SUBMISSION [--] SUBMISSION\n";

int Fail(const std::string& message) {
  std::cerr << "validate_submission: " << message << "\n" << kUsageText;
  return kUsage;
}

int Run(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  absl::StatusOr<CommandLine> cl = ParseCommandLine(args, {"competition", "sample"});
  if (!cl.ok()) return Fail(std::string(cl.status().message()));
  if (absl::Status s = RequireFlags(*cl, {"competition", "sample"}); !s.ok()) {
    return Fail(std::string(s.message()));
  }
  std::vector<std::string> files = cl->positional;
  files.insert(files.end(), cl->after_dash_dash.begin(), cl->after_dash_dash.end());
  if (files.size() != 1) {
    return Fail(absl::StrCat("expected one submission file, got ", files.size()));
  }
  const CompetitionGrader* grader = GraderRegistry::Find(cl->Get("competition"));
  if (grader == nullptr) {
    return Fail(absl::StrCat("this validator has no grader for '", cl->Get("competition"), "'"));
  }
  absl::StatusOr<std::string> sample = ReadSampleSubmission(cl->Get("sample"));
  if (!sample.ok()) return Fail(std::string(sample.status().message()));
  absl::StatusOr<PublicValidator> validator = PublicValidator::Create(*grader, *sample);
  if (!validator.ok()) return Fail(std::string(validator.status().message()));

  // From here on the submission, which the agent wrote, is read.
  const GradingLimits& limits = validator->limits();
  std::cout.flush();
  if (absl::Status s = EnforceGradingLimitsOnDescriptor(
          limits, STDOUT_FILENO, kInvalid,
          VerdictLine(ValidationVerdict{
              .valid = false,
              .reason =
                  absl::StrCat("checking it needs more than the ", limits.memory_headroom_bytes,
                               " bytes of memory allowed for this competition's sample "
                               "submission")}) +
              "\n",
          VerdictLine(ValidationVerdict{
              .valid = false,
              .reason = absl::StrCat("checking it took more than the ", limits.cpu_seconds,
                                     " s of CPU time allowed for this competition's sample "
                                     "submission")}) +
              "\n");
      !s.ok()) {
    return Fail(absl::StrCat("cannot bound what checking costs: ", s.message()));
  }
  const ValidationVerdict verdict = validator->CheckFile(files[0]);
  std::cout << VerdictLine(verdict) << std::endl;
  return verdict.valid ? kValid : kInvalid;
}

}  // namespace
}  // namespace mlebench

int main(int argc, char** argv) {
  mlebench::TuneMallocForShortRun();
  return mlebench::Run(argc, argv);
}
