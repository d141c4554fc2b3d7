#ifndef MLEBENCH_PYCOMPAT_REFERENCE_CASES_H_
#define MLEBENCH_PYCOMPAT_REFERENCE_CASES_H_

// Testonly: the line protocol of the random-draw differential tests
// (random_numpy_diff_test, python_random_diff_test). Each case is one line
// the reference script reads and our own answer to it; the script writes one
// answer line per case ("ERROR" where Python raises). Answers are
// space-separated tokens; tokens starting "0x" are float.hex() values and
// compare as numbers.

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/files.h"
#include "base/testing/test_util.h"
#include "gtest/gtest.h"

namespace mlebench::testing {

struct ReferenceCase {
  std::string line;  // what the reference script reads
  std::string ours;  // our answer, in the script's format
};

inline bool SameReferenceResult(const std::string& ours, const std::string& theirs) {
  if (ours == theirs) return true;
  std::vector<std::string> a = absl::StrSplit(ours, ' ');
  std::vector<std::string> b = absl::StrSplit(theirs, ' ');
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] == b[i]) continue;
    if (a[i].rfind("0x", 0) != 0 ||
        std::strtod(a[i].c_str(), nullptr) != std::strtod(b[i].c_str(), nullptr)) {
      return false;
    }
  }
  return true;
}

// Runs `script` (runfiles-relative) with ReferencePython() on the cases and
// adds a test failure for each case whose answer differs (the first ten).
// Returns how many cases the reference rejected ("ERROR"), or -1 when the
// script could not be run or answered the wrong number of lines.
inline int CompareWithReference(const char* script, const std::vector<ReferenceCase>& cases,
                                const std::string& temp_label) {
  const std::filesystem::path dir = NewTempDir(temp_label);
  std::string lines;
  for (const ReferenceCase& c : cases) absl::StrAppend(&lines, c.line, "\n");
  if (!WriteStringToFile(dir / "cases.txt", lines).ok()) {
    ADD_FAILURE() << "cannot write " << (dir / "cases.txt");
    return -1;
  }
  const CommandResult run = RunCommand(
      {ReferencePython(), script, (dir / "cases.txt").string(), (dir / "reference.txt").string()});
  if (run.exit_code != 0) {
    ADD_FAILURE() << "reference script failed:\n" << run.output;
    return -1;
  }
  absl::StatusOr<std::string> reference = ReadFileToString(dir / "reference.txt");
  if (!reference.ok()) {
    ADD_FAILURE() << reference.status();
    return -1;
  }
  std::vector<std::string> theirs = absl::StrSplit(*reference, '\n');
  if (theirs.size() != cases.size() + 1) {  // trailing newline
    ADD_FAILURE() << "reference answered " << theirs.size() - 1 << " lines for " << cases.size()
                  << " cases";
    return -1;
  }
  int errors = 0;
  int mismatches = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (theirs[i] == "ERROR") ++errors;
    if (!SameReferenceResult(cases[i].ours, theirs[i])) {
      ++mismatches;
      ADD_FAILURE() << "case '" << cases[i].line << "':\n  ours:   " << cases[i].ours.substr(0, 300)
                    << "\n  theirs: " << theirs[i].substr(0, 300);
      if (mismatches >= 10) break;
    }
  }
  return errors;
}

}  // namespace mlebench::testing

#endif  // MLEBENCH_PYCOMPAT_REFERENCE_CASES_H_
