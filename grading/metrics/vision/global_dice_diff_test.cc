// Differential test: GlobalDiceCoefficient against a numpy restatement of
// upstream's contrails grader (masks stacked, ravelled, dice_coefficient with
// its NaN default) on 500 random sets of 0..13 mask pairs of up to 1e4
// pixels each.

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/test_util.h"
#include "grading/metrics/vision/dice.h"
#include "grading/metrics/vision/run_length_encoding.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr char kScript[] = "grading/metrics/vision/global_dice_diff_test.py";

TEST(GlobalDiceDiffTest, MatchesNumpyRestatementOfUpstream) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/global_dice_cases.txt");
  // GLOBAL_DICE_DIFF_SEED (--test_env=GLOBAL_DICE_DIFF_SEED=7) explores other inputs.
  const char* seed = std::getenv("GLOBAL_DICE_DIFF_SEED");
  const std::string command =
      absl::StrCat(testing::ReferencePython(), " ", kScript, " ", cases_path, " ", seed == nullptr ? "" : seed);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  std::ifstream in(cases_path);
  ASSERT_TRUE(in) << cases_path;
  int cases = 0, nan_cases = 0, failures = 0;
  std::string line;
  while (std::getline(in, line)) {
    const std::vector<std::string> tokens = testing::Tokens(line);
    ASSERT_GE(tokens.size(), 4u) << line;
    ASSERT_EQ(tokens[0], "g");
    const int64_t pixel_count = std::stoll(tokens[1]);
    const size_t count = std::stoul(tokens[2]);
    ASSERT_EQ(tokens.size(), 4 + 2 * count) << line;
    std::vector<PixelRuns> truth, predicted;
    for (size_t i = 0; i < count; ++i) {
      absl::StatusOr<PixelRuns> t =
          DecodeRle(testing::Unhex(std::string_view(tokens[3 + 2 * i]).substr(1)), pixel_count);
      absl::StatusOr<PixelRuns> p =
          DecodeRle(testing::Unhex(std::string_view(tokens[4 + 2 * i]).substr(1)), pixel_count);
      ASSERT_TRUE(t.ok() && p.ok()) << line;
      truth.push_back(*t);
      predicted.push_back(*p);
    }
    ++cases;
    const double ours =
        *GlobalDiceCoefficient(predicted, truth, std::numeric_limits<double>::quiet_NaN());
    const std::string& expected = tokens.back();
    if (expected == "nan") {
      ++nan_cases;
      if (!std::isnan(ours) && ++failures <= 10) ADD_FAILURE() << "case " << cases << ": " << ours;
    } else if (ours != testing::ParseDouble(expected) && ++failures <= 10) {
      // An exact quotient of the same integers: bit-identical.
      ADD_FAILURE() << "case " << cases << ": ours " << ours << ", numpy " << expected;
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GE(cases, 500);
  EXPECT_GE(nan_cases, 10);
}

}  // namespace
}  // namespace mlebench
