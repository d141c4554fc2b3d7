#include "base/internal/csv_regular.h"

#include <sys/mman.h>
#include <unistd.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <vector>

#include "base/csv.h"
#include "base/internal/csv_inference.h"
#include "base/internal/csv_values.h"
#include "base/internal/csv_words.h"
#include "base/parallel.h"
#include "base/utf8.h"

namespace mlebench::csv_internal {

void PopulatePages(const void* begin, const void* end, int advice) {
#if defined(__linux__)
  const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const uintptr_t first = reinterpret_cast<uintptr_t>(begin) & ~(page - 1);
  const uintptr_t last = reinterpret_cast<uintptr_t>(end);
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, advice);
#else
  (void)begin;
  (void)end;
  (void)advice;
#endif
}

namespace {

// ---------------------------------------------------------------------------
// Regular files.
//
// Most large CSVs (what pandas or numpy write for a submission) are regular:
// no "\r", no blank lines, no quotes but around a whole field that holds
// neither a quote nor a line end (what pandas writes for text with the
// delimiter in it), every row exactly as wide as the header, and each column
// holding one kind of value throughout (text, integers, floats or bools).
// Their body is read without tokens: it is cut at line ends into segments
// that threads scan and parse in place, every value written straight into
// its column's final array. The result must be what
// the general reader gives, pandas' per-chunk inference included, so a
// column's kind is taken from the first row and then checked:
//  - kInt64: every value an int64 (pandas: every chunk int64);
//  - kFloat64: every value a float below 2**63 in magnitude or missing. A
//    chunk holding only integers is int64 to pandas, but the first one holds
//    the first row's float, so the concatenation is float64, and an int64
//    converts to the double its text rounds to (the magnitude bound rules
//    out int64 overflow, which would send pandas down its uint64 and object
//    paths);
//  - kBool: every value true or false in any case (a missing value would
//    make pandas' chunk object);
//  - kText: each chunk with a value that is neither missing nor a number nor
//    a bool (else pandas would infer that chunk as numbers), unless the
//    column is read as str.
//  - kSkipped: a column the caller does not keep (CsvReadOptions::
//    only_columns): its fields are split, never read.
// Anything else (including any error) makes the general reader read the
// whole file again, so regular files are only a fast path.

enum class RegularKind { kText, kInt64, kFloat64, kBool, kSkipped };

// Values are at most 2**63 in magnitude below this, where no integer text
// overflows int64.
constexpr double kTwoTo63 = 9223372036854775808.0;

// The kind of a column whose first value is `t`, or nullopt when the fast
// path does not take such a column.
std::optional<RegularKind> FirstValueKind(std::string_view t, bool as_string) {
  if (as_string) return RegularKind::kText;
  if (IsNaToken(t)) return std::nullopt;
  int64_t i;
  const IntParse int_parse = ParseInt64(t, &i);
  if (int_parse == IntParse::kOk) return RegularKind::kInt64;
  if (int_parse == IntParse::kOverflow) return std::nullopt;
  double d;
  if (ParseDouble(t, &d)) {
    if (!(std::fabs(d) < kTwoTo63)) return std::nullopt;
    return RegularKind::kFloat64;
  }
  bool b;
  if (ParseBool(t, &b)) return RegularKind::kBool;
  return RegularKind::kText;
}

// Whether a present (not missing) value of a kText column proves its chunk
// is object: neither a number nor a bool.
bool IsTextWitness(std::string_view t) {
  double d;
  bool b;
  return !ParseDouble(t, &d) && !ParseBool(t, &b);
}

// Counts the rows of segment `seg` (every line is one, the last one also
// without "\n") and its quote bytes while checking its bytes: false on "\r",
// NUL or invalid UTF-8 (which the general reader handles or reports).
bool ScanRegularSegment(std::string_view seg, size_t* rows, size_t* quote_bytes) {
  const char* d = seg.data();
  size_t count = 0, quote_count = 0, i = 0;
  // One byte that the word-at-a-time loops below stopped at: false for a
  // byte the regular path does not take.
  const auto take_byte = [&] {
    const char c = d[i];
    if (c == '\r' || c == '\0') return false;
    if (static_cast<unsigned char>(c) >= 0x80) {
      const size_t len = Utf8SequenceLength(seg, i);
      i += len;
      return len != 0;
    }
    count += c == '\n';
    quote_count += c == '"';
    ++i;
    return true;
  };
#if defined(__SSE2__)
  // 16 bytes at a time: any byte that needs a closer look (non-ASCII, "\r",
  // NUL) ends the block loop there; "\n" and quote bytes are counted in
  // per-lane byte counters, folded into `count` and `quote_count` before
  // they can wrap.
  {
    const __m128i newlines = _mm_set1_epi8('\n'), quotes = _mm_set1_epi8('"'),
                  returns = _mm_set1_epi8('\r'), zero = _mm_setzero_si128();
    __m128i lanes = zero, quote_lanes = zero;
    int pending = 0;
    const auto sum_lanes = [&](__m128i v) {
      const __m128i sums = _mm_sad_epu8(v, zero);
      return static_cast<size_t>(_mm_cvtsi128_si64(sums)) +
             static_cast<size_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
    };
    const auto fold = [&] {
      count += sum_lanes(lanes);
      quote_count += sum_lanes(quote_lanes);
      lanes = quote_lanes = zero;
      pending = 0;
    };
    while (true) {
      while (i + 16 <= seg.size()) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(d + i));
        const __m128i special =
            _mm_or_si128(_mm_cmpeq_epi8(bytes, returns), _mm_cmpeq_epi8(bytes, zero));
        if ((_mm_movemask_epi8(special) | _mm_movemask_epi8(bytes)) != 0) break;
        lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(bytes, newlines));  // +1 per "\n"
        quote_lanes = _mm_sub_epi8(quote_lanes, _mm_cmpeq_epi8(bytes, quotes));
        i += 16;
        if (++pending == 255) fold();
      }
      if (i + 16 > seg.size()) break;
      // Bytes one at a time up to the end of this block.
      for (const size_t stop = i + 16; i < stop;) {
        if (!take_byte()) return false;
      }
    }
    fold();
  }
#endif
  constexpr uint64_t kHigh = 0x8080808080808080ull;
  const uint64_t newlines = Broadcast('\n'), quotes = Broadcast('"'), returns = Broadcast('\r');
  while (i < seg.size()) {
    if (i + 8 <= seg.size()) {
      uint64_t word;
      std::memcpy(&word, d + i, 8);
      if (((word & kHigh) | ZeroBytes(word) | ZeroBytes(word ^ returns)) == 0) {
        count += CountMarkedBytes(ZeroBytes(word ^ newlines));
        quote_count += CountMarkedBytes(ZeroBytes(word ^ quotes));
        i += 8;
        continue;
      }
    }
    if (!take_byte()) return false;
  }
  if (!seg.empty() && seg.back() != '\n') ++count;
  *rows = count;
  *quote_bytes = quote_count;
  return true;
}

// One column of a regular file: its kind and its array, left uninitialized
// at first, each value constructed in place by the segment that parses its
// row.
struct RegularColumn {
  RegularKind kind;
  bool needs_witness;  // a text column that pandas would infer
  std::shared_ptr<void> owner;
  char* bytes = nullptr;
  size_t value_size = 0;

  template <typename T>
  void Allocate(size_t n) {
    static_assert(std::is_trivially_destructible_v<T>);
    const size_t size = std::max<size_t>(n, 1);
    T* values = std::allocator<T>().allocate(size);
    owner = std::shared_ptr<T>(values, [size](T* p) { std::allocator<T>().deallocate(p, size); });
    bytes = reinterpret_cast<char*>(values);
    value_size = sizeof(T);
  }
  template <typename T>
  T* values() const {
    return reinterpret_cast<T*>(bytes);
  }
};

// Splits the lines of a regular region (no "\r") into fields: the
// positions of its delimiters and "\n" bytes are found 64 bytes at a time as
// a bit mask and taken in order, so no branch depends on where a field
// happens to end. A field that starts with a quote is quoted: its value is
// what lies between that quote and the next one, which must end the field
// (a doubled quote, text after the closing quote or a line end inside make
// the line not regular). Quotes elsewhere are not seen here: the caller
// counts the region's quotes against quoted_fields().
class RegularLineSplitter {
 public:
  // The region d[begin, end).
  RegularLineSplitter(const char* d, size_t begin, size_t end, char sep)
      : d_(d), p_(begin), block_(begin), end_(end), sep_(sep) {}

  // The fields of the next line into `fields` (exactly `width`); false when
  // the line is not regular (blank, too short or too long, or a quoted
  // field as above) or none is left.
  bool Next(size_t width, std::string_view* fields) {
    if (p_ >= end_) return false;
    for (size_t j = 0; j < width; ++j) {
      size_t e;
      if (p_ < end_ && d_[p_] == '"') [[unlikely]] {
        const void* close = std::memchr(d_ + p_ + 1, '"', end_ - p_ - 1);
        if (close == nullptr) return false;
        const size_t stop = static_cast<const char*>(close) - d_;
        if (std::memchr(d_ + p_ + 1, '\n', stop - p_ - 1) != nullptr) return false;
        if (stop + 1 < end_ && d_[stop + 1] != sep_ && d_[stop + 1] != '\n') return false;
        ++quoted_fields_;
        fields[j] = std::string_view(d_ + p_ + 1, stop - p_ - 1);
        p_ = stop + 1;  // the boundary search skips the delimiters inside
        e = NextBoundary();
        if (e != p_) return false;  // not reached: the quote's next byte was checked above
      } else {
        e = NextBoundary();
        fields[j] = std::string_view(d_ + p_, e - p_);
      }
      p_ = e + 1;
      if (j + 1 < width) {
        if (e >= end_ || d_[e] != sep_) return false;
      } else if (e < end_ && d_[e] != '\n') {
        return false;
      }
    }
    // A line of one field that is empty, or only spaces and tabs, is blank
    // to pandas. (With more fields, a blank line is too short.)
    if (width == 1 && fields[0].find_first_not_of(" \t") == std::string_view::npos) return false;
    return true;
  }

  // Where the next line starts (end of the region after the last one).
  size_t position() const { return std::min(p_, end_); }

  // How many quoted fields the lines so far held (each has two quotes).
  size_t quoted_fields() const { return quoted_fields_; }

 private:
  // The next delimiter or "\n" at or after p_, or end_.
  size_t NextBoundary() {
    while (true) {
      while (mask_ != 0) {
        const size_t at = block_ - 64 + static_cast<size_t>(std::countr_zero(mask_));
        mask_ &= mask_ - 1;
        if (at >= p_) return at;
      }
      if (block_ >= end_) return end_;
      LoadBlock();
    }
  }

  // The boundary bits of d[block_, block_ + 64) (bytes past end_ never set).
  void LoadBlock() {
    uint64_t mask = 0;
    if (block_ + 64 <= end_) {
#if defined(__SSE2__)
      const __m128i seps = _mm_set1_epi8(sep_), newlines = _mm_set1_epi8('\n');
      for (int k = 0; k < 4; ++k) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(d_ + block_ + 16 * k));
        const unsigned bits = static_cast<unsigned>(_mm_movemask_epi8(
            _mm_or_si128(_mm_cmpeq_epi8(bytes, seps), _mm_cmpeq_epi8(bytes, newlines))));
        mask |= uint64_t{bits} << (16 * k);
      }
#else
      for (size_t i = 0; i < 64; ++i) {
        const char c = d_[block_ + i];
        mask |= uint64_t{c == sep_ || c == '\n'} << i;
      }
#endif
    } else {
      for (size_t i = 0; block_ + i < end_; ++i) {
        const char c = d_[block_ + i];
        mask |= uint64_t{c == sep_ || c == '\n'} << i;
      }
    }
    mask_ = mask;
    block_ += 64;
  }

  const char* d_;
  size_t p_;      // where the next field starts
  size_t block_;  // the end of the block mask_ covers
  size_t end_;
  char sep_;
  uint64_t mask_ = 0;
  size_t quoted_fields_ = 0;
};

// Where the body [body, n) of `d` is cut into segments parsed in parallel:
// at least 1 MiB each, one per core, each cut after a "\n". Segment k is
// [bounds[k], bounds[k + 1]).
std::vector<size_t> SegmentBounds(const char* d, size_t body, size_t n) {
  constexpr size_t kMinSegmentBytes = size_t{1} << 20;
  const size_t body_size = n - body;
  const size_t threads = std::clamp<size_t>(std::thread::hardware_concurrency(), 2, kMaxCsvReadThreads);
  const size_t wanted = std::clamp<size_t>(body_size / kMinSegmentBytes, 1, threads);
  std::vector<size_t> bounds = {body};
  for (size_t k = 1; k < wanted; ++k) {
    const size_t from = std::max(body + body_size / wanted * k, bounds.back());
    const void* nl = std::memchr(d + from, '\n', n - from);
    if (nl == nullptr) break;
    const size_t cut = static_cast<const char*>(nl) - d + 1;
    if (cut < n && cut > bounds.back()) bounds.push_back(cut);
  }
  bounds.push_back(n);
  return bounds;
}

void AllocateRegularColumn(RegularColumn& column, size_t rows) {
  switch (column.kind) {
    case RegularKind::kInt64:
      return column.Allocate<int64_t>(rows);
    case RegularKind::kFloat64:
      return column.Allocate<double>(rows);
    case RegularKind::kText:
      return column.Allocate<std::string_view>(rows);
    case RegularKind::kBool:
      return column.Allocate<uint8_t>(rows);
    case RegularKind::kSkipped:
      return;
  }
}

// Parses the rows [first_row, end_row) of the segment [begin, end) of `d`
// (n bytes in all: a value may be read as a word past its field's end) into
// `columns`, marking in `seen` (chunk * width + column) each chunk where a
// text column saw a witness, and counting its quoted fields into
// `*quoted_fields`. False if a value does not fit its column's kind or the
// rows do not end where the segment does.
bool ParseRegularSegment(const char* d, size_t n, size_t begin, size_t end, char sep,
                         size_t first_row, size_t end_row, size_t chunk_rows,
                         const std::vector<RegularColumn>& columns, std::vector<uint8_t>& seen,
                         size_t* quoted_fields) {
  const size_t width = columns.size();
  std::vector<std::string_view> fields(width);
  RegularLineSplitter lines(d, begin, end, sep);
  for (const RegularColumn& column : columns) {
    if (column.bytes == nullptr) continue;
    PopulatePages(column.bytes + first_row * column.value_size,
                  column.bytes + end_row * column.value_size, kPopulateWrite);
  }
  size_t row = first_row;
  size_t chunk = row / chunk_rows;
  size_t next_chunk_row = (chunk + 1) * chunk_rows;
  uint8_t* chunk_seen = seen.data() + chunk * width;
  for (; row < end_row; ++row) {
    if (row == next_chunk_row) {
      ++chunk;
      next_chunk_row += chunk_rows;
      chunk_seen += width;
    }
    if (!lines.Next(width, fields.data())) return false;
    for (size_t j = 0; j < width; ++j) {
      const std::string_view t = fields[j];
      const RegularColumn& column = columns[j];
      switch (column.kind) {
        case RegularKind::kText:
          if (IsNaToken(t)) {
            std::construct_at(column.values<std::string_view>() + row);
          } else {
            std::construct_at(column.values<std::string_view>() + row, t);
            if (!chunk_seen[j]) chunk_seen[j] = IsTextWitness(t);
          }
          break;
        case RegularKind::kInt64: {
          int64_t v;
          if (!ParseShortDigits(t.data(), t.size(), static_cast<size_t>(d + n - t.data()), &v) &&
              ParseInt64(t, &v) != IntParse::kOk) {
            return false;
          }
          std::construct_at(column.values<int64_t>() + row, v);
          break;
        }
        case RegularKind::kFloat64: {
          double v = std::numeric_limits<double>::quiet_NaN();
          if (!IsNaToken(t) && !(ParseDouble(t, &v) && std::fabs(v) < kTwoTo63)) return false;
          std::construct_at(column.values<double>() + row, v);
          break;
        }
        case RegularKind::kBool: {
          bool v;
          if (!ParseBool(t, &v)) return false;
          std::construct_at(column.values<uint8_t>() + row, static_cast<uint8_t>(v));
          break;
        }
        case RegularKind::kSkipped:
          break;
      }
    }
  }
  *quoted_fields = lines.quoted_fields();
  return lines.position() == end;
}

// Whether every text column pandas would infer saw a witness in every
// chunk, in some segment (else pandas might have inferred another kind).
bool EveryChunkWitnessed(const std::vector<RegularColumn>& columns,
                         const std::vector<std::vector<uint8_t>>& witnessed, size_t num_chunks) {
  const size_t width = columns.size();
  for (size_t j = 0; j < width; ++j) {
    if (!columns[j].needs_witness) continue;
    for (size_t c = 0; c < num_chunks; ++c) {
      bool seen = false;
      for (size_t k = 0; k < witnessed.size() && !seen; ++k) {
        seen = witnessed[k][c * width + j] != 0;
      }
      if (!seen) return false;
    }
  }
  return true;
}

TypedColumn RegularTypedColumn(std::string name, const RegularColumn& column, size_t rows) {
  switch (column.kind) {
    case RegularKind::kInt64:
      return TypedColumn::Ints(std::move(name), {column.values<int64_t>(), rows}, column.owner);
    case RegularKind::kFloat64:
      return TypedColumn::Doubles(std::move(name), {column.values<double>(), rows}, column.owner);
    case RegularKind::kText:
      return TypedColumn::Text(std::move(name), {column.values<std::string_view>(), rows},
                               column.owner);
    case RegularKind::kBool:
    case RegularKind::kSkipped:  // never asked for
      break;
  }
  return TypedColumn::Bools(std::move(name), {column.values<uint8_t>(), rows}, column.owner);
}

}  // namespace

std::optional<std::vector<TypedColumn>> TryParseRegularBody(
    std::string_view data, size_t body, std::vector<std::string>& names,
    const std::vector<bool>& as_string, const std::vector<bool>& keep, char sep, size_t max_rows,
    size_t* body_rows) {
  const size_t width = names.size();
  if (width == 0 || body >= data.size()) return std::nullopt;
  const char* d = data.data();
  const size_t n = data.size();

  // Each column's kind, from the first row.
  std::vector<std::string_view> first(width);
  if (!RegularLineSplitter(d, body, n, sep).Next(width, first.data())) return std::nullopt;
  std::vector<RegularColumn> columns(width);
  for (size_t j = 0; j < width; ++j) {
    if (!keep[j]) {
      columns[j].kind = RegularKind::kSkipped;
      columns[j].needs_witness = false;
      continue;
    }
    const std::optional<RegularKind> kind = FirstValueKind(first[j], as_string[j]);
    if (!kind.has_value()) return std::nullopt;
    columns[j].kind = *kind;
    columns[j].needs_witness = *kind == RegularKind::kText && !as_string[j];
  }

  // Count each segment's rows, then parse the segments into their rows.
  const std::vector<size_t> bounds = SegmentBounds(d, body, n);
  const size_t segments = bounds.size() - 1;
  std::vector<size_t> rows(segments), quotes(segments);
  std::vector<uint8_t> scanned(segments);
  RunInParallel(segments, [&](size_t k) {
    PopulatePages(d + bounds[k], d + bounds[k + 1], kPopulateRead);
    scanned[k] = ScanRegularSegment(data.substr(bounds[k], bounds[k + 1] - bounds[k]), &rows[k],
                                    &quotes[k]);
  });
  std::vector<size_t> first_row(segments + 1, 0);
  for (size_t k = 0; k < segments; ++k) {
    if (!scanned[k]) return std::nullopt;
    first_row[k + 1] = first_row[k] + rows[k];
  }
  const size_t total_rows = first_row[segments];
  if (total_rows > max_rows) return std::nullopt;
  const size_t chunk_rows = ChunkRows(width);
  const size_t num_chunks = (total_rows + chunk_rows - 1) / chunk_rows;
  for (RegularColumn& column : columns) AllocateRegularColumn(column, total_rows);

  std::vector<uint8_t> parsed(segments);
  std::vector<size_t> quoted_fields(segments);
  std::vector<std::vector<uint8_t>> witnessed(segments);
  RunInParallel(segments, [&](size_t k) {
    witnessed[k].assign(num_chunks * width, 0);
    parsed[k] =
        ParseRegularSegment(d, n, bounds[k], bounds[k + 1], sep, first_row[k], first_row[k + 1],
                            chunk_rows, columns, witnessed[k], &quoted_fields[k]);
  });
  // Every quote must be one of a quoted field's two: a quote anywhere else
  // (inside an unquoted field) is the general reader's.
  for (size_t k = 0; k < segments; ++k) {
    if (!parsed[k] || quotes[k] != 2 * quoted_fields[k]) return std::nullopt;
  }
  if (!EveryChunkWitnessed(columns, witnessed, num_chunks)) return std::nullopt;

  std::vector<TypedColumn> typed;
  typed.reserve(width);
  for (size_t j = 0; j < width; ++j) {
    if (!keep[j]) continue;
    typed.push_back(RegularTypedColumn(std::move(names[j]), columns[j], total_rows));
  }
  *body_rows = total_rows;
  return typed;
}

}  // namespace mlebench::csv_internal
