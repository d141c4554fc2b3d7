// Differential test of the grader against a restatement of upstream's
// grade.py run by /usr/bin/python3 on many random submissions, valid and
// not (see grade_python_diff_test.py).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
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

constexpr char kId[] = "multi-modal-gesture-recognition";
constexpr char kScript[] =
    "competitions/multi-modal-gesture-recognition/grade_python_diff_test.py";
constexpr int kCases = 400;

std::vector<int> RandomSequence(SyntheticRng& rng, int max_length) {
  std::vector<int> sequence(1 + rng.UniformInt(uint64_t(max_length)));
  for (int& g : sequence) g = 1 + static_cast<int>(rng.UniformInt(uint64_t{20}));
  return sequence;
}

// A token for gesture `g`, sometimes in another spelling int() accepts.
std::string Token(SyntheticRng& rng, int g) {
  switch (rng.UniformInt(uint64_t{12})) {
    case 0: return absl::StrCat("0", g);
    case 1: return absl::StrCat("+", g);
    default: return absl::StrCat(g);
  }
}

struct Case {
  std::string submission;
  std::string answers;
};

Case RandomCase(SyntheticRng& rng) {
  const int n = 1 + static_cast<int>(rng.UniformInt(uint64_t{8}));
  std::vector<int> ids;
  while (static_cast<int>(ids.size()) < n) {
    const int id = static_cast<int>(rng.UniformInt(uint64_t{40}));
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  }
  Case c;
  c.answers = "Id,Sequence\n";
  std::vector<std::vector<int>> truths;
  for (int id : ids) {
    truths.push_back(RandomSequence(rng, 8));
    absl::StrAppendFormat(&c.answers, "%04d,%s\n", id, absl::StrJoin(truths.back(), " "));
  }
  const uint64_t mode = rng.UniformInt(uint64_t{20});
  c.submission = mode == 0 ? "Id,Seq\n" : mode == 1 ? "Video,Sequence\n" : "Id,Sequence\n";
  std::vector<size_t> order(ids.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.UniformInt(uint64_t{i})]);
  for (size_t k = 0; k < order.size(); ++k) {
    const size_t i = order[k];
    if (mode == 2 && k == 0) continue;  // a missing row
    std::string id = absl::StrFormat("%d", ids[i]);
    if (mode == 3 && k == 0) id = absl::StrCat(ids[i] + 100);  // an unknown id
    std::vector<int> prediction = rng.UniformInt(uint64_t{4}) == 0 ? truths[i]
                                                                    : RandomSequence(rng, 10);
    std::vector<std::string> tokens;
    for (int g : prediction) tokens.push_back(Token(rng, g));
    std::string sequence = absl::StrJoin(tokens, rng.UniformInt(uint64_t{10}) == 0 ? "  " : " ");
    if (mode == 4 && k == 0) sequence = "";                 // NaN -> "nan"
    if (mode == 5 && k == 0) sequence = "3.0";              // not an int
    if (mode == 7) sequence = absl::StrCat(prediction[0]);  // an int column
    if (mode == 8 && k == 0) sequence = "x";
    if (mode == 6 && k == 0) sequence = "\"1,2\"";
    absl::StrAppend(&c.submission, id, ",", sequence, "\n");
  }
  if (mode == 9) absl::StrAppend(&c.submission, "999,1\n");  // an extra row
  return c;
}

TEST(GestureGradePythonDiffTest, MatchesUpstreamOnRandomSubmissions) {
  SyntheticRng rng(20240611);
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
    EXPECT_NEAR(*ours, expected, 1e-12 * std::max(1.0, std::abs(expected)));
  }
  // Both outcomes are exercised.
  EXPECT_GT(raised, kCases / 5);
  EXPECT_LT(raised, kCases * 3 / 4);
}

}  // namespace
}  // namespace mlebench
