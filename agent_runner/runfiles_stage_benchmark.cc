// Staging throughput: trees of N symlinked files (1,000 to a directory, as
// Bazel's runfiles trees spread them over packages), hard-linked or copied.

#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "agent_runner/runfiles_stage.h"
#include "benchmark/benchmark.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// One scratch directory per process, under TEST_TMPDIR when Bazel runs it.
class Scratch {
 public:
  Scratch() {
    const char* base = std::getenv("TEST_TMPDIR");
    std::string dir =
        absl::StrCat(base != nullptr ? base : "/tmp", "/runfiles_stage_bench.XXXXXX");
    if (mkdtemp(dir.data()) == nullptr) std::abort();
    root_ = dir;
  }
  ~Scratch() { static_cast<void>(RemoveStaged(root_)); }

  // The outputs and runfiles tree for `files` files, made once.
  const fs::path& Tree(int files) {
    auto it = trees_.find(files);
    if (it != trees_.end()) return it->second;
    const fs::path outputs = root_ / absl::StrCat("outputs", files);
    const fs::path tree = root_ / absl::StrCat("tree", files, ".runfiles");
    for (int i = 0; i < files; ++i) {
      const std::string rel = absl::StrCat("_main/pkg", i / 1000, "/file", i % 1000, ".py");
      fs::create_directories((outputs / rel).parent_path());
      fs::create_directories((tree / rel).parent_path());
      std::ofstream(outputs / rel) << "print(" << i << ")\n";
      fs::permissions(outputs / rel, fs::perms(0444));  // as Bazel leaves its outputs
      fs::create_symlink(outputs / rel, tree / rel);
    }
    return trees_.emplace(files, tree).first->second;
  }

  const fs::path& root() const { return root_; }

 private:
  fs::path root_;
  std::map<int, fs::path> trees_;
};

// Destroyed at exit, removing the trees (50,000 files would stay in /tmp).
Scratch& GetScratch() {
  static Scratch scratch;
  return scratch;
}

void Stage(benchmark::State& state, bool hard_links) {
  const int files = static_cast<int>(state.range(0));
  const fs::path& tree = GetScratch().Tree(files);
  const StagingPolicy policy{.allowed_roots = {GetScratch().root()}, .hard_links = hard_links};
  const fs::path staged = GetScratch().root() / "staged";
  for (auto _ : state) {
    absl::StatusOr<StagingStats> stats = StageRunfiles(tree, staged, policy);
    if (!stats.ok() || stats->files != files) {
      state.SkipWithError(stats.ok() ? "wrong file count" : "staging failed");
      break;
    }
    state.PauseTiming();
    if (!RemoveStaged(staged).ok()) std::abort();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * files);
}

void BM_StageHardLinks(benchmark::State& state) { Stage(state, /*hard_links=*/true); }
void BM_StageCopies(benchmark::State& state) { Stage(state, /*hard_links=*/false); }

// Real time: the work is system calls, and waiting on the disk is part of it.
BENCHMARK(BM_StageHardLinks)
    ->Arg(100)->Arg(1'000)->Arg(10'000)->Arg(50'000)
    ->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StageCopies)
    ->Arg(100)->Arg(1'000)->Arg(10'000)->Arg(50'000)
    ->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mlebench
