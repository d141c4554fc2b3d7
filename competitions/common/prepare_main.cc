// The prepare action of one competition: linked with exactly one preparer
// library (besides this main), so that a change to another competition's
// preparer never re-prepares this one.
//
//   prepare --competition ID --raw DIR --public DIR --private DIR [--scratch DIR]
//
// `public` and `private` are created if absent. `scratch` (created if absent,
// and then it must be empty) holds intermediate files and is left in place;
// without it, a fresh directory under $TMPDIR is used and removed afterwards.
// Prints a one-line summary; exits non-zero with the reason on any error.
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "competitions/common/preparer.h"
#include "grading/command_line.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

absl::Status CreateDirectories(const fs::path& dir, std::string_view flag) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error || !fs::is_directory(dir)) {
    return absl::InvalidArgumentError(absl::StrCat("--", std::string(flag), " ", dir.string(),
                                                   ": cannot create directory",
                                                   error ? ": " + error.message() : ""));
  }
  return absl::OkStatus();
}

int CountFiles(const fs::path& dir) {
  int count = 0;
  std::error_code error;
  for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    if (it->is_regular_file()) ++count;
  }
  return count;
}

// A fresh directory under $TMPDIR (or /tmp).
absl::StatusOr<fs::path> CreateTempScratch() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern =
      (fs::path(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") / "mlebench-prepare-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    return absl::InternalError(absl::StrCat("cannot create a scratch directory ", pattern));
  }
  return fs::path(pattern);
}

absl::Status Run(const std::vector<std::string>& args) {
  absl::StatusOr<CommandLine> cl =
      ParseCommandLine(args, {"competition", "raw", "public", "private", "scratch"});
  if (!cl.ok()) return cl.status();
  if (absl::Status s = RequireFlags(*cl, {"competition", "raw", "public", "private"}); !s.ok()) {
    return s;
  }
  const std::string id = cl->Get("competition");
  const CompetitionPreparer* preparer = PreparerRegistry::Find(id);
  if (preparer == nullptr) {
    return absl::NotFoundError(absl::StrCat("no preparer registered for '", id, "' in this binary"));
  }
  const fs::path raw = cl->Get("raw");
  if (!fs::is_directory(raw)) {
    return absl::NotFoundError(absl::StrCat("--raw ", raw.string(), " is not a directory"));
  }
  const fs::path public_dir = cl->Get("public");
  const fs::path private_dir = cl->Get("private");
  if (absl::Status s = CreateDirectories(public_dir, "public"); !s.ok()) return s;
  if (absl::Status s = CreateDirectories(private_dir, "private"); !s.ok()) return s;

  fs::path scratch;
  const bool own_scratch = !cl->Has("scratch");
  if (own_scratch) {
    absl::StatusOr<fs::path> tmp = CreateTempScratch();
    if (!tmp.ok()) return tmp.status();
    scratch = *tmp;
  } else {
    scratch = cl->Get("scratch");
    if (absl::Status s = CreateDirectories(scratch, "scratch"); !s.ok()) return s;
    if (!fs::is_empty(scratch)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--scratch ", scratch.string(), " must be empty"));
    }
  }
  absl::Status prepared = preparer->prepare(raw, public_dir, private_dir, scratch);
  if (own_scratch) {
    std::error_code ignored;
    fs::remove_all(scratch, ignored);
  }
  if (!prepared.ok()) {
    return absl::Status(prepared.code(), absl::StrCat(id, ": ", prepared.message()));
  }
  std::printf("prepare: %s: %d files in %s, %d in %s\n", id.c_str(), CountFiles(public_dir),
              public_dir.string().c_str(), CountFiles(private_dir), private_dir.string().c_str());
  return absl::OkStatus();
}

}  // namespace
}  // namespace mlebench

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  absl::Status s = mlebench::Run(args);
  if (!s.ok()) {
    std::fprintf(stderr, "prepare: %s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}
