#include "grading/metrics/vision/run_length_encoding.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

// At most this many characters of a token go into an error message.
constexpr size_t kQuotedTokenLength = 40;

std::string Quoted(std::u32string_view token) {
  std::string text = EncodeUtf8(token.substr(0, kQuotedTokenLength));
  if (token.size() > kQuotedTokenLength) text += "...";
  return absl::StrCat("'", text, "'");
}

// Python's int(token) for a whitespace-free token, restricted to ASCII
// digits and the int64 range (see the header).
absl::StatusOr<int64_t> ParsePythonInt(std::u32string_view token) {
  size_t i = 0;
  bool negative = false;
  if (i < token.size() && (token[i] == U'+' || token[i] == U'-')) {
    negative = token[i] == U'-';
    ++i;
  }
  if (i == token.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("RLE token ", Quoted(token), " is not an integer"));
  }
  // Magnitude accumulated as unsigned so that -2**63 still fits.
  uint64_t magnitude = 0;
  bool previous_was_digit = false;
  bool overflow = false;
  for (; i < token.size(); ++i) {
    const char32_t c = token[i];
    if (c == U'_' && previous_was_digit && i + 1 < token.size()) {
      previous_was_digit = false;
      continue;
    }
    if (c < U'0' || c > U'9') {
      return absl::InvalidArgumentError(
          absl::StrCat("RLE token ", Quoted(token), " is not an integer"));
    }
    previous_was_digit = true;
    const uint64_t digit = c - U'0';
    if (magnitude > (std::numeric_limits<uint64_t>::max() - digit) / 10) {
      overflow = true;
    } else {
      magnitude = magnitude * 10 + digit;
    }
  }
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  if (overflow || magnitude > limit) {
    return absl::InvalidArgumentError(
        absl::StrCat("RLE token ", Quoted(token), " is outside the 64-bit integer range"));
  }
  return negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
}

}  // namespace

absl::StatusOr<PixelRuns> DecodeRle(std::string_view rle, int64_t pixel_count) {
  if (pixel_count < 0) {
    return absl::InvalidArgumentError(absl::StrCat("negative pixel count ", pixel_count));
  }
  const std::optional<std::u32string> text = DecodeUtf8(rle);
  if (!text.has_value()) return absl::InvalidArgumentError("RLE string is not valid UTF-8");
  const std::vector<std::u32string> tokens = PythonSplit(*text);

  std::vector<int64_t> values;
  values.reserve(tokens.size());
  for (const std::u32string& token : tokens) {
    ASSIGN_OR_RETURN(int64_t value, ParsePythonInt(token));
    values.push_back(value);
  }
  PixelRuns mask;
  mask.pixel_count = pixel_count;
  if (values.empty()) return mask;

  // Upstream's checks, in its order: sorted starts (the unpaired last start
  // included), positive starts, positive lengths.
  for (size_t i = 2; i < values.size(); i += 2) {
    if (values[i] < values[i - 2]) {
      return absl::InvalidArgumentError(
          absl::StrCat("the pairs in the RLE string must be sorted by start (", values[i],
                       " follows ", values[i - 2], ")"));
    }
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] <= 0) {
      return absl::InvalidArgumentError(absl::StrCat("every RLE ", i % 2 == 0 ? "start" : "length",
                                                     " must be a positive integer, got ",
                                                     values[i]));
    }
  }
  // numpy adds the starts to the lengths by broadcasting: an unpaired start
  // is fine only where that broadcasts (see the header).
  if (values.size() == 1) return mask;  // (1,) with (0,): no runs
  if (values.size() % 2 == 1 && values.size() != 3) {
    return absl::InvalidArgumentError(absl::StrCat("the RLE string has an odd number of values (",
                                                   values.size(), "): a start without a length"));
  }
  const size_t run_count = (values.size() + 1) / 2;

  int64_t covered_end = 0;  // end of the pixels set so far (starts are sorted)
  for (size_t r = 0; r < run_count; ++r) {
    const int64_t start = values[2 * r];
    // With three values the one length serves both starts.
    const int64_t length = values.size() == 3 ? values[1] : values[2 * r + 1];
    const int64_t begin = start - 1;
    int64_t end = 0;
    // numpy adds in int64 and wraps; a wrapped (negative) end slices nothing.
    if (__builtin_add_overflow(begin, length, &end)) continue;
    if (begin >= pixel_count) continue;
    end = std::min(end, pixel_count);
    if (begin < covered_end) {
      return absl::InvalidArgumentError(absl::StrCat("overlapping RLE pairs: the run starting at ",
                                                     start, " covers pixels an earlier run set"));
    }
    mask.runs.emplace_back(begin, end);
    covered_end = end;
  }
  return mask;
}

int64_t CountSetPixels(const PixelRuns& mask) {
  int64_t count = 0;
  for (const auto& [begin, end] : mask.runs) count += end - begin;
  return count;
}

int64_t CountOverlap(const PixelRuns& a, const PixelRuns& b) {
  int64_t overlap = 0;
  size_t i = 0, j = 0;
  while (i < a.runs.size() && j < b.runs.size()) {
    const int64_t begin = std::max(a.runs[i].first, b.runs[j].first);
    const int64_t end = std::min(a.runs[i].second, b.runs[j].second);
    if (begin < end) overlap += end - begin;
    if (a.runs[i].second < b.runs[j].second) {
      ++i;
    } else {
      ++j;
    }
  }
  return overlap;
}

namespace {

absl::Status CheckSize(int64_t pixel_count, int64_t height, int64_t width) {
  if (height < 0 || width < 0 || (width != 0 && height > pixel_count / width) ||
      height * width != pixel_count) {
    return absl::InvalidArgumentError(
        absl::StrCat("a ", height, " x ", width, " image does not have ", pixel_count, " pixels"));
  }
  return absl::OkStatus();
}

// The row-major position of the pixel at flattened position `k`.
int64_t RowMajorIndex(int64_t k, int64_t height, int64_t width, PixelOrder order) {
  if (order == PixelOrder::kRowMajor) return k;
  return (k % height) * width + k / height;
}

}  // namespace

absl::StatusOr<std::vector<uint8_t>> RunsToDenseMask(const PixelRuns& runs, int64_t height,
                                                     int64_t width, PixelOrder order) {
  RETURN_IF_ERROR(CheckSize(runs.pixel_count, height, width));
  std::vector<uint8_t> mask(runs.pixel_count, 0);
  for (const auto& [begin, end] : runs.runs) {
    for (int64_t k = begin; k < end; ++k) mask[RowMajorIndex(k, height, width, order)] = 1;
  }
  return mask;
}

absl::StatusOr<std::string> EncodeRle(const std::vector<uint8_t>& row_major_mask, int64_t height,
                                      int64_t width, PixelOrder order) {
  RETURN_IF_ERROR(CheckSize(static_cast<int64_t>(row_major_mask.size()), height, width));
  std::string rle;
  const int64_t n = static_cast<int64_t>(row_major_mask.size());
  int64_t k = 0;
  while (k < n) {
    if (row_major_mask[RowMajorIndex(k, height, width, order)] == 0) {
      ++k;
      continue;
    }
    const int64_t begin = k;
    while (k < n && row_major_mask[RowMajorIndex(k, height, width, order)] != 0) ++k;
    absl::StrAppend(&rle, rle.empty() ? "" : " ", begin + 1, " ", k - begin);
  }
  return rle;
}

}  // namespace mlebench
