// The pieces of fastparquet 2024.5.0's file layout (fastparquet.write, as
// pandas' DataFrame.to_parquet(engine="fastparquet") calls it) that are pure
// functions of the data: the "pandas" key-value metadata, the row-group and
// page split, definition levels, boolean packing, and the min/max that pandas
// computes for the statistics. For formats/fastparquet_writer.cc (and its tests)
// only; written from fastparquet's observable output and reading its source,
// not copied from it.
#ifndef MLEBENCH_FORMATS_INTERNAL_FASTPARQUET_LAYOUT_H_
#define MLEBENCH_FORMATS_INTERNAL_FASTPARQUET_LAYOUT_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench::parquet_internal {

// fastparquet's created_by string.
inline constexpr char kFastparquetCreatedBy[] = "fastparquet-python version 2024.5.0 (build 0)";

// One column of the "pandas" metadata: its name and numpy dtype ("int64",
// "int32", "int16", "float64", "float32" or "bool"; pandas_type follows).
struct PandasColumn {
  std::string name;
  std::string numpy_type;
};

// The "pandas" key-value metadata fastparquet writes for a DataFrame with a
// default (object-dtype, unnamed) columns index, written with index=False:
// json.dumps(..., sort_keys=True) of index_columns [], partition_columns [],
// the columns' {name, field_name, pandas_type, numpy_type, metadata null},
// column_indexes, creator fastparquet 2024.5.0 and pandas_version 2.2.2.
// InvalidArgumentError for a name that is not UTF-8.
absl::StatusOr<std::string> FastparquetPandasMetadata(const std::vector<PandasColumn>& columns);

// The first row of each row group fastparquet.write makes of `rows` rows for
// row_group_offsets=`row_group_rows` (an int; 0: one group): the fewest
// groups of at most that many rows, of equal size but the last. None for an
// empty table (fastparquet then writes no row group).
std::vector<size_t> FastparquetRowGroupStarts(size_t rows, int64_t row_group_rows);

// Rows per data page (fastparquet's _rows_per_page for an OPTIONAL column of
// `bytes_per_value`: 8 for INT64 and DOUBLE, 4 for INT32 and FLOAT, 0.125 for
// BOOLEAN, against a 500 MiB page).
size_t FastparquetRowsPerPage(double bytes_per_value);

// A v1 data page's definition levels of `n` rows, present[i] 1 or 0, with
// their 4-byte length: one RLE run of 1s when no row is null, else one
// bit-packed run of n / 8 + 1 bytes (fastparquet pads with 8 - n % 8 zero
// levels, a whole zero byte when n is a multiple of 8).
std::string FastparquetDefinitionLevels(const uint8_t* present, size_t n);

// `n` PLAIN booleans (values[i] 1 or 0) as fastparquet packs them: bit i % 8
// of byte i / 8, in n / 8 + 1 bytes (the same padding as above).
std::string FastparquetPackedBooleans(const uint8_t* values, size_t n);

// `input` compressed in Snappy's raw format as fastparquet compresses pages:
// with cramjam 2.8, whose Snappy is the Rust crate snap 1.x. Its compressor
// is the older reference algorithm (64 KiB blocks, a hash table of 256 to
// 16384 slots sized to the block, a match search that skips ahead faster the
// longer it finds nothing, copies of at most 64 bytes), whose output differs
// from libsnappy 1.1.9's for some inputs (both decompress the same).
std::string SnapCompress(std::string_view input);

// What pandas 2.2.2's Series.max() (`max`) or Series.min() returns for a
// float column of `n` values, value i being get(i) (NaN for missing): nullopt
// when all are NaN, else the extreme value. The value is never in doubt; its
// sign is when the extreme is zero and both 0.0 and -0.0 occur, and then
// depends on the order in which numpy's reduction kernel meets the values.
// This follows numpy 1.26's baseline kernel (SSE2, what every x86-64 CPU
// runs): pandas fills NaN with -inf (+inf for min) and calls ndarray.max,
// which numpy runs over buffers of 8192 values; per buffer, the running
// result seeds every lane of a 16-byte vector (2 doubles, 4 floats), lane
// j keeps the extreme of the values at j modulo the lane count (a later equal
// value replacing it), the lanes are folded in halves (the upper half winning
// ties), and the values past the last whole vector follow one by one (a later
// equal value winning). The first value is the initial result and is not
// part of the first buffer's vectors. With AVX2 or AVX-512 kernels numpy
// meets the values in another order, and may give the other zero.
template <typename T, typename Get>
std::optional<T> NumpyBaselineNanExtreme(size_t n, Get get, bool max) {
  const T fill = max ? -INFINITY : INFINITY;
  bool any = false;
  auto value = [&](size_t i) {
    const T v = get(i);
    if (std::isnan(v)) return fill;
    any = true;
    return v;
  };
  // Keeps `kept` unless `next` is strictly more extreme.
  auto pick = [max](T kept, T next) { return (max ? kept > next : kept < next) ? kept : next; };
  if (n == 0) return std::nullopt;
  constexpr size_t kBuffer = 8192;
  constexpr size_t kLanes = 16 / sizeof(T);
  T result = value(0);
  for (size_t start = 0; start < n; start += kBuffer) {
    const size_t begin = std::max<size_t>(start, 1), end = std::min(n, start + kBuffer);
    if (begin >= end) continue;
    T lanes[kLanes];
    std::fill(lanes, lanes + kLanes, result);
    const size_t whole = begin + (end - begin) / kLanes * kLanes;
    for (size_t i = begin; i < whole; ++i) {
      lanes[(i - begin) % kLanes] = pick(lanes[(i - begin) % kLanes], value(i));
    }
    for (size_t width = kLanes / 2; width >= 1; width /= 2) {
      for (size_t j = 0; j < width; ++j) lanes[j] = pick(lanes[j], lanes[j + width]);
    }
    result = lanes[0];
    for (size_t i = whole; i < end; ++i) result = pick(result, value(i));
  }
  if (!any) return std::nullopt;
  return result;
}

}  // namespace mlebench::parquet_internal

#endif  // MLEBENCH_FORMATS_INTERNAL_FASTPARQUET_LAYOUT_H_
