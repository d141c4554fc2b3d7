#include "grading/metrics/vision/run_length_encoding.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using Runs = std::vector<std::pair<int64_t, int64_t>>;

Runs DecodeOrDie(std::string_view rle, int64_t pixel_count) {
  absl::StatusOr<PixelRuns> mask = DecodeRle(rle, pixel_count);
  EXPECT_TRUE(mask.ok()) << rle << ": " << mask.status();
  if (!mask.ok()) return {};
  EXPECT_EQ(mask->pixel_count, pixel_count);
  return mask->runs;
}

void ExpectError(std::string_view rle, int64_t pixel_count, std::string_view needle) {
  absl::StatusOr<PixelRuns> mask = DecodeRle(rle, pixel_count);
  ASSERT_FALSE(mask.ok()) << "'" << rle << "' decoded";
  EXPECT_EQ(mask.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(mask.status().message()).find(std::string(needle)), std::string::npos)
      << mask.status();
}

TEST(DecodeRleTest, OneBasedStartsAndLengths) {
  EXPECT_EQ(DecodeOrDie("1 3 10 2", 20), (Runs{{0, 3}, {9, 11}}));
}

TEST(DecodeRleTest, EmptyAndWhitespaceAreEmptyMasks) {
  EXPECT_TRUE(DecodeOrDie("", 9).empty());
  EXPECT_TRUE(DecodeOrDie(" \t\n", 9).empty());
  EXPECT_TRUE(DecodeOrDie("\xc2\xa0", 9).empty());  // U+00A0 is Python whitespace
}

TEST(DecodeRleTest, PythonIntSpellings) {
  EXPECT_EQ(DecodeOrDie("+2 0_3\t\n007 1", 20), (Runs{{1, 4}, {6, 7}}));
  ExpectError("1 1.0", 9, "not an integer");
  ExpectError("1 _1", 9, "not an integer");
  ExpectError("1 1_", 9, "not an integer");
  ExpectError("1 1__2", 9, "not an integer");
  ExpectError("1 0x1", 9, "not an integer");
  ExpectError("1 +", 9, "not an integer");
  ExpectError("nan", 9, "not an integer");
}

TEST(DecodeRleTest, RunsAreClippedToTheImage) {
  EXPECT_EQ(DecodeOrDie("8 5", 9), (Runs{{7, 9}}));
  EXPECT_EQ(DecodeOrDie("2 1 10 3 100 1", 9), (Runs{{1, 2}}));
  // Overlaps past the end are invisible to upstream's check.
  EXPECT_EQ(DecodeOrDie("10 3 10 3", 9), Runs{});
}

TEST(DecodeRleTest, HugeRunsNeedNoMemory) {
  EXPECT_EQ(DecodeOrDie("1 9223372036854775807", 4), (Runs{{0, 4}}));
  // int64 wrap-around in numpy: the run slices nothing.
  EXPECT_EQ(DecodeOrDie("2 1 3 9223372036854775807", 4), (Runs{{1, 2}}));
  ExpectError("1 9223372036854775808", 4, "64-bit");
  ExpectError("1 99999999999999999999999999", 4, "64-bit");
}

TEST(DecodeRleTest, UpstreamAssertions) {
  ExpectError("5 1 3 1", 9, "sorted");
  ExpectError("0 1", 9, "positive");
  ExpectError("-1 1", 9, "positive");
  ExpectError("1 0", 9, "positive");
  ExpectError("1 -2", 9, "positive");
  ExpectError("1 3 2 1", 9, "overlapping");
  ExpectError("1 1 1 1", 9, "overlapping");
  EXPECT_EQ(DecodeOrDie("1 2 3 1", 9), (Runs{{0, 2}, {2, 3}}));  // adjacent is fine
}

TEST(DecodeRleTest, OddTokenCounts) {
  EXPECT_TRUE(DecodeOrDie("5", 9).empty());  // numpy broadcasts (1,) with (0,)
  ExpectError("0", 9, "positive");
  // (2,) + (1,) broadcasts: both starts take the one length.
  EXPECT_EQ(DecodeOrDie("1 2 5", 9), (Runs{{0, 2}, {4, 6}}));
  ExpectError("1 3 2", 9, "overlapping");
  ExpectError("1 2 5 1 7", 9, "odd number");
}

TEST(DecodeRleTest, BadInput) {
  ExpectError("1 \xff", 9, "UTF-8");
  ExpectError("1 1", -1, "negative");
  ExpectError("1 \xd9\xa3", 9, "not an integer");  // Arabic-Indic three: a documented deviation
}

TEST(CountTest, SetPixelsAndOverlap) {
  const PixelRuns a = *DecodeRle("1 4 10 5", 20);
  const PixelRuns b = *DecodeRle("3 9", 20);
  EXPECT_EQ(CountSetPixels(a), 9);
  EXPECT_EQ(CountSetPixels(b), 9);
  EXPECT_EQ(CountOverlap(a, b), 4);
  EXPECT_EQ(CountOverlap(b, a), 4);
  EXPECT_EQ(CountOverlap(a, PixelRuns{20, {}}), 0);
}

TEST(DenseMaskTest, ColumnMajorAndRowMajor) {
  // 2 rows x 3 columns; pixels 1..2 column-major are the first column.
  const PixelRuns runs = *DecodeRle("1 2 6 1", 6);
  EXPECT_EQ(*RunsToDenseMask(runs, 2, 3, PixelOrder::kColumnMajor),
            (std::vector<uint8_t>{1, 0, 0, 1, 0, 1}));
  EXPECT_EQ(*RunsToDenseMask(runs, 2, 3, PixelOrder::kRowMajor),
            (std::vector<uint8_t>{1, 1, 0, 0, 0, 1}));
  EXPECT_FALSE(RunsToDenseMask(runs, 2, 2, PixelOrder::kRowMajor).ok());
}

TEST(EncodeRleTest, RoundTrips) {
  const std::vector<uint8_t> mask = {1, 0, 0, 1, 0, 1};
  EXPECT_EQ(*EncodeRle(mask, 2, 3, PixelOrder::kColumnMajor), "1 2 6 1");
  EXPECT_EQ(*EncodeRle(mask, 2, 3, PixelOrder::kRowMajor), "1 1 4 1 6 1");
  EXPECT_EQ(*EncodeRle(std::vector<uint8_t>(6, 0), 2, 3, PixelOrder::kRowMajor), "");
  EXPECT_FALSE(EncodeRle(mask, 4, 3, PixelOrder::kRowMajor).ok());
  for (PixelOrder order : {PixelOrder::kColumnMajor, PixelOrder::kRowMajor}) {
    const std::string rle = *EncodeRle(mask, 2, 3, order);
    EXPECT_EQ(*RunsToDenseMask(*DecodeRle(rle, 6), 2, 3, order), mask);
  }
}

}  // namespace
}  // namespace mlebench
