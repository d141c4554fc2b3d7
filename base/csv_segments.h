#ifndef MLEBENCH_BASE_CSV_SEGMENTS_H_
#define MLEBENCH_BASE_CSV_SEGMENTS_H_

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/table.h"
#include "base/typed_table.h"

namespace mlebench {

// Reading a CSV file too large to hold whole a segment of rows at a time,
// with exactly the values (and so the text when written) that reading it whole
// with ReadTypedCsvFile gives, or learning that this cannot be promised (the
// caller then reads it whole). Used by preparers whose Kaggle tables are
// gigabytes (docs/performance.md, "Preparers' memory").

// Rows parsed at a time: a multiple of every chunk size the CSV reader infers
// dtypes in (powers of two up to 2**19, one per width), so that each of a
// segment's chunks is one of the reader's chunks of the whole file.
inline constexpr size_t kCsvSegmentRows = size_t{1} << 19;

// A file whose lines are its records, one for one: its header line and how
// many lines follow it.
struct PlainCsvFile {
  std::string header;
  size_t rows = 0;
};

// The header and row count of the CSV file at `path` when every line is
// plain: no '"', NUL or lone "\r" (lines end in "\n" or "\r\n", the last
// maybe in neither), no blank line, no BOM, no line with more commas than the
// header. Otherwise nullopt; also for a file the whole-file reader refuses for
// its size (more than CsvReadOptions' max_bytes, or more cells than 16 a byte
// plus 1Mi) or that cannot be read, so that reading it whole gives the error.
std::optional<PlainCsvFile> ScanPlainCsvFile(const std::filesystem::path& path);

// Each column's storage and dtype, which every segment must share.
using CsvColumnKinds = std::vector<std::pair<TypedColumn::Storage, Dtype>>;

// Parses `path` (scanned as `file`) kCsvSegmentRows rows at a time, each
// segment read by the CSV reader with the header, and calls
// `visit(segment, first_row)` in file order (first_row: the segment's first
// row in the file). `kinds`: empty on a first pass, set from the first
// segment; every segment of this and later passes must match it. Returns
// false, having visited only some segments, when the streamed values might
// not be the whole file's: a segment does not parse, has another row count
// than lines, or has a column whose storage is kCells (mixed values, as
// pandas' chunked inference makes) or differs from `kinds` (a column of ints
// in one segment and floats in another is all floats when read whole). With
// one typed storage in every segment, each column of the whole file has that
// storage and the same values, segment after segment. An error from `visit`
// is returned as it is.
absl::StatusOr<bool> ForEachCsvSegment(
    const std::filesystem::path& path, const PlainCsvFile& file, CsvColumnKinds& kinds,
    const std::function<absl::Status(const TypedTable& segment, size_t first_row)>& visit);

}  // namespace mlebench

#endif  // MLEBENCH_BASE_CSV_SEGMENTS_H_
