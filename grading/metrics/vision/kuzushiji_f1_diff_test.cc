// Differential test: KuzushijiF1 against a numpy restatement of upstream's
// kuzushiji_metric.py on random pages (boxes near and far from the points,
// wrong labels, missing pages, malformed strings and Python float()
// spellings such as "1_0", "nan" or full-width digits). Scores must agree
// exactly (they are ratios of the same counts), and so must raising.

#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/test_util.h"
#include "grading/metrics/vision/kuzushiji_f1.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr char kScript[] = "grading/metrics/vision/kuzushiji_f1_diff_test.py";

std::optional<std::string> Decode(const std::string& token) {
  if (token == "-") return std::nullopt;
  return testing::Unhex(token.substr(1));
}

TEST(KuzushijiF1DiffTest, MatchesUpstreamOnRandomPages) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/kuzushiji_cases.txt");
  const std::string command = absl::StrCat(testing::ReferencePython(), " ", kScript, " ", cases_path);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream in(cases_path);
  ASSERT_TRUE(in);
  std::string line;
  int cases = 0, raised = 0, positive = 0;
  while (std::getline(in, line)) {
    ASSERT_EQ(line.rfind("case ", 0), 0u) << line;
    const int n = std::stoi(line.substr(5));
    std::vector<std::optional<std::string>> preds, truths;
    for (int i = 0; i < n; ++i) {
      ASSERT_TRUE(std::getline(in, line));
      const std::vector<std::string> tokens = testing::Tokens(line);
      ASSERT_EQ(tokens.size(), 2u) << line;
      preds.push_back(Decode(tokens[0]));
      truths.push_back(Decode(tokens[1]));
    }
    ASSERT_TRUE(std::getline(in, line));
    absl::StatusOr<double> ours = KuzushijiF1(preds, truths);
    if (line == "raise") {
      EXPECT_FALSE(ours.ok()) << "case " << cases;
      ++raised;
    } else {
      ASSERT_TRUE(ours.ok()) << "case " << cases << ": " << ours.status();
      const double reference = testing::ParseDouble(testing::Tokens(line).at(1));
      EXPECT_EQ(*ours, reference) << "case " << cases;
      positive += reference > 0;
    }
    ++cases;
  }
  EXPECT_EQ(cases, 404);
  EXPECT_GT(raised, 10);
  EXPECT_GT(positive, 100);
}

}  // namespace
}  // namespace mlebench
