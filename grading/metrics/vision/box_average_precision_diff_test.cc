// Differential test: GreedyBoxMeanAveragePrecision and
// CocoBoxAveragePrecision against a numpy restatement of upstream's siim
// calculate_map (with sklearn >= 1.5's average_precision_score) and against
// pycocotools 2.0.8's COCOeval called as vinbigdata's grader calls it, on random box
// sets: tied scores, empty predictions, labels/categories absent from the
// ground truth, boxes with negative extent, NaN/inf scores, >100 detections.
// Scores must agree to 1e-12 relative and raising must agree.

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/test_util.h"
#include "grading/metrics/vision/box_average_precision.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr char kScript[] = "grading/metrics/vision/box_average_precision_diff_test.py";

void ExpectClose(double ours, double reference, const std::string& what) {
  EXPECT_NEAR(ours, reference, 1e-12 * std::max(1.0, std::fabs(reference))) << what;
}

TEST(BoxAveragePrecisionDiffTest, MatchesUpstreamRestatements) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/box_ap_cases.txt");
  const std::string command = absl::StrCat(testing::ReferencePython(), " ", kScript, " ", cases_path);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream in(cases_path);
  ASSERT_TRUE(in);
  std::string line;
  int greedy_cases = 0, greedy_raised = 0, greedy_positive = 0;
  int coco_cases = 0, coco_positive = 0;
  while (std::getline(in, line)) {
    const std::vector<std::string> head = testing::Tokens(line);
    ASSERT_FALSE(head.empty());
    if (head[0] == "greedy") {
      const std::string what = absl::StrCat("greedy case ", greedy_cases);
      const int n = std::stoi(head.at(1));
      const double threshold = testing::ParseDouble(head.at(2));
      std::vector<std::vector<LabeledBox>> preds(n), truths(n);
      for (int s = 0; s < n; ++s) {
        ASSERT_TRUE(std::getline(in, line));
        const std::vector<std::string> counts = testing::Tokens(line);
        ASSERT_EQ(counts.at(0), "sample");
        const int np = std::stoi(counts.at(1)), nt = std::stoi(counts.at(2));
        for (int i = 0; i < np + nt; ++i) {
          ASSERT_TRUE(std::getline(in, line));
          const std::vector<std::string> t = testing::Tokens(line);
          ASSERT_EQ(t.size(), 6u) << line;
          LabeledBox box{t[0], testing::ParseDouble(t[1]),
                         CornerBox{testing::ParseDouble(t[2]), testing::ParseDouble(t[3]),
                                   testing::ParseDouble(t[4]), testing::ParseDouble(t[5])}};
          (i < np ? preds[s] : truths[s]).push_back(box);
        }
      }
      ASSERT_TRUE(std::getline(in, line));
      absl::StatusOr<double> ours = GreedyBoxMeanAveragePrecision(preds, truths, threshold);
      if (line == "raise") {
        EXPECT_FALSE(ours.ok()) << what;
        ++greedy_raised;
      } else {
        ASSERT_TRUE(ours.ok()) << what << ": " << ours.status();
        const double reference = testing::ParseDouble(line);
        ExpectClose(*ours, reference, what);
        greedy_positive += reference > 0;
      }
      ++greedy_cases;
    } else {
      ASSERT_EQ(head[0], "coco") << line;
      const std::string what = absl::StrCat("coco case ", coco_cases);
      const int64_t num_images = std::stoll(head.at(1));
      const int nt = std::stoi(head.at(2)), nd = std::stoi(head.at(3));
      const double threshold = testing::ParseDouble(head.at(4));
      std::vector<CocoBox> truths, dets;
      for (int i = 0; i < nt + nd; ++i) {
        ASSERT_TRUE(std::getline(in, line));
        const std::vector<std::string> t = testing::Tokens(line);
        ASSERT_EQ(t.size(), 8u) << line;
        CocoBox box;
        box.image = std::stoll(t[0]);
        box.category = std::stoll(t[1]);
        for (int c = 0; c < 4; ++c) box.bbox[c] = testing::ParseDouble(t[2 + c]);
        box.area = testing::ParseDouble(t[6]);
        box.score = testing::ParseDouble(t[7]);
        (i < nt ? truths : dets).push_back(box);
      }
      ASSERT_TRUE(std::getline(in, line));
      absl::StatusOr<double> ours = CocoBoxAveragePrecision(num_images, truths, dets, threshold);
      ASSERT_TRUE(ours.ok()) << what << ": " << ours.status();
      const double reference = testing::ParseDouble(line);
      ExpectClose(*ours, reference, what);
      coco_positive += reference > 0;
      ++coco_cases;
    }
  }
  EXPECT_EQ(greedy_cases, 300);
  EXPECT_EQ(coco_cases, 300);
  EXPECT_GT(greedy_raised, 10);
  EXPECT_GT(greedy_positive, 100);
  EXPECT_GT(coco_positive, 100);
}

}  // namespace
}  // namespace mlebench
