// Differential test: LaplaceLogLikelihood against a numpy restatement of
// upstream's laplace_log_likelihood (laplace_log_likelihood_diff_test.py) on
// random arrays of sizes 0 to 100000, with NaN, infinities, negative and
// tiny confidences, and lengths that broadcast or do not. We require the same
// raise/no-raise outcome and message, and values within 1e-9 relative (NaN
// and infinities equal); bit-identical values are counted and reported
// (numpy's vectorised log may differ from libm's in the last bit).

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/metrics/diff_test_text.h"
#include "grading/metrics/laplace_log_likelihood.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using testing::ParseDouble;
using testing::Tokens;
using testing::Unhex;

constexpr char kScript[] = "grading/metrics/laplace_log_likelihood_diff_test.py";

std::vector<double> ParseArray(const std::string& line) {
  const std::vector<std::string> t = Tokens(line);
  std::vector<double> values;
  for (size_t i = 2; i < t.size(); ++i) values.push_back(ParseDouble(t[i]));
  EXPECT_EQ(values.size(), std::stoul(t.at(1)));
  return values;
}

bool Close(double ours, double theirs) {
  if (std::isnan(theirs)) return std::isnan(ours);
  if (std::isinf(theirs)) return ours == theirs;
  return std::fabs(ours - theirs) <= 1e-9 * std::max(1.0, std::fabs(theirs));
}

TEST(LaplaceLogLikelihoodDiffTest, MatchesNumpyOnRandomInputs) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/laplace_cases.txt");
  // LAPLACE_DIFF_SEED (--test_env=LAPLACE_DIFF_SEED=7) explores other inputs.
  const char* seed = std::getenv("LAPLACE_DIFF_SEED");
  const std::string command =
      absl::StrCat("/usr/bin/python3 ", kScript, " ", cases_path, " ", seed == nullptr ? "" : seed);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  std::ifstream in(cases_path);
  ASSERT_TRUE(in) << cases_path;
  std::vector<std::string> block;
  int scored = 0, raised = 0, identical = 0, failures = 0;
  std::string line;
  while (std::getline(in, line)) {
    block.push_back(line);
    if (line.rfind("ok ", 0) != 0 && line.rfind("raise ", 0) != 0) continue;
    ASSERT_EQ(block.size(), 5u);
    const absl::StatusOr<double> ours =
        LaplaceLogLikelihood(ParseArray(block[1]), ParseArray(block[2]), ParseArray(block[3]));
    const std::vector<std::string> expect = Tokens(line);
    std::string problem;
    if (expect[0] == "ok") {
      ++scored;
      const double reference = ParseDouble(expect.at(1));
      if (!ours.ok()) {
        problem = absl::StrCat("numpy returned ", reference, ", we failed: ",
                               ours.status().ToString());
      } else if (!Close(*ours, reference)) {
        problem = absl::StrCat("ours ", *ours, " vs numpy's ", reference);
      } else {
        identical += *ours == reference || (std::isnan(*ours) && std::isnan(reference));
      }
    } else {
      ++raised;
      const std::string message = expect.size() > 2 ? Unhex(expect[2]) : "";
      if (ours.ok()) {
        problem = absl::StrCat("numpy raised ", message, ", we returned ", *ours);
      } else if (std::string(ours.status().message()) != message) {
        problem = absl::StrCat("message differs: numpy \"", message, "\", ours \"",
                               std::string(ours.status().message()), "\"");
      }
    }
    if (!problem.empty() && ++failures <= 25) ADD_FAILURE() << block[0] << ": " << problem;
    block.clear();
  }
  std::cout << scored << " scored (" << identical << " bit-identical), " << raised
            << " raised, " << failures << " mismatches\n";
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(scored + raised, 1500);
  EXPECT_GT(scored, 1000);
  EXPECT_GT(raised, 20);
}

}  // namespace
}  // namespace mlebench
