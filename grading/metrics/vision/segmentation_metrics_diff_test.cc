// Differential test: DecodeRle, DiceCoefficient and IouThresholdPrecision
// against a numpy restatement of upstream's rle_decode, dice_coefficient and
// the TGS grader's iou_metric (see the script): 3000 random RLE strings
// (valid, malformed, clipped, overlapping, odd, Python int spellings and
// whitespace) and 400 mask pairs of up to 1e5 pixels.

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/test_util.h"
#include "grading/metrics/vision/dice.h"
#include "grading/metrics/vision/iou_threshold_precision.h"
#include "grading/metrics/vision/run_length_encoding.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr char kScript[] = "grading/metrics/vision/segmentation_metrics_diff_test.py";

std::string Unhex(const std::string& token) {
  return testing::Unhex(std::string_view(token).substr(1));
}

// The runs as flat boundaries, adjacent runs merged, as the script prints.
std::vector<int64_t> Boundaries(const PixelRuns& mask) {
  std::vector<int64_t> out;
  for (const auto& [begin, end] : mask.runs) {
    if (!out.empty() && out.back() == begin) {
      out.back() = end;
    } else {
      out.push_back(begin);
      out.push_back(end);
    }
  }
  return out;
}

TEST(SegmentationMetricsDiffTest, MatchesNumpyRestatementOfUpstream) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/segmentation_cases.txt");
  // SEGMENTATION_DIFF_SEED (--test_env=SEGMENTATION_DIFF_SEED=7) explores other inputs.
  const char* seed = std::getenv("SEGMENTATION_DIFF_SEED");
  const std::string command =
      absl::StrCat(testing::ReferencePython(), " ", kScript, " ", cases_path, " ", seed == nullptr ? "" : seed);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  std::ifstream in(cases_path);
  ASSERT_TRUE(in) << cases_path;
  int decodes = 0, rejected = 0, pairs = 0, large_pairs = 0, failures = 0;
  std::string line;
  while (std::getline(in, line)) {
    const std::vector<std::string> tokens = testing::Tokens(line);
    ASSERT_GE(tokens.size(), 4u) << line;
    const int64_t pixel_count = std::stoll(tokens[1]);
    if (tokens[0] == "d") {
      ++decodes;
      const std::string rle = Unhex(tokens[2]);
      absl::StatusOr<PixelRuns> ours = DecodeRle(rle, pixel_count);
      if (tokens[3] == "err") {
        ++rejected;
        if (ours.ok() && ++failures <= 10) ADD_FAILURE() << "accepted '" << rle << "'";
        continue;
      }
      std::vector<int64_t> expected;
      for (size_t i = 4; i < tokens.size(); ++i) expected.push_back(std::stoll(tokens[i]));
      if (!ours.ok()) {
        if (++failures <= 10) ADD_FAILURE() << "rejected '" << rle << "': " << ours.status();
      } else if (Boundaries(*ours) != expected && ++failures <= 10) {
        ADD_FAILURE() << "decoded '" << rle << "' differently";
      }
    } else {
      ASSERT_EQ(tokens[0], "p");
      ASSERT_EQ(tokens.size(), 6u) << line;
      ++pairs;
      if (pixel_count > 10000) ++large_pairs;
      absl::StatusOr<PixelRuns> truth = DecodeRle(Unhex(tokens[2]), pixel_count);
      absl::StatusOr<PixelRuns> predicted = DecodeRle(Unhex(tokens[3]), pixel_count);
      ASSERT_TRUE(truth.ok() && predicted.ok()) << line;
      const double dice = *DiceCoefficient(*predicted, *truth, /*both_empty_value=*/1.0);
      const double iou = *IouThresholdPrecision(*truth, *predicted);
      // Both are exact quotients of the same integers: bit-identical.
      if ((dice != testing::ParseDouble(tokens[4]) || iou != testing::ParseDouble(tokens[5])) &&
          ++failures <= 10) {
        ADD_FAILURE() << "pair " << pairs << " (" << pixel_count << " pixels): ours " << dice << " "
                      << iou << ", numpy " << tokens[4] << " " << tokens[5];
      }
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GE(decodes, 3000);
  EXPECT_GE(rejected, 200);
  EXPECT_GE(pairs, 400);
  EXPECT_GE(large_pairs, 50);
}

}  // namespace
}  // namespace mlebench
