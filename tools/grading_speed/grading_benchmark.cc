// Grading from files, in process: for each SUBMISSION_DIR/<id>.csv, the whole
// job of `mlebench grade-sample` up to the report (read the answers, read the
// submission, check, grade, round), without process start, report writing
// and exit. tools/grading_speed_comparison.sh runs it on the files it writes
// and puts it beside upstream's grade code timed the same way.
//
//   grading_benchmark [--benchmark_...] COMPETITIONS_TSV DATA_DIR SUBMISSION_DIR
//
// One benchmark per submission, named after its competition; its counter
// `score` is the rounded score (so the run shows it graded, not failed).

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "benchmark/benchmark.h"
#include "grading/competition_table.h"
#include "grading/grader.h"
#include "grading/medals.h"
#include "grading/grade_submission.h"
#include "grading/report.h"

namespace mlebench {
namespace {

void GradeFromFiles(benchmark::State& state, const CompetitionGrader* grader,
                    const std::string& submission, const std::string& answers) {
  double score = 0;
  for (auto _ : state) {
    absl::StatusOr<CompetitionReport> report =
        GradeSubmissionFile(*grader, submission, answers, MedalThresholds{}, ReportContext{});
    if (!report.ok()) {
      state.SkipWithError(std::string(report.status().message()).c_str());
      return;
    }
    if (!report->valid_submission()) {
      state.SkipWithError(report->invalid_reason().c_str());
      return;
    }
    score = report->score().number_value();
    benchmark::DoNotOptimize(score);
  }
  state.counters["score"] = score;
}

int Main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (argc != 4) {
    std::cerr << "usage: " << argv[0]
              << " [--benchmark_...] COMPETITIONS_TSV DATA_DIR SUBMISSION_DIR\n";
    return 2;
  }
  absl::StatusOr<std::map<std::string, CompetitionInfo>> table = ReadCompetitionTable(argv[1]);
  if (!table.ok()) {
    std::cerr << table.status() << "\n";
    return 2;
  }
  std::vector<std::filesystem::path> submissions;
  for (const auto& entry : std::filesystem::directory_iterator(argv[3])) {
    if (entry.path().extension() == ".csv") submissions.push_back(entry.path());
  }
  std::sort(submissions.begin(), submissions.end());
  for (const std::filesystem::path& submission : submissions) {
    const std::string id = submission.stem().string();
    const CompetitionGrader* grader = GraderRegistry::Find(id);
    auto info = table->find(id);
    if (grader == nullptr || info == table->end()) {
      std::cerr << "no grader for " << submission << "\n";
      return 2;
    }
    const std::string answers = (std::filesystem::path(argv[2]) / info->second.answers_path).string();
    benchmark::RegisterBenchmark(id.c_str(), GradeFromFiles, grader, submission.string(), answers)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace
}  // namespace mlebench

int main(int argc, char** argv) { return mlebench::Main(argc, argv); }
