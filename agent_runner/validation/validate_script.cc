#include "agent_runner/validation/validate_script.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace mlebench {
namespace {

// `value` in single quotes for sh: a quote inside becomes '\''.
std::string ShellQuoted(const std::string& value) {
  return absl::StrCat("'", absl::StrReplaceAll(value, {{"'", "'\\''"}}), "'");
}

absl::Status CheckValue(const std::string& value, const char* what, bool path) {
  if (value.empty()) return absl::InvalidArgumentError(absl::StrCat("no ", what));
  if (value.find_first_of(std::string("\0\n\r", 3)) != std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " holds a NUL or a line break: '", value, "'"));
  }
  if (path && value[0] != '/') {
    return absl::InvalidArgumentError(absl::StrCat(what, " must be absolute, got '", value, "'"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::string> ValidateSubmissionScript(const ValidateScriptPaths& paths) {
  if (absl::Status s = CheckValue(paths.validator, "validator path", true); !s.ok()) return s;
  if (absl::Status s = CheckValue(paths.competition_id, "competition id", false); !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckValue(paths.sample_submission, "sample submission path", true);
      !s.ok()) {
    return s;
  }
  std::string loader;
  for (const std::string& word : paths.loader) {
    if (absl::Status s = CheckValue(word, "loader", word[0] != '-'); !s.ok()) return s;
    absl::StrAppend(&loader, ShellQuoted(word), " ");
  }
  return absl::StrCat(
      "#!/bin/sh\n"
      "# validate_submission.sh FILE: whether FILE is a submission the grader will take,\n"
      "# decided from this competition's public sample submission and its grader's format\n"
      "# rules; never a score, never the answers. Prints \"Submission is valid.\" or\n"
      "# \"Submission is invalid: <why>\". Exit status: 0 valid, 1 invalid, 2 usage error.\n"
      "if [ \"$#\" -ne 1 ]; then\n"
      "  echo \"usage: $0 FILE (e.g. $0 submission/submission.csv)\" >&2\n"
      "  exit 2\n"
      "fi\n"
      "exec ",
      loader, ShellQuoted(paths.validator), " --competition ", ShellQuoted(paths.competition_id),
      " --sample ", ShellQuoted(paths.sample_submission), " -- \"$1\"\n");
}

std::string ValidateSubmissionInstructions(const std::string& script) {
  return absl::StrCat(
      "- Submission checker: `", script,
      " FILE` says whether FILE is a submission the grader will take (\"Submission is "
      "valid.\", or why not), from the public sample submission and the competition's "
      "format rules. It does not give a score and never sees the answers: a valid "
      "submission can still score badly.\n");
}

}  // namespace mlebench
