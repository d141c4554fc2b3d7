// Differential test: MeanAbsoluteError against scikit-learn's
// mean_absolute_error on random columns of every dtype a CSV column can have
// (sizes 1 to 100000; see mean_absolute_error_sklearn_diff_test.py). We
// require the same raise/no-raise outcome and message, and our value within
// 1e-9 relative of sklearn's; we also count bit-identical values, which we
// expect for all of them (NumpyMean reproduces numpy's summation order).

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/metrics/diff_test_column.h"
#include "grading/metrics/diff_test_text.h"
#include "grading/metrics/mean_absolute_error.h"
#include "grading/table.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using testing::ParseDouble;
using testing::Tokens;
using testing::Unhex;

constexpr char kScript[] = "grading/metrics/mean_absolute_error_sklearn_diff_test.py";
constexpr double kRelativeTolerance = 1e-9;

bool Close(double ours, double theirs) {
  if (std::isinf(theirs) || std::isnan(theirs)) return ours == theirs || (ours != ours && theirs != theirs);
  return std::fabs(ours - theirs) <= kRelativeTolerance * std::max(1.0, std::fabs(theirs));
}

TEST(MeanAbsoluteErrorSklearnDiffTest, MatchesScikitLearnOnRandomInputs) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/mae_cases.txt");
  // MAE_DIFF_SEED (--test_env=MAE_DIFF_SEED=7) explores other inputs.
  const char* seed = std::getenv("MAE_DIFF_SEED");
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
    ASSERT_EQ(block.size(), 4u);
    const std::string label = absl::StrCat("case ", Tokens(block[0]).at(2));
    const absl::StatusOr<double> ours =
        MeanAbsoluteError(testing::ParseColumnLine(block[1]), testing::ParseColumnLine(block[2]));
    const std::vector<std::string> expect = Tokens(line);
    std::string problem;
    if (expect[0] == "ok") {
      ++scored;
      const double reference = ParseDouble(expect.at(1));
      if (!ours.ok()) {
        problem = absl::StrCat("sklearn returned ", reference, ", we failed: ",
                               ours.status().ToString());
      } else if (!Close(*ours, reference)) {
        problem = absl::StrCat("ours ", *ours, " vs sklearn's ", reference);
      } else {
        identical += *ours == reference || (std::isnan(*ours) && std::isnan(reference));
      }
    } else {
      ++raised;
      const std::string message = expect.size() > 2 ? Unhex(expect[2]) : "";
      if (ours.ok()) {
        problem = absl::StrCat("sklearn raised ", expect.at(1), "(", message, "), we returned ",
                               *ours);
      } else if (ours.status().code() != absl::StatusCode::kInvalidArgument) {
        problem = absl::StrCat("wrong status code: ", ours.status().ToString());
      } else if (ours.status().message() != message) {
        problem = absl::StrCat("message differs: sklearn \"", message, "\", ours \"",
                               std::string(ours.status().message()), "\"");
      }
    }
    if (!problem.empty() && ++failures <= 25) ADD_FAILURE() << label << ": " << problem;
    block.clear();
  }
  std::cout << scored << " scored (" << identical << " bit-identical), " << raised
            << " raised, " << failures << " mismatches\n";
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(scored + raised, 1500);
  EXPECT_GT(scored, 500);
  EXPECT_GT(raised, 200);
  EXPECT_EQ(identical, scored);
}

}  // namespace
}  // namespace mlebench
