#include "grading/metrics/vision/iou_threshold_precision.h"

#include "gtest/gtest.h"

namespace mlebench {
namespace {

PixelRuns Mask(std::string_view rle, int64_t pixel_count = 100) {
  return *DecodeRle(rle, pixel_count);
}

TEST(IouThresholdPrecisionTest, EmptyTruth) {
  EXPECT_EQ(*IouThresholdPrecision(Mask(""), Mask("")), 1.0);
  EXPECT_EQ(*IouThresholdPrecision(Mask(""), Mask("1 1")), 0.0);
}

TEST(IouThresholdPrecisionTest, FractionOfThresholdsPassed) {
  EXPECT_EQ(*IouThresholdPrecision(Mask("1 10"), Mask("1 10")), 1.0);
  // IoU 8 / 10 = 0.8 passes 0.5 .. 0.75 (0.8 is not above 0.8000000000000003).
  EXPECT_EQ(*IouThresholdPrecision(Mask("1 10"), Mask("1 8")), 0.6);
  // IoU 0.5 passes nothing (strict comparison).
  EXPECT_EQ(*IouThresholdPrecision(Mask("1 10"), Mask("1 5")), 0.0);
  // IoU 0.55 is not above numpy's 0.55 either, 11/20 = 0.55.
  EXPECT_EQ(*IouThresholdPrecision(Mask("1 20"), Mask("1 11")), 0.1);
  EXPECT_EQ(*IouThresholdPrecision(Mask("1 10"), Mask("50 10")), 0.0);
}

TEST(IouThresholdPrecisionTest, ConstantMaskQuirk) {
  // An empty prediction counts as a full one: IoU = |truth| / 100.
  EXPECT_EQ(*IouThresholdPrecision(Mask("1 10"), Mask("")), 0.0);
  EXPECT_EQ(*IouThresholdPrecision(Mask("1 70"), Mask("")), 0.4);
  EXPECT_EQ(*IouThresholdPrecision(Mask("1 70"), Mask("1 100")), 0.4);
  // A full truth against an empty prediction is a perfect match.
  EXPECT_EQ(*IouThresholdPrecision(Mask("1 100"), Mask("")), 1.0);
  EXPECT_EQ(*IouThresholdPrecision(Mask("1 100"), Mask("1 60")), 0.2);
}

TEST(IouThresholdPrecisionTest, ShapesMustAgree) {
  EXPECT_FALSE(IouThresholdPrecision(Mask("1 1", 10), Mask("1 1", 11)).ok());
}

}  // namespace
}  // namespace mlebench
