#include "grading/metrics/vision/dice_hausdorff.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

// A height x width slice with the given (row, column) pixels set.
PixelRuns Slice(int64_t height, int64_t width, std::vector<std::pair<int64_t, int64_t>> pixels) {
  std::vector<uint8_t> dense(height * width);
  for (const auto& [row, column] : pixels) dense[row * width + column] = 1;
  return *DecodeRle(*EncodeRle(dense, height, width, PixelOrder::kColumnMajor), height * width);
}

TEST(NormalizedHausdorffDistanceTest, EmptyEqualAndOneSidedConventions) {
  const MaskVolume empty{2, 2, {Slice(2, 2, {}), Slice(2, 2, {})}};
  const MaskVolume one{2, 2, {Slice(2, 2, {{0, 0}}), Slice(2, 2, {})}};
  EXPECT_TRUE(std::isnan(NormalizedHausdorffDistance(empty, empty)));
  EXPECT_EQ(NormalizedHausdorffDistance(one, one), 0.0);
  EXPECT_EQ(NormalizedHausdorffDistance(empty, one), 1.0);
  EXPECT_EQ(NormalizedHausdorffDistance(one, empty), 1.0);
}

TEST(NormalizedHausdorffDistanceTest, EqualityIgnoresHowRunsAreSplit) {
  const MaskVolume split{1, 4, {PixelRuns{4, {{0, 1}, {1, 3}}}}};
  const MaskVolume merged{1, 4, {PixelRuns{4, {{0, 3}}}}};
  EXPECT_EQ(NormalizedHausdorffDistance(split, merged), 0.0);
}

TEST(NormalizedHausdorffDistanceTest, PredictionTenTimesLargerScoresOne) {
  const MaskVolume truth{1, 11, {Slice(1, 11, {{0, 0}})}};
  std::vector<std::pair<int64_t, int64_t>> ten, eleven;
  for (int64_t c = 0; c < 11; ++c) (c < 10 ? ten : eleven).push_back({0, c});
  eleven.insert(eleven.end(), ten.begin(), ten.end());
  // Ten voxels: distance computed (the farthest is 9/11 away along x).
  EXPECT_DOUBLE_EQ(NormalizedHausdorffDistance(MaskVolume{1, 11, {Slice(1, 11, ten)}}, truth),
                   (9.0 / 11.0) / std::sqrt(3.0));
  // Eleven voxels is more than 10x the truth: 1 without computing.
  EXPECT_EQ(NormalizedHausdorffDistance(MaskVolume{1, 11, {Slice(1, 11, eleven)}}, truth), 1.0);
}

TEST(NormalizedHausdorffDistanceTest, OppositeCornersOfTwoCubedVolume) {
  const MaskVolume truth{2, 2, {Slice(2, 2, {{0, 0}}), Slice(2, 2, {})}};
  const MaskVolume predicted{2, 2, {Slice(2, 2, {}), Slice(2, 2, {{1, 1}})}};
  // Coordinates / shape: (0,0,0) and (0.5,0.5,0.5); sqrt(0.75) / sqrt(3) = 0.5.
  EXPECT_DOUBLE_EQ(NormalizedHausdorffDistance(predicted, truth), 0.5);
}

TEST(NormalizedHausdorffDistanceTest, BothSidesNormalisedByTheTrueShape) {
  const MaskVolume truth{2, 2, {Slice(2, 2, {{0, 0}})}};
  const MaskVolume predicted{4, 4, {Slice(4, 4, {{3, 3}})}};
  // Predicted voxel (0,3,3) / (1,2,2) = (0,1.5,1.5): sqrt(4.5) / sqrt(3).
  EXPECT_DOUBLE_EQ(NormalizedHausdorffDistance(predicted, truth), std::sqrt(4.5) / std::sqrt(3.0));
}

TEST(NormalizedHausdorffDistanceTest, SymmetricMaximumOfDirectedDistances) {
  // Truth {(0,0,0), (0,0,3)}, prediction {(0,0,0)}: truth->prediction is 3/4.
  const MaskVolume truth{1, 4, {Slice(1, 4, {{0, 0}, {0, 3}})}};
  const MaskVolume predicted{1, 4, {Slice(1, 4, {{0, 0}})}};
  EXPECT_DOUBLE_EQ(NormalizedHausdorffDistance(predicted, truth), 0.75 / std::sqrt(3.0));
  EXPECT_DOUBLE_EQ(NormalizedHausdorffDistance(truth, predicted), 0.75 / std::sqrt(3.0));
}

TEST(GroupMasksByDayTest, SortsByIdOrsSameIdAndStacksPerDay) {
  const std::vector<SliceMask> masks = {
      {1, 2, Slice(1, 2, {{0, 1}})},  // case1_day2_slice_0002
      {1, 2, Slice(1, 2, {{0, 0}})},  // case1_day1_slice_0001
      {1, 2, Slice(1, 2, {{0, 1}})},  // case1_day1_slice_0001 again: ORed
      {1, 2, Slice(1, 2, {})},        // case1_day10_slice_0001: sorts first
  };
  const std::vector<std::string> ids = {"case1_day2_slice_0002", "case1_day1_slice_0001",
                                        "case1_day1_slice_0001", "case1_day10_slice_0001"};
  const absl::StatusOr<std::vector<MaskVolume>> days = GroupMasksByDay(masks, ids);
  ASSERT_TRUE(days.ok()) << days.status();
  ASSERT_EQ(days->size(), 3u);
  EXPECT_TRUE((*days)[0].slices[0].runs.empty());  // day10
  ASSERT_EQ((*days)[1].slices.size(), 1u);          // day1: both pixels, one merged run
  EXPECT_EQ((*days)[1].slices[0].runs, (std::vector<std::pair<int64_t, int64_t>>{{0, 2}}));
  EXPECT_EQ((*days)[2].slices[0].runs, (std::vector<std::pair<int64_t, int64_t>>{{1, 2}}));
}

TEST(GroupMasksByDayTest, ShapeMismatchesAreErrors) {
  const std::vector<SliceMask> masks = {{1, 2, Slice(1, 2, {})}, {2, 1, Slice(2, 1, {})}};
  EXPECT_EQ(GroupMasksByDay(masks, {"a_slice_1", "a_slice_1"}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(GroupMasksByDay(masks, {"a_slice_1", "a_slice_2"}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(GroupMasksByDay(masks, {"a_slice_1", "b_slice_1"}).ok());
  // zip: the mask without an id is ignored.
  EXPECT_EQ(GroupMasksByDay(masks, {"a_slice_1"})->size(), 1u);
}

class DiceHausdorffScoreTest : public ::testing::Test {
 protected:
  // Two 2x2 slices of one case-day; the second is empty in the answers.
  const std::vector<std::string> ids_ = {"case1_day1_slice_0001", "case1_day1_slice_0002"};
  const std::vector<std::string> rles_ = {"1 2", ""};
  const std::vector<int64_t> heights_ = {2, 2}, widths_ = {2, 2};
};

TEST_F(DiceHausdorffScoreTest, PerfectSubmissionScoresOne) {
  EXPECT_DOUBLE_EQ(*DiceHausdorffScore(ids_, rles_, ids_, rles_, heights_, widths_), 1.0);
}

TEST_F(DiceHausdorffScoreTest, HandComputedPartialScore) {
  // Slice 1 predicted "1 1" (pixel (0,0)) against (0,0),(1,0): Dice 2/3; slice 2
  // empty on both sides: NaN, skipped. 3-D: truth {(0,0,0),(0,0.5,0)}, prediction
  // {(0,0,0)}: Hausdorff 0.5 / sqrt(3).
  const double expected = 0.4 * (2.0 / 3.0) + 0.6 * (1.0 - 0.5 / std::sqrt(3.0));
  EXPECT_DOUBLE_EQ(*DiceHausdorffScore(ids_, {"1 1", ""}, ids_, rles_, heights_, widths_),
                   expected);
}

TEST_F(DiceHausdorffScoreTest, EverythingEmptyIsNaN) {
  EXPECT_TRUE(std::isnan(*DiceHausdorffScore(ids_, {"", " "}, ids_, {"", ""}, heights_, widths_)));
}

TEST_F(DiceHausdorffScoreTest, RowsPairByPositionNotById) {
  // Swapping the submission's rows swaps the masks compared by Dice (the ids are
  // never matched), while the 3-D grouping sorts by id.
  const double score = *DiceHausdorffScore({ids_[1], ids_[0]}, {"", "1 2"}, ids_, rles_,
                                           heights_, widths_);
  // Dice: row 1 "" vs "1 2" -> 0, row 2 "1 2" vs "" -> 0. 3-D: sorted by id, the
  // submission's volume equals the answers': Hausdorff 0.
  EXPECT_DOUBLE_EQ(score, 0.6);
}

TEST_F(DiceHausdorffScoreTest, ShortAndLongSubmissionsFollowZip) {
  // One row: only it is decoded and compared; the day has one slice vs two.
  EXPECT_TRUE(DiceHausdorffScore({ids_[0]}, {"1 2"}, ids_, rles_, heights_, widths_).ok());
  // An extra row beyond the answers is never decoded, even if malformed.
  EXPECT_DOUBLE_EQ(*DiceHausdorffScore({ids_[0], ids_[1], "x"}, {"1 2", "", "bad"}, ids_, rles_,
                                       heights_, widths_),
                   1.0);
}

TEST_F(DiceHausdorffScoreTest, BadInputsAreErrors) {
  for (const char* rle : {"2 1 1 1", "0 1", "1 0", "1 5 2 1", "x", "1 2 3 4 5"}) {
    EXPECT_EQ(
        DiceHausdorffScore(ids_, {rle, ""}, ids_, rles_, heights_, widths_).status().code(),
        absl::StatusCode::kInvalidArgument)
        << rle;
  }
  EXPECT_FALSE(DiceHausdorffScore(ids_, {""}, ids_, rles_, heights_, widths_).ok());
  EXPECT_FALSE(DiceHausdorffScore(ids_, rles_, ids_, rles_, {2}, widths_).ok());
  EXPECT_FALSE(DiceHausdorffScore(ids_, rles_, ids_, rles_, {2, -1}, widths_).ok());
  // Slices of one case-day with different answer shapes cannot be stacked.
  EXPECT_FALSE(DiceHausdorffScore(ids_, {"", ""}, ids_, {"", ""}, {2, 3}, {2, 2}).ok());
}

}  // namespace
}  // namespace mlebench

namespace mlebench {
namespace {

// A real-sized case-day (144 slices of 266 x 266): a 40-voxel cube and the
// same cube one slice further, found with the nearest-neighbour search in a
// fraction of a second. The farthest voxels are one slice (1/144) apart.
TEST(NormalizedHausdorffDistanceTest, RealSizedVolumesAreFastAndExact) {
  auto cube = [](int64_t first_slice) {
    MaskVolume volume{266, 266, {}};
    std::vector<std::pair<int64_t, int64_t>> square;
    for (int64_t r = 100; r < 140; ++r) {
      for (int64_t c = 100; c < 140; ++c) square.push_back({r, c});
    }
    for (int64_t s = 0; s < 144; ++s) {
      volume.slices.push_back(
          Slice(266, 266, s >= first_slice && s < first_slice + 40 ? square : decltype(square){}));
    }
    return volume;
  };
  const double distance = NormalizedHausdorffDistance(cube(11), cube(10));
  EXPECT_NEAR(distance, (1.0 / 144.0) / std::sqrt(3.0), 1e-15);
}

// Far-apart real-sized masks (64000 voxels each in opposite corners) stay
// fast: each voxel first tries its predecessor's nearest point.
TEST(NormalizedHausdorffDistanceTest, FarApartRealSizedVolumesAreFast) {
  auto cube = [](int64_t first_slice, int64_t first_row) {
    MaskVolume volume{266, 266, {}};
    std::vector<std::pair<int64_t, int64_t>> square;
    for (int64_t r = first_row; r < first_row + 40; ++r) {
      for (int64_t c = first_row; c < first_row + 40; ++c) square.push_back({r, c});
    }
    for (int64_t s = 0; s < 144; ++s) {
      volume.slices.push_back(
          Slice(266, 266, s >= first_slice && s < first_slice + 40 ? square : decltype(square){}));
    }
    return volume;
  };
  // The corner (0,0,0) of one cube is farthest from the other's corner (100,200,200).
  const double expected =
      std::sqrt(std::pow(100.0 / 144.0, 2) + 2 * std::pow(200.0 / 266.0, 2)) / std::sqrt(3.0);
  EXPECT_NEAR(NormalizedHausdorffDistance(cube(100, 200), cube(0, 0)), expected, 1e-12);
}

}  // namespace
}  // namespace mlebench
