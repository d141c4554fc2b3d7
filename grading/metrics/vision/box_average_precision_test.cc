#include "grading/metrics/vision/box_average_precision.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

TEST(BinaryAveragePrecisionTest, SklearnDocumentationExample) {
  absl::StatusOr<double> ap = BinaryAveragePrecision({0, 0, 1, 1}, {0.1, 0.4, 0.35, 0.8});
  ASSERT_TRUE(ap.ok());
  EXPECT_DOUBLE_EQ(*ap, 0.8333333333333333);
}

TEST(BinaryAveragePrecisionTest, TiedScoresFormOneThreshold) {
  // One threshold holding one positive and one negative: precision 1/2.
  absl::StatusOr<double> ap = BinaryAveragePrecision({1, 0}, {0.5, 0.5});
  ASSERT_TRUE(ap.ok());
  EXPECT_DOUBLE_EQ(*ap, 0.5);
}

TEST(BinaryAveragePrecisionTest, RejectsWhatSklearnRejects) {
  EXPECT_FALSE(BinaryAveragePrecision({0, 1}, {0.5}).ok());
  EXPECT_FALSE(BinaryAveragePrecision({0, 2}, {0.5, 0.1}).ok());
  EXPECT_FALSE(BinaryAveragePrecision({0, 1}, {std::nan(""), 0.1}).ok());
  EXPECT_FALSE(BinaryAveragePrecision({0, 1}, {std::numeric_limits<double>::infinity(), 0.1}).ok());
  EXPECT_FALSE(BinaryAveragePrecision({0, 0}, {0.3, 0.1}).ok());
}

TEST(CornerBoxIouTest, Cases) {
  EXPECT_DOUBLE_EQ(CornerBoxIou({0, 0, 2, 2}, {0, 0, 2, 2}), 1.0);
  EXPECT_DOUBLE_EQ(CornerBoxIou({0, 0, 2, 2}, {1, 0, 3, 2}), 1.0 / 3);
  EXPECT_EQ(CornerBoxIou({0, 0, 1, 1}, {5, 5, 6, 6}), 0.0);
  EXPECT_EQ(CornerBoxIou({0, 0, 0, 0}, {0, 0, 0, 0}), 0.0);  // union 0
}

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

LabeledBox Box(const char* label, double confidence, double x0, double y0, double x1, double y1) {
  return LabeledBox{label, confidence, CornerBox{x0, y0, x1, y1}};
}

TEST(GreedyBoxMeanAveragePrecisionTest, PerfectAcrossSamples) {
  // Sample 1 has no "opacity" box, so that label gets a (0, 0) pair and is
  // not all-positive; "none" likewise from sample 0.
  const std::vector<std::vector<LabeledBox>> truths = {{Box("opacity", 1, 0, 0, 10, 10)},
                                                       {Box("none", 1, 0, 0, 1, 1)}};
  const std::vector<std::vector<LabeledBox>> preds = {{Box("opacity", 0.9, 0, 0, 10, 10)},
                                                      {Box("none", 1, 0, 0, 1, 1)}};
  absl::StatusOr<double> map = GreedyBoxMeanAveragePrecision(preds, truths, 0.5);
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_DOUBLE_EQ(*map, 1.0);
}

// Graders pass the sample pairs in file order, upstream in sorted-id order:
// the same bits in any order, with ties of confidence across samples, NaN
// confidences (re-sorted for every label) and samples with nothing to yield.
TEST(GreedyBoxMeanAveragePrecisionTest, TheOrderOfTheSamplesDoesNotMatter) {
  std::mt19937_64 random(7);
  const char* labels[] = {"opacity", "none", "typical"};
  std::vector<std::vector<LabeledBox>> preds(300), truths(300);
  for (size_t s = 0; s < preds.size(); ++s) {
    for (size_t b = random() % 4; b > 0; --b) {
      const double x = static_cast<double>(random() % 50);
      truths[s].push_back(Box(labels[random() % 3], 1, x, x, x + 10, x + 10));
    }
    for (size_t b = random() % 5; b > 0; --b) {
      const double x = static_cast<double>(random() % 50);
      const double confidence = random() % 10 == 0 ? kNan : static_cast<double>(random() % 8) / 8;
      // NaN only on "none", which no truth below carries: it must not raise.
      const char* label = std::isnan(confidence) ? "none" : labels[random() % 2 == 0 ? 0 : 2];
      preds[s].push_back(Box(label, confidence, x + 1, x, x + 11, x + 10));
    }
    std::erase_if(truths[s], [](const LabeledBox& box) { return box.label == "none"; });
  }
  const absl::StatusOr<double> in_order = GreedyBoxMeanAveragePrecision(preds, truths, 0.5);
  ASSERT_TRUE(in_order.ok()) << in_order.status();
  std::vector<size_t> order(preds.size());
  std::iota(order.begin(), order.end(), size_t{0});
  for (int trial = 0; trial < 5; ++trial) {
    std::shuffle(order.begin(), order.end(), random);
    std::vector<std::vector<LabeledBox>> shuffled_preds, shuffled_truths;
    for (const size_t s : order) {
      shuffled_preds.push_back(preds[s]);
      shuffled_truths.push_back(truths[s]);
    }
    const absl::StatusOr<double> shuffled =
        GreedyBoxMeanAveragePrecision(shuffled_preds, shuffled_truths, 0.5);
    ASSERT_TRUE(shuffled.ok()) << shuffled.status();
    EXPECT_EQ(std::bit_cast<uint64_t>(*shuffled), std::bit_cast<uint64_t>(*in_order));
  }
}

TEST(GreedyBoxMeanAveragePrecisionTest, MissedBoxHandComputed) {
  // Pairs (0, 0.9) and (1, 0): one threshold at 0.9 with precision 0, then
  // recall 1 at precision 1/2: AP = 0.5.
  const std::vector<std::vector<LabeledBox>> truths = {{Box("a", 1, 0, 0, 10, 10)}};
  const std::vector<std::vector<LabeledBox>> preds = {{Box("a", 0.9, 20, 20, 30, 30)}};
  absl::StatusOr<double> map = GreedyBoxMeanAveragePrecision(preds, truths, 0.5);
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_DOUBLE_EQ(*map, 0.5);
}

TEST(GreedyBoxMeanAveragePrecisionTest, IouMustExceedThreshold) {
  // IoU exactly 1/3 does not exceed 1/3: unmatched.
  const std::vector<std::vector<LabeledBox>> truths = {{Box("a", 1, 0, 0, 2, 2)}, {}};
  const std::vector<std::vector<LabeledBox>> preds = {{Box("a", 1, 1, 0, 3, 2)}, {}};
  absl::StatusOr<double> map = GreedyBoxMeanAveragePrecision(preds, truths, 1.0 / 3);
  ASSERT_TRUE(map.ok());
  // Pairs (0, 1), (1, 0), (0, 0): threshold 1 precision 0; threshold 0
  // precision 1/3 at recall 1.
  EXPECT_DOUBLE_EQ(*map, 1.0 / 3);
}

TEST(GreedyBoxMeanAveragePrecisionTest, UpstreamErrors) {
  // A single perfectly predicted sample: all pairs positive, upstream asserts.
  EXPECT_FALSE(
      GreedyBoxMeanAveragePrecision({{Box("a", 1, 0, 0, 1, 1)}}, {{Box("a", 1, 0, 0, 1, 1)}}, 0.5)
          .ok());
  // NaN confidence on a label with truths: sklearn raises.
  EXPECT_FALSE(GreedyBoxMeanAveragePrecision({{Box("a", std::nan(""), 5, 5, 6, 6)}},
                                             {{Box("a", 1, 0, 0, 1, 1)}}, 0.5)
                   .ok());
  // NaN confidence on a label without truths is never scored.
  // (A second sample without truths keeps label "a" from being all-positive.)
  EXPECT_TRUE(GreedyBoxMeanAveragePrecision({{Box("b", std::nan(""), 5, 5, 6, 6)}, {}},
                                            {{Box("a", 1, 0, 0, 1, 1)}, {}}, 0.5)
                  .ok());
  EXPECT_FALSE(GreedyBoxMeanAveragePrecision({{}}, {}, 0.5).ok());
}

// NaN confidences on a label without truths do not raise, but upstream's
// list.sort leaves the list in CPython's order: here [0.2, NaN, 0.9, 0.2]
// stays as it is (one ascending run once reversed), so the 0.2 box takes the
// truth box and the 0.9 one is a false positive (a plain stable sort with
// NaN comparing false moves the 0.9 box first). Expected values from upstream's
// calculate_map run by CPython 3.11.2.
TEST(GreedyBoxMeanAveragePrecisionTest, NanConfidencesOrderAsCPython) {
  const std::vector<std::vector<LabeledBox>> truths = {{Box("a", 1, 0, 0, 10, 10)}};
  absl::StatusOr<double> map =
      GreedyBoxMeanAveragePrecision({{Box("a", 0.2, 0, 0, 10, 10), Box("b", kNan, 50, 50, 60, 60),
                                      Box("a", 0.9, 0, 0, 10, 10), Box("b", 0.2, 70, 70, 80, 80)}},
                                    truths, 0.5);
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_EQ(*map, 0.5);
  // The same with a finite "b" confidence: sorted, the 0.9 box matches.
  map =
      GreedyBoxMeanAveragePrecision({{Box("a", 0.2, 0, 0, 10, 10), Box("b", 0.5, 50, 50, 60, 60),
                                      Box("a", 0.9, 0, 0, 10, 10), Box("b", 0.2, 70, 70, 80, 80)}},
                                    truths, 0.5);
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_EQ(*map, 1.0);
}

TEST(GreedyBoxMeanAveragePrecisionTest, NanConfidencesAcrossLabelsAndSamples) {
  absl::StatusOr<double> map = GreedyBoxMeanAveragePrecision(
      {{Box("a", 0.3, 0, 0, 10, 10), Box("b", kNan, 50, 50, 60, 60), Box("a", 0.8, 0, 0, 10, 10),
        Box("c", 0.1, 20, 20, 30, 30), Box("b", kNan, 0, 0, 1, 1), Box("c", 0.6, 20, 20, 30, 30),
        Box("b", 0.05, 70, 70, 80, 80)},
       {Box("a", 0.7, 0, 0, 10, 10), Box("a", 0.75, 20, 20, 30, 30),
        Box("c", 0.4, 20, 20, 30, 30)}},
      {{Box("a", 1, 0, 0, 10, 10), Box("c", 1, 20, 20, 30, 30)}, {Box("a", 1, 20, 20, 30, 30)}},
      0.5);
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_EQ(*map, 0.41666666666666663);
}

TEST(GreedyBoxMeanAveragePrecisionTest, NoTruthLabelsScoreZero) {
  absl::StatusOr<double> map =
      GreedyBoxMeanAveragePrecision({{Box("a", 1, 0, 0, 1, 1)}}, {{}}, 0.5);
  ASSERT_TRUE(map.ok());
  EXPECT_EQ(*map, 0.0);
}

CocoBox Coco(int64_t image, int64_t category, double x0, double y0, double x1, double y1,
             double score = 0) {
  CocoBox box;
  box.image = image;
  box.category = category;
  box.bbox[0] = x0;
  box.bbox[1] = y0;
  box.bbox[2] = x1;
  box.bbox[3] = y1;
  box.area = (x1 - x0) * (y1 - y0);
  box.score = score;
  return box;
}

TEST(CocoBoxAveragePrecisionTest, PerfectExceptGroundTruthIdZero) {
  // COCOeval stores the matched ground truth's id and reads 0 as unmatched,
  // so the detection matching truth 0 is a false positive (category 1: AP
  // 0) while category 2 scores 1: the mean over both is 0.5.
  const std::vector<CocoBox> truths = {Coco(0, 1, 0, 0, 10, 10), Coco(0, 2, 20, 20, 30, 30)};
  const std::vector<CocoBox> dets = {Coco(0, 1, 0, 0, 10, 10, 0.9),
                                     Coco(0, 2, 20, 20, 30, 30, 0.8)};
  absl::StatusOr<double> ap = CocoBoxAveragePrecision(1, truths, dets, 0.4);
  ASSERT_TRUE(ap.ok());
  EXPECT_DOUBLE_EQ(*ap, 0.5);
}

TEST(CocoBoxAveragePrecisionTest, NoDetectionsAndNoTruths) {
  const std::vector<CocoBox> truths = {Coco(0, 1, 0, 0, 10, 10), Coco(0, 1, 5, 5, 8, 8)};
  absl::StatusOr<double> ap = CocoBoxAveragePrecision(1, truths, {}, 0.4);
  ASSERT_TRUE(ap.ok());
  EXPECT_EQ(*ap, 0.0);
  ap = CocoBoxAveragePrecision(1, {}, {Coco(0, 1, 0, 0, 1, 1, 0.5)}, 0.4);
  ASSERT_TRUE(ap.ok());
  EXPECT_EQ(*ap, -1.0);
  EXPECT_FALSE(CocoBoxAveragePrecision(-1, {}, {}, 0.4).ok());
}

TEST(CocoBoxAveragePrecisionTest, CornersAreReadAsWidthAndHeight) {
  // Truth 1 is (4, 4)-(10, 10) as COCO reads (4, 4, 6, 6); the detection
  // (5, 5, 5, 5), empty as corners, is (5, 5)-(10, 10): IoU 25/36 matches.
  const std::vector<CocoBox> truths = {Coco(0, 7, 50, 50, 60, 60), Coco(0, 3, 4, 4, 6, 6)};
  const std::vector<CocoBox> dets = {Coco(0, 3, 5, 5, 5, 5, 0.5)};
  absl::StatusOr<double> ap = CocoBoxAveragePrecision(1, truths, dets, 0.4);
  ASSERT_TRUE(ap.ok());
  // Category 3: AP 1; category 7: a missed truth, AP 0.
  EXPECT_DOUBLE_EQ(*ap, 0.5);
}

}  // namespace
}  // namespace mlebench
