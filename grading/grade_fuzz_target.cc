// libFuzzer's entry points for a competition's grader fuzz target: link it
// with exactly one grader library (competitions/defs.bzl does, as
// `grade_fuzzer`). Each input is a submission, graded against fixed answers
// as the grade action grades it and held to the grading limits
// (grading/grade_fuzzing.h).
//
//   grade_fuzzer --answers=FILE [--sample=FILE] [libFuzzer flags] [CORPUS_DIR... | INPUT...]
//
// --answers: the answers to grade against (the competition's synthetic
//   prepared answers, in its answers format).
// --sample: the sample submission; with it, the sample and its hostile
//   variants (grading/hostile_variants.h) are written to a scratch directory
//   that is added to the corpus directories, unless the inputs are files
//   (libFuzzer then runs just those, as when reproducing a finding).
//
// From the answers come libFuzzer's defaults -rss_limit_mb, -malloc_limit_mb
// and -timeout (grading_limits.h, one source of truth); flags given on the
// command line win. Flags with two dashes are this target's: libFuzzer
// ignores them.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "base/files.h"
#include "base/testing/fuzz_support.h"
#include "grading/grade_fuzzing.h"
#include "grading/grader.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

std::optional<SubmissionFuzzer>& Fuzzer() {
  static auto* fuzzer = new std::optional<SubmissionFuzzer>();
  return *fuzzer;
}

[[noreturn]] void Fail(const std::string& message) {
  std::fprintf(stderr, "grade fuzzer: %s\n", message.c_str());
  std::exit(2);
}

// The process's scratch directory (fuzz_support.h), removed at a normal
// exit: it holds a copy of the seeds, which a run outside a test would
// otherwise leave in /tmp.
fs::path ScratchDirRemovedAtExit() {
  std::atexit([] {
    std::error_code ignored;
    fs::remove_all(fuzz::ScratchDir(), ignored);
  });
  return fuzz::ScratchDir();
}

constexpr int64_t kMiB = int64_t{1} << 20;

// `path` as given when it exists (`bazel run` and `bazel test` start the
// fuzzer in its runfiles, where the paths its target passes are relative),
// else relative to the runfiles beside `argv0` (the fuzzer run directly from
// bazel-bin).
std::string InRunfiles(const std::string& path, const char* argv0) {
  std::error_code ec;
  if (path.empty() || fs::path(path).is_absolute() || fs::exists(path, ec)) return path;
  const fs::path beside = fs::path(std::string(argv0) + ".runfiles") / "mlebench" / path;
  return fs::exists(beside, ec) ? beside.string() : path;
}

// The resident set the process may reach: what it holds now, plus the
// grading's memory limit measured as AddressSanitizer's resident set, which
// is up to about twice the heap the program asked for (red zones around
// small blocks, an eighth for the shadow) plus its quarantine of freed
// blocks (256 MiB by default). A backstop for memory the heap hooks do not
// see; the limit itself is checked on the heap (HeapMeter).
int64_t RssLimitMiB(int64_t memory_headroom_bytes) {
  int64_t resident_bytes = 0;
  if (FILE* statm = std::fopen("/proc/self/statm", "r")) {
    long long total_pages = 0, resident_pages = 0;
    if (std::fscanf(statm, "%lld %lld", &total_pages, &resident_pages) == 2) {
      resident_bytes = resident_pages * sysconf(_SC_PAGESIZE);
    }
    std::fclose(statm);
  }
  return (resident_bytes + 2 * memory_headroom_bytes) / kMiB + 256 + 1;
}

}  // namespace
}  // namespace mlebench

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  using namespace mlebench;
  std::string answers_file, sample_file;
  std::vector<char*> kept;
  for (int i = 0; i < *argc; ++i) {
    absl::string_view arg = (*argv)[i];
    if (i > 0 && absl::ConsumePrefix(&arg, "--answers=")) {
      answers_file = InRunfiles(std::string(arg), (*argv)[0]);
    } else if (i > 0 && absl::ConsumePrefix(&arg, "--sample=")) {
      sample_file = InRunfiles(std::string(arg), (*argv)[0]);
    } else {
      kept.push_back((*argv)[i]);
    }
  }
  if (answers_file.empty()) Fail("--answers=FILE is required");
  const std::vector<const CompetitionGrader*> graders = GraderRegistry::All();
  if (graders.size() != 1) {
    Fail(absl::StrCat("link exactly one grader library; this binary has ", graders.size()));
  }
  const fs::path scratch = ScratchDirRemovedAtExit();
  absl::StatusOr<SubmissionFuzzer> fuzzer =
      SubmissionFuzzer::Create(*graders[0], answers_file, scratch);
  if (!fuzzer.ok()) Fail(fuzzer.status().ToString());
  Fuzzer().emplace(*std::move(fuzzer));
  std::fprintf(stderr, "grade fuzzer: %s\n", Fuzzer()->Describe().c_str());

  // The limits as libFuzzer's defaults, first so that the command line's own
  // flags (later) win.
  const GradingLimits& limits = Fuzzer()->answers().limits;
  static std::vector<std::string>* defaults = new std::vector<std::string>{
      absl::StrCat("-rss_limit_mb=", RssLimitMiB(limits.memory_headroom_bytes)),
      absl::StrCat("-malloc_limit_mb=", (limits.memory_headroom_bytes + kMiB - 1) / kMiB),
      absl::StrCat("-timeout=", limits.cpu_seconds)};
  std::vector<char*> args = {kept[0]};
  for (std::string& flag : *defaults) args.push_back(flag.data());
  args.insert(args.end(), kept.begin() + 1, kept.end());

  bool inputs_are_files = false;
  for (size_t i = 1; i < kept.size(); ++i) {
    std::error_code ec;
    if (kept[i][0] != '-' && fs::is_regular_file(kept[i], ec)) inputs_are_files = true;
  }
  if (!sample_file.empty() && !inputs_are_files) {
    absl::StatusOr<std::vector<std::pair<std::string, std::string>>> seeds =
        Fuzzer()->Seeds(sample_file);
    if (!seeds.ok()) Fail(seeds.status().ToString());
    const fs::path seed_dir = scratch / "seeds";
    fs::create_directory(seed_dir);
    for (size_t i = 0; i < seeds->size(); ++i) {
      const absl::Status written =
          WriteStringToFile(seed_dir / absl::StrCat("seed", i), (*seeds)[i].second);
      if (!written.ok()) Fail(written.ToString());
    }
    static std::string* seed_arg = new std::string(seed_dir.string());
    args.push_back(seed_arg->data());
  }
  static std::vector<char*>* new_argv = new std::vector<char*>();
  *new_argv = args;
  new_argv->push_back(nullptr);
  *argc = static_cast<int>(args.size());
  *argv = new_argv->data();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::Status finding = mlebench::Fuzzer()->Grade(
      std::string_view(reinterpret_cast<const char*>(data), size));
  if (!finding.ok()) {
    std::fprintf(stderr, "\n==grade fuzzer finding (%s): %s\n",
                 mlebench::Fuzzer()->grader().id.c_str(), finding.ToString().c_str());
    std::abort();
  }
  return 0;
}
