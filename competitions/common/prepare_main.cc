// The prepare action of one competition: linked with exactly one preparer
// library (besides this main), so that a change to another competition's
// preparer never re-prepares this one.
//
//   prepare --competition ID --raw DIR --public DIR --private DIR [--scratch DIR]
//   prepare --competition ID (--raw DIR | --raw_zip FILE) --public DIR --private DIR
//           --dataset_out FILE [--checksums checksums.yaml]
//   prepare --competition ID --prepared DIR --answers REL --sample_submission REL
//           --dataset_out FILE [--checksums checksums.yaml]
//   prepare --competition ID --data_dir DIR --answers REL --sample_submission REL
//           --handle_out FILE --dataset_out FILE [--checksums checksums.yaml]
//           [--manifest FILE]
//
// `public` and `private` are created if absent. `scratch` (created if absent,
// and then it must be empty) holds intermediate files and is left in place;
// without it, a fresh directory under $TMPDIR is used and removed afterwards.
// The first form prepares synthetic data. The next two are the build's
// real-data step in content mode (data_dir.h, PrepareFromInputs and
// CheckPreparedInputs): the data dir's files are the action's inputs, read
// where the action finds them; the second prepares a raw download (or the
// Kaggle zip alone) into `public` and `private`, the third checks prepared
// data taken as is. Both check the checksums when given and write the
// dataset's name ("kaggle" or "synthetic", for the report).
// The last form is the real-data step in place (data_dir.h,
// EnsurePreparedData): it takes or prepares DIR/ID/prepared/ in place and
// writes the data handle and the dataset's name; --manifest is the scan
// step's output, an input of the action only so that Bazel reruns it when
// the data changed.
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
#include "base/baseline_libm.h"
#include "base/command_line.h"
#include "base/files.h"
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

// --checksums, parsed, when given.
absl::StatusOr<std::optional<UpstreamChecksums>> ReadChecksums(const CommandLine& cl) {
  if (!cl.Has("checksums")) return std::optional<UpstreamChecksums>();
  std::ifstream in(cl.Get("checksums"), std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", cl.Get("checksums")));
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<UpstreamChecksums> parsed = ParseUpstreamChecksums(text.str());
  if (!parsed.ok()) {
    return absl::Status(parsed.status().code(), absl::StrCat(cl.Get("checksums"), ": ",
                                                             std::string(parsed.status().message())));
  }
  return std::optional<UpstreamChecksums>(*std::move(parsed));
}

absl::Status RunOnDataDir(const CommandLine& cl) {
  RETURN_IF_ERROR(RequireFlags(cl, {"competition", "data_dir", "answers", "sample_submission",
                                    "handle_out", "dataset_out"}));
  ASSIGN_OR_RETURN(const std::optional<UpstreamChecksums> checksums, ReadChecksums(cl));
  const CompetitionDataDir dir(cl.Get("data_dir"), cl.Get("competition"));
  ASSIGN_OR_RETURN(
      PreparedData prepared,
      EnsurePreparedData(dir, cl.Get("answers"), cl.Get("sample_submission"), checksums));
  RETURN_IF_ERROR(WriteStringToFile(cl.Get("handle_out"), prepared.handle));
  RETURN_IF_ERROR(WriteStringToFile(cl.Get("dataset_out"), prepared.dataset + "\n"));
  std::printf("prepare: %s: %s\n", dir.id.c_str(), prepared.log.c_str());
  return absl::OkStatus();
}

// Content mode, prepared data taken as is.
absl::Status RunOnPreparedInputs(const CommandLine& cl) {
  RETURN_IF_ERROR(RequireFlags(
      cl, {"competition", "prepared", "answers", "sample_submission", "dataset_out"}));
  ASSIGN_OR_RETURN(const std::optional<UpstreamChecksums> checksums, ReadChecksums(cl));
  const std::string id = cl.Get("competition");
  ASSIGN_OR_RETURN(const std::string dataset,
                   CheckPreparedInputs(id, cl.Get("prepared"), cl.Get("answers"),
                                       cl.Get("sample_submission"), checksums));
  RETURN_IF_ERROR(WriteStringToFile(cl.Get("dataset_out"), dataset + "\n"));
  std::printf("prepare: %s: took the prepared data as is (%s)%s\n", id.c_str(), dataset.c_str(),
              checksums.has_value() ? "; checksums match upstream's" : "");
  return absl::OkStatus();
}

// Content mode, a raw download (or its zip) prepared into public/ and private/.
absl::Status RunOnRawInputs(const CommandLine& cl) {
  RETURN_IF_ERROR(RequireFlags(cl, {"competition", "public", "private", "dataset_out"}));
  if (cl.Has("scratch")) {
    return absl::InvalidArgumentError("--scratch is for the synthetic form only");
  }
  ASSIGN_OR_RETURN(const std::optional<UpstreamChecksums> checksums, ReadChecksums(cl));
  const std::string id = cl.Get("competition");
  RawInputs inputs;
  if (cl.Has("raw")) inputs.raw = fs::path(cl.Get("raw"));
  if (cl.Has("raw_zip")) inputs.zip = fs::path(cl.Get("raw_zip"));
  const fs::path public_dir = cl.Get("public");
  const fs::path private_dir = cl.Get("private");
  ASSIGN_OR_RETURN(const std::string dataset,
                   PrepareFromInputs(id, inputs, public_dir, private_dir, checksums));
  RETURN_IF_ERROR(WriteStringToFile(cl.Get("dataset_out"), dataset + "\n"));
  std::printf("prepare: %s: prepared %s data from %s: %d files in %s, %d in %s%s\n", id.c_str(),
              dataset.c_str(), (cl.Has("raw") ? cl.Get("raw") : cl.Get("raw_zip")).c_str(),
              CountFiles(public_dir), public_dir.string().c_str(), CountFiles(private_dir),
              private_dir.string().c_str(),
              checksums.has_value() ? "; checksums match upstream's" : "");
  return absl::OkStatus();
}

absl::Status Run(const std::vector<std::string>& args) {
  ASSIGN_OR_RETURN(
      CommandLine cl,
      (ParseCommandLine(args, {"competition", "raw", "raw_zip", "prepared", "public", "private",
                               "scratch", "data_dir", "answers", "sample_submission",
                               "handle_out", "dataset_out", "checksums", "manifest"})));
  const int forms = static_cast<int>(cl.Has("data_dir")) + static_cast<int>(cl.Has("prepared")) +
                    static_cast<int>(cl.Has("raw") || cl.Has("raw_zip"));
  if (forms > 1 || (cl.Has("raw") && cl.Has("raw_zip"))) {
    return absl::InvalidArgumentError(
        "give one of --raw, --raw_zip, --prepared and --data_dir (see the usage)");
  }
  if (cl.Has("data_dir")) return RunOnDataDir(cl);
  if (cl.Has("prepared")) return RunOnPreparedInputs(cl);
  if (cl.Has("raw_zip") || cl.Has("dataset_out") || cl.Has("checksums")) {
    return RunOnRawInputs(cl);
  }
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

int main(int argc, char** argv) {
  mlebench::UseBaselineLibm(argv);
  return mlebench::RunToolMain(argc, argv, "prepare", &mlebench::Run);
}
