// Differential test: LabelRankingAveragePrecision against scikit-learn's
// label_ranking_average_precision_score on random indicator matrices and
// scores (many ties, some non-finite values), with and without sample
// weights, up to 100000 samples (see the .py script). We require the same
// raise/no-raise outcome, our value within 1e-9 relative, and in fact
// bit-identical values.

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/metrics/diff_test_text.h"
#include "grading/metrics/label_ranking_average_precision.h"
#include "grading/metrics/matrix_view.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using testing::ParseDouble;
using testing::Tokens;

constexpr char kScript[] = "grading/metrics/label_ranking_average_precision_sklearn_diff_test.py";

std::vector<double> Doubles(const std::vector<std::string>& tokens, size_t first) {
  std::vector<double> values;
  for (size_t i = first; i < tokens.size(); ++i) values.push_back(ParseDouble(tokens[i]));
  return values;
}

TEST(LabelRankingAveragePrecisionSklearnDiffTest, MatchesScikitLearnOnRandomInputs) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/lrap_cases.txt");
  // LRAP_DIFF_SEED (--test_env=LRAP_DIFF_SEED=7) explores other inputs.
  const char* seed = std::getenv("LRAP_DIFF_SEED");
  const std::string command =
      absl::StrCat("/usr/bin/python3 ", kScript, " ", cases_path, " ", seed == nullptr ? "" : seed);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  std::ifstream in(cases_path);
  ASSERT_TRUE(in) << cases_path;
  int scored = 0, raised = 0, identical = 0, failures = 0;
  std::string header;
  while (std::getline(in, header)) {
    const std::vector<std::string> h = Tokens(header);
    ASSERT_EQ(h.at(0), "case") << header;
    const size_t n = std::stoul(h.at(3)), m = std::stoul(h.at(4));
    std::string line;
    ASSERT_TRUE(std::getline(in, line));
    std::vector<double> truth;
    for (char c : line.substr(5)) truth.push_back(c == '1' ? 1.0 : 0.0);
    ASSERT_TRUE(std::getline(in, line));
    const std::vector<double> scores = Doubles(Tokens(line), 1);
    std::vector<double> weights;
    if (h.at(5) == "given") {
      ASSERT_TRUE(std::getline(in, line));
      weights = Doubles(Tokens(line), 2);
    }
    ASSERT_TRUE(std::getline(in, line));
    const absl::StatusOr<double> ours = LabelRankingAveragePrecision(
        MatrixView{truth, n, m}, MatrixView{scores, n, m}, weights);
    const std::vector<std::string> expect = Tokens(line);
    std::string problem;
    if (expect.at(0) == "ok") {
      ++scored;
      const double reference = ParseDouble(expect.at(1));
      if (!ours.ok()) {
        problem = absl::StrCat("sklearn returned ", reference, ", we failed: ",
                               ours.status().ToString());
      } else if (std::isnan(reference) || std::isnan(*ours)) {
        // All-zero weights: 0 / 0 in both.
        if (std::isnan(reference) != std::isnan(*ours)) {
          problem = absl::StrCat("ours ", *ours, " vs sklearn's ", reference);
        } else {
          ++identical;
        }
      } else if (!(std::fabs(*ours - reference) <= 1e-9 * std::max(1.0, std::fabs(reference)))) {
        problem = absl::StrCat("ours ", *ours, " vs sklearn's ", reference);
      } else {
        identical += *ours == reference;
      }
    } else {
      ++raised;
      if (ours.ok()) {
        problem = absl::StrCat("sklearn raised ", expect.at(1), " (",
                               expect.size() > 2 ? testing::Unhex(expect[2]) : "",
                               "), we returned ", *ours);
      } else if (ours.status().code() != absl::StatusCode::kInvalidArgument) {
        problem = absl::StrCat("wrong status code: ", ours.status().ToString());
      }
    }
    if (!problem.empty() && ++failures <= 25) ADD_FAILURE() << "case " << h.at(2) << ": " << problem;
  }
  std::cout << scored << " scored (" << identical << " bit-identical), " << raised << " raised, "
            << failures << " mismatches\n";
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(scored + raised, 800);
  EXPECT_GT(scored, 600);
  EXPECT_GT(raised, 30);
  EXPECT_EQ(identical, scored);
}

}  // namespace
}  // namespace mlebench
