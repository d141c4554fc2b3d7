// Every registered grader against upstream's grade(), restated in
// competitions/<id>/upstream_grade.py and run on the reference environment
// (upstream's pinned pandas, scikit-learn, scipy, ...; see driver.py for what a
// script defines), with numpy's baseline kernels (base/testing/numpy_kernels.h).
// One Python process runs the scripts of every competition
// this test run selects (--test_filter, sharding), then each competition's
// test grades the same files with our grader and expects upstream's outcome
// for every case: the same score, bit for bit unless the script allows a
// tolerance, or an invalid submission where upstream raises.
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "base/testing/numpy_kernels.h"
#include "base/testing/test_util.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr char kSuite[] = "UpstreamGradeTest";

std::vector<std::string> GraderIds() {
  std::vector<std::string> ids;
  for (const CompetitionGrader* grader : GraderRegistry::All()) ids.push_back(grader->id);
  return ids;
}

std::string TestName(const std::string& id) { return absl::StrReplaceAll(id, {{"-", "_"}}); }

std::filesystem::path ScriptOf(const std::string& id) {
  return std::filesystem::path("competitions") / id / "upstream_grade.py";
}

// Where the driver wrote each competition's cases; set by the environment.
std::filesystem::path& CasesDir() {
  static auto* dir = new std::filesystem::path();
  return *dir;
}

// Runs the driver once, for the competitions whose tests this run selects.
class UpstreamGradeRuns : public ::testing::Environment {
 public:
  void SetUp() override {
    std::map<std::string, std::string> id_of_name;
    for (const std::string& id : GraderIds()) id_of_name[TestName(id)] = id;
    std::vector<std::string> argv = {testing::ReferencePython(), "tools/upstream_grade/driver.py"};
    CasesDir() = testing::NewTempDir("upstream_grade");
    argv.push_back(CasesDir().string());
    const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
    for (int i = 0; i < unit.total_test_suite_count(); ++i) {
      const ::testing::TestSuite& suite = *unit.GetTestSuite(i);
      for (int j = 0; j < suite.total_test_count(); ++j) {
        const ::testing::TestInfo& test = *suite.GetTestInfo(j);
        if (!test.should_run() || !absl::EndsWith(suite.name(), kSuite)) continue;
        const std::vector<std::string> parts = absl::StrSplit(test.name(), '/');
        const auto id = id_of_name.find(parts.back());
        if (id != id_of_name.end() && std::filesystem::exists(ScriptOf(id->second))) {
          argv.push_back(ScriptOf(id->second).string());
        }
      }
    }
    if (argv.size() == 3) return;
    // numpy's baseline kernels: on AVX-512, numpy computes log, log1p, sin,
    // cos, arccos, ... with SVML, a few ulps from libm; the baseline gives
    // the same bits on every x86-64 CPU, which our graders reproduce exactly.
    absl::StatusOr<std::vector<std::string>> command =
        testing::WithNumpyKernels(testing::NumpyKernels::kBaseline, std::move(argv));
    ASSERT_TRUE(command.ok()) << command.status();
    const testing::CommandResult run = testing::RunCommand(*command);
    ASSERT_EQ(run.exit_code, 0) << "the upstream-grade driver failed:\n" << run.output;
  }
};

const auto* const kRuns = ::testing::AddGlobalTestEnvironment(new UpstreamGradeRuns);

struct Settings {
  int cases = 0;
  double relative_tolerance = 0;
  int min_scored = 0;
  int min_raised = 0;
};

Settings ReadSettings(const std::filesystem::path& file) {
  Settings settings;
  for (absl::string_view line : absl::StrSplit(testing::ReadFileOrFail(file), '\n')) {
    const std::vector<std::string> words = absl::StrSplit(line, ' ');
    if (words.size() != 2) continue;
    const bool ok = (words[0] == "cases" && absl::SimpleAtoi(words[1], &settings.cases)) ||
                    (words[0] == "relative_tolerance" &&
                     absl::SimpleAtod(words[1], &settings.relative_tolerance)) ||
                    (words[0] == "min_scored" &&
                     absl::SimpleAtoi(words[1], &settings.min_scored)) ||
                    (words[0] == "min_raised" && absl::SimpleAtoi(words[1], &settings.min_raised));
    EXPECT_TRUE(ok) << file << ": " << line;
  }
  return settings;
}

class UpstreamGradeTest : public ::testing::TestWithParam<std::string> {};

TEST_P(UpstreamGradeTest, MatchesUpstreamOnTheReferenceEnvironment) {
  const std::string& id = GetParam();
  ASSERT_TRUE(std::filesystem::exists(ScriptOf(id)))
      << "every grader needs a restatement of upstream's grade(): " << ScriptOf(id)
      << " is missing";
  const std::filesystem::path dir = CasesDir() / id;
  ASSERT_FALSE(std::filesystem::exists(dir / "error.txt"))
      << ScriptOf(id) << " failed:\n" << testing::ReadFileOrEmpty(dir / "error.txt");
  const Settings settings = ReadSettings(dir / "meta.txt");
  ASSERT_GT(settings.cases, 0);
  const testing::UpstreamGradeComparison counts = testing::CompareWithUpstreamOutcomes(
      id, dir, testing::ReadFileOrFail(dir / "outcomes.txt"), settings.cases,
      settings.relative_tolerance);
  // A restatement whose cases upstream never scores, or never rejects, tests
  // half a grader.
  EXPECT_GE(counts.scored, settings.min_scored) << "cases upstream scored";
  EXPECT_GE(counts.raised, settings.min_raised) << "cases upstream rejected";
}

INSTANTIATE_TEST_SUITE_P(EveryGrader, UpstreamGradeTest, ::testing::ValuesIn(GraderIds()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return TestName(info.param);
                         });

}  // namespace
}  // namespace mlebench
