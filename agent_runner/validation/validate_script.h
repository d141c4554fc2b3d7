// validate_submission.sh, the script the runner puts in an agent's
// workspace (upstream's name and usage: `validate_submission.sh FILE`). It
// runs the competition's validate binary (//competitions/<id>:validate,
// grading/validate_main.cc) on FILE with the sample submission the agent
// sees, which says "Submission is valid." or "Submission is invalid: <why>"
// from the public sample and the grader's format rules: never a score, never
// the answers (docs/agents.md, "Checking a submission").
#ifndef MLEBENCH_AGENT_RUNNER_VALIDATION_VALIDATE_SCRIPT_H_
#define MLEBENCH_AGENT_RUNNER_VALIDATION_VALIDATE_SCRIPT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// Where the script finds what it runs, as the agent's processes see it.
struct ValidateScriptPaths {
  // The competition's validate binary (a read-only copy inside the sandbox).
  std::string validator;
  // Upstream's competition id (MLEBENCH_COMPETITION_ID).
  std::string competition_id;
  // The sample submission in the workspace's data/ (MLEBENCH_SAMPLE_SUBMISSION).
  std::string sample_submission;
  // Empty, or what runs the validator: on an agent's own root file system,
  // the host's dynamic loader and its options (sandbox.h, HostLoader), since
  // the validator needs the host's libraries. Each word absolute or an
  // option; quoted like the rest.
  std::vector<std::string> loader;
};

// The script's text: a POSIX sh script that takes one argument, FILE
// (relative to the caller's working directory), and execs
//   [<loader>...] <validator> --competition <id> --sample <sample> -- FILE
// with every value quoted for the shell, so that its exit status is the
// validator's: 0 valid, 1 invalid, 2 usage error (the script's own, too,
// for a wrong number of arguments). The values are baked in: the agent may
// change its environment without breaking the script. Errors when a path is
// not absolute or a value is empty or holds a NUL or a line break.
absl::StatusOr<std::string> ValidateSubmissionScript(const ValidateScriptPaths& paths);

// A paragraph for instructions.txt saying that the script exists, where,
// and what it answers; `script` is its path as the agent sees it.
std::string ValidateSubmissionInstructions(const std::string& script);

}  // namespace mlebench

#endif  // MLEBENCH_AGENT_RUNNER_VALIDATION_VALIDATE_SCRIPT_H_
