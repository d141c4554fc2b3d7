// Differential test of the grader against a restatement of upstream's
// grade.py (with scikit-learn's accuracy_score) run by /usr/bin/python3 on
// many random submissions, valid and not (see grade_python_diff_test.py).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr char kId[] = "inaturalist-2019-fgvc6";
constexpr char kScript[] = "competitions/inaturalist-2019-fgvc6/grade_python_diff_test.py";
constexpr int kCases = 400;

struct Case {
  std::string submission;
  std::string answers;
};

Case RandomCase(SyntheticRng& rng) {
  const int n = 1 + static_cast<int>(rng.UniformInt(uint64_t{10}));
  const int classes = 1 + static_cast<int>(rng.UniformInt(uint64_t{5}));
  std::vector<int64_t> ids;
  while (static_cast<int>(ids.size()) < n) {
    const int64_t id = 265000 + static_cast<int64_t>(rng.UniformInt(uint64_t{50}));
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  }
  Case c;
  c.answers = "id,predicted\n";
  std::vector<int> truths;
  for (int64_t id : ids) {
    truths.push_back(static_cast<int>(rng.UniformInt(uint64_t(classes))));
    absl::StrAppend(&c.answers, id, ",", truths.back(), "\n");
  }
  const uint64_t mode = rng.UniformInt(uint64_t{16});
  c.submission = mode == 0 ? "id,label\n" : mode == 1 ? "Id,predicted\n" : "id,predicted\n";
  std::vector<size_t> order(ids.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  for (size_t i = order.size(); i > 1; --i) {
    std::swap(order[i - 1], order[rng.UniformInt(uint64_t{i})]);
  }
  for (size_t k = 0; k < order.size(); ++k) {
    const size_t i = order[k];
    if (mode == 2 && k == 0) continue;  // a missing row
    const int64_t id = mode == 3 && k == 0 ? ids[i] + 1000 : ids[i];
    const int guess = rng.UniformInt(uint64_t{2}) == 0
                          ? truths[i]
                          : static_cast<int>(rng.UniformInt(uint64_t(classes)));
    std::string predicted = absl::StrCat(guess);
    if (mode == 4) predicted = absl::StrCat(guess, " ", guess + 1, " 3");  // top-k lists
    if (mode == 5 && k == 0) predicted = "";                             // NaN -> float
    if (mode == 6 && k == 0) predicted = absl::StrCat(guess, ".0");      // a float column
    if (mode == 7 && k == 0) predicted = "x 1";
    if (mode == 8 && k == 0) predicted = "\" \"";                        // no first token
    if (mode == 9 && k == 0) predicted = absl::StrCat(" ", guess);        // text column
    if (mode == 10) predicted = absl::StrCat("0", guess, " 1");
    absl::StrAppend(&c.submission, id, ",", predicted, "\n");
  }
  if (mode == 11) absl::StrAppend(&c.submission, "1,1\n");  // an extra row
  return c;
}

TEST(INaturalistGradePythonDiffTest, MatchesUpstreamOnRandomSubmissions) {
  SyntheticRng rng(20190611);
  const fs::path dir = testing::NewTempDir("cases");
  std::vector<Case> cases;
  for (int i = 0; i < kCases; ++i) {
    cases.push_back(RandomCase(rng));
    ASSERT_TRUE(WriteStringToFile(dir / absl::StrCat(i, ".sub.csv"), cases.back().submission).ok());
    ASSERT_TRUE(WriteStringToFile(dir / absl::StrCat(i, ".ans.csv"), cases.back().answers).ok());
  }
  const testing::CommandResult run =
      testing::RunPythonFile(kScript, {dir.string(), absl::StrCat(kCases)});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::vector<std::string> lines = absl::StrSplit(run.output, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), static_cast<size_t>(kCases)) << run.output;
  int raised = 0;
  for (int i = 0; i < kCases; ++i) {
    const absl::StatusOr<double> ours =
        testing::GradeCsvText(kId, cases[i].submission, cases[i].answers);
    SCOPED_TRACE(absl::StrCat("case ", i, "\n", cases[i].submission, "--\n", cases[i].answers));
    if (lines[i] == "raise") {
      ++raised;
      EXPECT_TRUE(!ours.ok() && IsInvalidSubmission(ours.status())) << ours.status();
      continue;
    }
    ASSERT_TRUE(ours.ok()) << ours.status();
    double expected = 0;
    ASSERT_TRUE(absl::SimpleAtod(lines[i], &expected)) << lines[i];
    EXPECT_EQ(*ours, expected);
  }
  EXPECT_GT(raised, kCases / 5);
  EXPECT_LT(raised, kCases * 3 / 4);
}

}  // namespace
}  // namespace mlebench
