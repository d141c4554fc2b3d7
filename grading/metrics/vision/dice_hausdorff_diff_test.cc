// Differential test: NormalizedHausdorffDistance and DiceHausdorffScore
// against a numpy/scipy restatement of the UW-Madison GI tract grader (see
// the script): 1500 random 3-D mask pairs (empty on either side, equal,
// nearly equal, different shapes, up to 12x40x40) and 400 random
// submissions (shuffled, truncated, extended, bad RLEs, renamed ids) graded
// against random answers. Results must be bit-identical, errors must agree.

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/test_util.h"
#include "grading/metrics/vision/dice_hausdorff.h"
#include "grading/metrics/vision/run_length_encoding.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr char kScript[] = "grading/metrics/vision/dice_hausdorff_diff_test.py";

std::string Unhex(const std::string& token) {
  return testing::Unhex(std::string_view(token).substr(1));
}

// A volume from '0'/'1' voxels in C order.
MaskVolume VolumeOf(int64_t slices, int64_t height, int64_t width, const std::string& voxels) {
  MaskVolume volume{height, width, {}};
  for (int64_t s = 0; s < slices; ++s) {
    std::vector<uint8_t> pixels(height * width);
    for (int64_t i = 0; i < height * width; ++i) pixels[i] = voxels[s * height * width + i] == '1';
    const std::string rle = *EncodeRle(pixels, height, width, PixelOrder::kColumnMajor);
    volume.slices.push_back(*DecodeRle(rle, height * width));
  }
  return volume;
}

bool SameDouble(double ours, const std::string& expected) {
  if (expected == "nan") return std::isnan(ours);
  return ours == testing::ParseDouble(expected);
}

TEST(DiceHausdorffDiffTest, MatchesNumpyScipyRestatementOfUpstream) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/dice_hausdorff_cases.txt");
  // DICE_HAUSDORFF_DIFF_SEED (--test_env=DICE_HAUSDORFF_DIFF_SEED=7) explores other inputs.
  const char* seed = std::getenv("DICE_HAUSDORFF_DIFF_SEED");
  const std::string command =
      absl::StrCat(testing::ReferencePython(), " ", kScript, " ", cases_path, " ", seed == nullptr ? "" : seed);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  std::ifstream in(cases_path);
  ASSERT_TRUE(in) << cases_path;
  int volumes = 0, partial_distances = 0, grades = 0, errors = 0, failures = 0;
  std::string line;
  while (std::getline(in, line)) {
    const std::vector<std::string> tokens = testing::Tokens(line);
    ASSERT_GE(tokens.size(), 4u) << line;
    if (tokens[0] == "v") {
      ASSERT_EQ(tokens.size(), 10u) << line;
      ++volumes;
      const MaskVolume predicted = VolumeOf(std::stoll(tokens[1]), std::stoll(tokens[2]),
                                            std::stoll(tokens[3]), Unhex(tokens[7]));
      const MaskVolume truth = VolumeOf(std::stoll(tokens[4]), std::stoll(tokens[5]),
                                        std::stoll(tokens[6]), Unhex(tokens[8]));
      const double ours = NormalizedHausdorffDistance(predicted, truth);
      if (tokens[9] != "nan" && tokens[9] != "0.0" && tokens[9] != "1.0") ++partial_distances;
      if (!SameDouble(ours, tokens[9]) && ++failures <= 10) {
        ADD_FAILURE() << "volume pair " << volumes << ": ours " << ours << ", scipy " << tokens[9];
      }
      continue;
    }
    ASSERT_EQ(tokens[0], "g") << line;
    ++grades;
    const size_t answer_rows = std::stoul(tokens[1]), submission_rows = std::stoul(tokens[2]);
    ASSERT_EQ(tokens.size(), 4 + 4 * answer_rows + 2 * submission_rows) << line;
    std::vector<std::string> answer_ids, answer_rles, submission_ids, submission_rles;
    std::vector<int64_t> heights, widths;
    size_t t = 3;
    for (size_t i = 0; i < answer_rows; ++i, t += 4) {
      answer_ids.push_back(Unhex(tokens[t]));
      answer_rles.push_back(Unhex(tokens[t + 1]));
      heights.push_back(std::stoll(tokens[t + 2]));
      widths.push_back(std::stoll(tokens[t + 3]));
    }
    for (size_t i = 0; i < submission_rows; ++i, t += 2) {
      submission_ids.push_back(Unhex(tokens[t]));
      submission_rles.push_back(Unhex(tokens[t + 1]));
    }
    const absl::StatusOr<double> ours = DiceHausdorffScore(
        submission_ids, submission_rles, answer_ids, answer_rles, heights, widths);
    const std::string& expected = tokens.back();
    if (expected == "err") {
      ++errors;
      if (ours.ok() && ++failures <= 10) ADD_FAILURE() << "grade " << grades << ": accepted";
    } else if (!ours.ok()) {
      if (++failures <= 10) ADD_FAILURE() << "grade " << grades << ": " << ours.status();
    } else if (!SameDouble(*ours, expected) && ++failures <= 10) {
      ADD_FAILURE() << "grade " << grades << ": ours " << *ours << ", numpy " << expected;
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GE(volumes, 1500);
  EXPECT_GE(partial_distances, 300);
  EXPECT_GE(grades, 400);
  EXPECT_GE(errors, 40);
}

}  // namespace
}  // namespace mlebench
