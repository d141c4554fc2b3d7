// The prepare action of one competition: linked with exactly one preparer
// library (besides this main), so that a change to another competition's
// preparer never re-prepares this one.
//
//   prepare --competition ID --raw DIR --public DIR --private DIR [--scratch DIR]
//   prepare --competition ID --data_dir DIR --answers REL --sample_submission REL
//           --handle_out FILE --dataset_out FILE [--checksums checksums.yaml]
//           [--manifest FILE]
//
// `public` and `private` are created if absent. `scratch` (created if absent,
// and then it must be empty) holds intermediate files and is left in place;
// without it, a fresh directory under $TMPDIR is used and removed afterwards.
// The second form is the build's real-data step (see data_dir.h,
// EnsurePreparedData): it takes or prepares DIR/ID/prepared/ in place and
// writes the data handle and the dataset's name ("kaggle" or "synthetic",
// for the report); --manifest is the scan step's output, an input of
// the action only so that Bazel reruns it when the data changed.
// Prints a one-line summary; exits non-zero with the reason on any error.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/command_line.h"
#include "base/status_macros.h"
#include "competitions/common/data_dir.h"
#include "competitions/common/preparer.h"

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

absl::Status WriteFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return absl::InternalError(absl::StrCat("cannot write ", path.string()));
  return absl::OkStatus();
}

absl::Status RunOnDataDir(const CommandLine& cl) {
  RETURN_IF_ERROR(RequireFlags(cl, {"competition", "data_dir", "answers", "sample_submission",
                                    "handle_out", "dataset_out"}));
  std::optional<UpstreamChecksums> checksums;
  if (cl.Has("checksums")) {
    std::ifstream in(cl.Get("checksums"), std::ios::binary);
    if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", cl.Get("checksums")));
    std::stringstream text;
    text << in.rdbuf();
    absl::StatusOr<UpstreamChecksums> parsed = ParseUpstreamChecksums(text.str());
    if (!parsed.ok()) {
      return absl::Status(parsed.status().code(), absl::StrCat(cl.Get("checksums"), ": ",
                                                               std::string(parsed.status().message())));
    }
    checksums = *std::move(parsed);
  }
  const CompetitionDataDir dir(cl.Get("data_dir"), cl.Get("competition"));
  ASSIGN_OR_RETURN(
      PreparedData prepared,
      EnsurePreparedData(dir, cl.Get("answers"), cl.Get("sample_submission"), checksums));
  RETURN_IF_ERROR(WriteFile(cl.Get("handle_out"), prepared.handle));
  RETURN_IF_ERROR(WriteFile(cl.Get("dataset_out"), prepared.dataset + "\n"));
  std::printf("prepare: %s: %s\n", dir.id.c_str(), prepared.log.c_str());
  return absl::OkStatus();
}

absl::Status Run(const std::vector<std::string>& args) {
  ASSIGN_OR_RETURN(
      CommandLine cl,
      (ParseCommandLine(
          args, {"competition", "raw", "public", "private", "scratch", "data_dir", "answers",
                 "sample_submission", "handle_out", "dataset_out", "checksums", "manifest"})));
  if (cl.Has("data_dir")) return RunOnDataDir(cl);
  RETURN_IF_ERROR(RequireFlags(cl, {"competition", "raw", "public", "private"}));
  const std::string id = cl.Get("competition");
  const fs::path public_dir = cl.Get("public");
  const fs::path private_dir = cl.Get("private");
  std::optional<fs::path> scratch;
  if (cl.Has("scratch")) scratch = fs::path(cl.Get("scratch"));
  RETURN_IF_ERROR(RunRegisteredPreparer(id, cl.Get("raw"), public_dir, private_dir, scratch));
  std::printf("prepare: %s: %d files in %s, %d in %s\n", id.c_str(), CountFiles(public_dir),
              public_dir.string().c_str(), CountFiles(private_dir), private_dir.string().c_str());
  return absl::OkStatus();
}

}  // namespace
}  // namespace mlebench

int main(int argc, char** argv) { return mlebench::RunToolMain(argc, argv, "prepare", &mlebench::Run); }
