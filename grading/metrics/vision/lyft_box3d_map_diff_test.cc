// Differential test: ParseLyftPredictionString + LyftMeanAveragePrecision
// against lyft_box3d_map_diff_test.py, a restatement of upstream's parse_row
// and Lyft's mAP_evaluation.py on the real pyquaternion 0.9.9, shapely 2.0.6
// and numpy 1.26.4 of the reference environment, on random samples: boxes
// jittered around the answer boxes (IoUs over all of 0..1), exact copies,
// tied scores, several classes incl. ones on one side only, empty rows, and
// rows with malformed tokens or invalid boxes. Scores must agree to 1e-9
// relative (NaN with NaN) and raising must agree.

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/test_util.h"
#include "grading/metrics/vision/lyft_box3d_map.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr char kScript[] = "grading/metrics/vision/lyft_box3d_map_diff_test.py";

// The row text of a "h<hex>" token.
std::string RowText(const std::string& token) { return testing::Unhex(token.substr(1)); }

absl::StatusOr<double> Grade(const std::vector<std::pair<std::string, std::string>>& rows) {
  std::vector<LyftSample> samples;
  for (const auto& [answer, submission] : rows) {
    ASSIGN_OR_RETURN(std::vector<LyftBox> truths, ParseLyftPredictionString(answer));
    ASSIGN_OR_RETURN(std::vector<LyftBox> predictions, ParseLyftPredictionString(submission));
    samples.push_back(LyftSample{std::move(truths), std::move(predictions)});
  }
  return LyftMeanAveragePrecision(samples);
}

TEST(LyftBox3dMapDiffTest, MatchesUpstreamRestatement) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/lyft_cases.txt");
  const std::string command = absl::StrCat(testing::ReferencePython(), " ", kScript, " ", cases_path);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream in(cases_path);
  ASSERT_TRUE(in);
  std::string line;
  int cases = 0, raised = 0, nan = 0, fractional = 0;
  while (std::getline(in, line)) {
    const std::vector<std::string> head = testing::Tokens(line);
    ASSERT_EQ(head.size(), 2u) << line;
    ASSERT_EQ(head[0], "case");
    const int n = std::stoi(head[1]);
    std::vector<std::pair<std::string, std::string>> rows;
    for (int s = 0; s < n; ++s) {
      ASSERT_TRUE(std::getline(in, line));
      const std::vector<std::string> t = testing::Tokens(line);
      ASSERT_EQ(t.size(), 2u) << line;
      rows.emplace_back(RowText(t[0]), RowText(t[1]));
    }
    ASSERT_TRUE(std::getline(in, line));
    const std::string what =
        absl::StrCat("case ", cases, " (", rows[0].first, " | ", rows[0].second, ")");
    const absl::StatusOr<double> ours = Grade(rows);
    if (line == "raise") {
      EXPECT_FALSE(ours.ok()) << what << ": ours " << *ours;
      ++raised;
    } else {
      ASSERT_TRUE(ours.ok()) << what << ": " << ours.status();
      const double reference = testing::ParseDouble(line);
      if (std::isnan(reference)) {
        EXPECT_TRUE(std::isnan(*ours)) << what << ": ours " << *ours;
        ++nan;
      } else {
        EXPECT_NEAR(*ours, reference, 1e-9 * std::max(1.0, std::fabs(reference))) << what;
        fractional += reference > 0 && reference < 1;
      }
    }
    ++cases;
  }
  EXPECT_EQ(cases, 600);
  EXPECT_GT(raised, 30);
  EXPECT_GT(nan, 10);
  EXPECT_GT(fractional, 200);
}

}  // namespace
}  // namespace mlebench
