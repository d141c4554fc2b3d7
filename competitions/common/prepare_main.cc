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
#include <cstdio>
#include <filesystem>
#include <optional>
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

int CountFiles(const fs::path& dir) {
  int count = 0;
  std::error_code error;
  for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    if (it->is_regular_file()) ++count;
  }
  return count;
}

absl::Status Run(const std::vector<std::string>& args) {
  absl::StatusOr<CommandLine> cl =
      ParseCommandLine(args, {"competition", "raw", "public", "private", "scratch"});
  if (!cl.ok()) return cl.status();
  if (absl::Status s = RequireFlags(*cl, {"competition", "raw", "public", "private"}); !s.ok()) {
    return s;
  }
  const std::string id = cl->Get("competition");
  const fs::path public_dir = cl->Get("public");
  const fs::path private_dir = cl->Get("private");
  std::optional<fs::path> scratch;
  if (cl->Has("scratch")) scratch = fs::path(cl->Get("scratch"));
  if (absl::Status s = RunRegisteredPreparer(id, cl->Get("raw"), public_dir, private_dir, scratch);
      !s.ok()) {
    return s;
  }
  std::printf("prepare: %s: %d files in %s, %d in %s\n", id.c_str(), CountFiles(public_dir),
              public_dir.string().c_str(), CountFiles(private_dir), private_dir.string().c_str());
  return absl::OkStatus();
}

}  // namespace
}  // namespace mlebench

int main(int argc, char** argv) { return mlebench::RunToolMain(argc, argv, "prepare", &mlebench::Run); }
