#include "base/csv.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/internal/csv_inference.h"
#include "base/internal/csv_regular.h"
#include "base/internal/csv_values.h"
#include "base/internal/csv_words.h"
#include "base/status_macros.h"
#include "base/utf8.h"

namespace mlebench {

using namespace csv_internal;  // NOLINT: the reader's own internals

namespace {

// ---------------------------------------------------------------------------
// Positions and byte-level checks.

struct Position {
  int64_t line = 1;    // 1-based; "\n", "\r\n" and a lone "\r" end a line
  int64_t column = 1;  // 1-based byte offset within the line
};

// Only called when reporting an error, so a linear scan is fine.
Position PositionOf(std::string_view data, size_t offset) {
  Position pos;
  size_t line_start = 0;
  for (size_t i = 0; i < offset && i < data.size(); ++i) {
    if (data[i] == '\n' || (data[i] == '\r' && (i + 1 >= data.size() || data[i + 1] != '\n'))) {
      ++pos.line;
      line_start = i + 1;
    }
  }
  pos.column = static_cast<int64_t>(offset - line_start) + 1;
  return pos;
}

absl::Status ErrorAt(std::string_view source, std::string_view data, size_t offset,
                     std::string_view message) {
  const Position pos = PositionOf(data, offset);
  return absl::InvalidArgumentError(absl::StrCat(std::string(source), ": line ", pos.line,
                                                 ", column ", pos.column, ": ",
                                                 std::string(message)));
}

// pandas decodes the whole file as strict UTF-8 (UnicodeDecodeError
// otherwise). NUL bytes it would silently treat as string terminators; we
// reject them instead, as they only occur in binary or corrupt files.
absl::Status CheckBytes(std::string_view data, std::string_view source) {
  constexpr uint64_t kHigh = 0x8080808080808080ull;
  constexpr uint64_t kLow = 0x0101010101010101ull;
  size_t i = 0;
  while (i < data.size()) {
    if (i + 8 <= data.size()) {
      uint64_t word;
      std::memcpy(&word, data.data() + i, 8);
      const bool has_zero = ((word - kLow) & ~word & kHigh) != 0;
      if ((word & kHigh) == 0 && !has_zero) {
        i += 8;
        continue;
      }
    }
    if (data[i] == '\0') {
      return ErrorAt(source, data, i, "NUL byte: binary content is not CSV text");
    }
    const size_t len = Utf8SequenceLength(data, i);
    if (len == 0) {
      return ErrorAt(source, data, i, "invalid UTF-8: binary content is not CSV text");
    }
    i += len;
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------
// Tokenizer: pandas' C tokenizer with read_csv's defaults (quotechar '"',
// doublequote, skip_blank_lines) and a one-byte delimiter (`sep`, "," by
// default).

// Stable storage for fields that cannot be views into the input (those with
// doubled quotes or text after a closing quote).
class Arena {
 public:
  std::string_view Store(std::string_view s) {
    if (s.size() > kChunkSize / 4) {
      chunks_.push_back(std::make_unique<char[]>(s.size()));
      std::memcpy(chunks_.back().get(), s.data(), s.size());
      return std::string_view(chunks_.back().get(), s.size());
    }
    if (current_ == nullptr || used_ + s.size() > kChunkSize) {
      chunks_.push_back(std::make_unique<char[]>(kChunkSize));
      current_ = chunks_.back().get();
      used_ = 0;
    }
    char* dst = current_ + used_;
    std::memcpy(dst, s.data(), s.size());
    used_ += s.size();
    return std::string_view(dst, s.size());
  }

 private:
  static constexpr size_t kChunkSize = 1 << 16;
  std::vector<std::unique_ptr<char[]>> chunks_;
  char* current_ = nullptr;
  size_t used_ = 0;
};

// The offset of the first delimiter, "\n" or "\r" at or after `p` (or `n`),
// 16 bytes at a time with SSE2 (every x86-64 has it), else eight with word
// arithmetic: unquoted fields are most of a large CSV.
inline size_t FieldEnd(const char* d, size_t p, size_t n, char sep) {
#if defined(__SSE2__)
  const __m128i seps = _mm_set1_epi8(sep), newlines = _mm_set1_epi8('\n'),
                returns = _mm_set1_epi8('\r');
  while (p + 16 <= n) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(d + p));
    const int hits = _mm_movemask_epi8(
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, seps), _mm_cmpeq_epi8(bytes, newlines)),
                     _mm_cmpeq_epi8(bytes, returns)));
    if (hits != 0) return p + static_cast<size_t>(std::countr_zero(static_cast<unsigned>(hits)));
    p += 16;
  }
#endif
  const uint64_t seps64 = Broadcast(sep), newlines64 = Broadcast('\n'), returns64 = Broadcast('\r');
  while (p + 8 <= n) {
    uint64_t word;
    std::memcpy(&word, d + p, 8);
    const uint64_t hits = ZeroBytes(word ^ seps64) | ZeroBytes(word ^ newlines64) |
                          ZeroBytes(word ^ returns64);
    if (hits != 0) {
      const int bit = std::endian::native == std::endian::little ? std::countr_zero(hits)
                                                                  : std::countl_zero(hits);
      return p + static_cast<size_t>(bit) / 8;
    }
    p += 8;
  }
  while (p < n && d[p] != sep && d[p] != '\n' && d[p] != '\r') ++p;
  return p;
}

// The number of "\n" bytes in `data`.
size_t CountNewlines(std::string_view data) {
  const uint64_t newlines = Broadcast('\n');
  size_t count = 0, i = 0;
  for (; i + 8 <= data.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, data.data() + i, 8);
    count += CountMarkedBytes(ZeroBytes(word ^ newlines));
  }
  for (; i < data.size(); ++i) count += data[i] == '\n';
  return count;
}

class Tokenizer {
 public:
  enum class Result { kRecord, kEnd, kUnterminatedQuote };

  // Fields that cannot be views into `data` are stored in `arena`.
  Tokenizer(std::string_view data, size_t start, char separator, Arena& arena)
      : data_(data), pos_(start), sep_(separator), arena_(arena) {}

  // Reads the next record that is not blank into `fields` (views valid while
  // this tokenizer lives) and the offset where each field starts into
  // `starts`. Only the first `max_kept` fields are kept (a record of a
  // billion delimiters must not take a billion views); field_count() says
  // how many the record had.
  Result Next(std::vector<std::string_view>& fields, std::vector<size_t>& starts,
              size_t max_kept = std::numeric_limits<size_t>::max()) {
    fields.clear();
    starts.clear();
    count_ = 0;
    // Each field ends with one of these, which counts it (and keeps it while
    // there is room).
    const auto keep = [&](size_t start, std::string_view field) {
      if (count_++ < max_kept) {
        starts.push_back(start);
        fields.push_back(field);
      }
    };
    const char* d = data_.data();
    const size_t n = data_.size();
    const char sep = sep_;
    // Skip blank lines: empty, or only spaces and tabs other than the
    // delimiter (pandas' WHITESPACE_LINE state backtracks to the line start
    // when it meets the delimiter).
    while (true) {
      if (pos_ >= n) return Result::kEnd;
      size_t p = pos_;
      while (p < n && (d[p] == ' ' || d[p] == '\t') && d[p] != sep) ++p;
      if (p >= n) {
        pos_ = n;
        return Result::kEnd;
      }
      if (d[p] == '\n') {
        pos_ = p + 1;
        continue;
      }
      if (d[p] == '\r') {
        // pandas' EAT_CRNL_NOP state consumes the byte after a blank line's
        // "\r" when it is "\n" or, oddly, the delimiter.
        ++p;
        if (p < n && (d[p] == '\n' || d[p] == sep)) ++p;
        pos_ = p;
        continue;
      }
      break;
    }
    record_start_ = pos_;
    size_t p = pos_;
    while (true) {
      // START_FIELD
      const size_t field_start = p;
      const bool kept = count_ < max_kept;
      if (p >= n) {  // after a trailing delimiter
        keep(field_start, std::string_view());
        pos_ = n;
        return Result::kRecord;
      }
      const char c = d[p];
      if (c == '"') {
        quote_start_ = p;
        size_t q = p + 1;
        scratch_.clear();
        bool copied = false;
        size_t content_start = q;
        size_t close;
        while (true) {
          const void* hit = std::memchr(d + q, '"', n - q);
          if (hit == nullptr) return Result::kUnterminatedQuote;
          close = static_cast<const char*>(hit) - d;
          if (close + 1 < n && d[close + 1] == '"') {  // doubled quote
            if (kept) scratch_.append(d + content_start, close + 1 - content_start);
            copied = true;
            q = close + 2;
            content_start = q;
            continue;
          }
          break;
        }
        p = close + 1;
        // QUOTE_IN_QUOTED_FIELD: anything but a delimiter or line end
        // continues the field unquoted (quotes there are literal).
        if (p < n && d[p] != sep && d[p] != '\n' && d[p] != '\r') {
          size_t e = p;
          while (e < n && d[e] != sep && d[e] != '\n' && d[e] != '\r') ++e;
          if (kept) {
            scratch_.append(d + content_start, close - content_start);
            scratch_.append(d + p, e - p);
            keep(field_start, arena_.Store(scratch_));
          } else {
            keep(field_start, std::string_view());
          }
          p = e;
        } else if (copied) {
          if (kept) {
            scratch_.append(d + content_start, close - content_start);
            keep(field_start, arena_.Store(scratch_));
          } else {
            keep(field_start, std::string_view());
          }
        } else {
          keep(field_start, std::string_view(d + content_start, close - content_start));
        }
      } else {
        const size_t e = FieldEnd(d, p, n, sep);
        keep(field_start, std::string_view(d + p, e - p));
        p = e;
      }
      // After a field: delimiter, line end or end of data.
      if (p >= n) {
        pos_ = n;
        return Result::kRecord;
      }
      if (d[p] == sep) {
        ++p;
        continue;
      }
      if (d[p] == '\r') {
        ++p;
        if (p < n && d[p] == '\n') ++p;
      } else {  // '\n'
        ++p;
      }
      pos_ = p;
      return Result::kRecord;
    }
  }

  size_t record_start() const { return record_start_; }
  size_t quote_start() const { return quote_start_; }
  // The number of fields of the record Next() read last, kept or not.
  size_t field_count() const { return count_; }
  // Where the next record (or blank line) starts.
  size_t position() const { return pos_; }

 private:
  std::string_view data_;
  size_t pos_;
  char sep_;
  size_t record_start_ = 0;
  size_t quote_start_ = 0;
  size_t count_ = 0;
  std::string scratch_;
  Arena& arena_;
};

// ---------------------------------------------------------------------------
// Header names, as pandas' TextReader builds them.

std::vector<std::string> UnnamedHeader(const std::vector<std::string_view>& fields) {
  std::vector<std::string> names;
  names.reserve(fields.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    names.push_back(fields[i].empty() ? absl::StrCat("Unnamed: ", i) : std::string(fields[i]));
  }
  return names;
}

// Renames duplicates the way pandas does: the second "a" becomes "a.1", or
// the next "a.<k>" that is neither in the header nor already produced.
// Columns with a name go first, so that "Unnamed: <i>" made up for an empty
// name is the one renamed if the header also has that name.
std::vector<std::string> DedupHeader(std::vector<std::string> names,
                                     const std::vector<std::string_view>& fields) {
  std::vector<size_t> order;
  order.reserve(names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    if (!fields[i].empty()) order.push_back(i);
  }
  for (size_t i = 0; i < names.size(); ++i) {
    if (fields[i].empty()) order.push_back(i);
  }
  std::unordered_map<std::string, int64_t> counts;
  std::unordered_map<std::string, int64_t> in_header;  // name -> occurrences
  for (const std::string& name : names) ++in_header[name];
  for (size_t i : order) {
    std::string& name = names[i];
    const std::string old_name = name;
    std::string col = name;
    int64_t cur_count = counts.count(col) ? counts[col] : 0;
    while (cur_count > 0) {
      counts[old_name] = cur_count + 1;
      col = absl::StrCat(old_name, ".", cur_count);
      if (in_header.count(col) > 0) {
        ++cur_count;
      } else {
        auto it = counts.find(col);
        cur_count = it == counts.end() ? 0 : it->second;
      }
    }
    if (col != name) {
      // pandas renames in place, so later membership tests see the new name.
      if (--in_header[name] == 0) in_header.erase(name);
      ++in_header[col];
      name = col;
    }
    counts[col] = cur_count + 1;
  }
  return names;
}

// ---------------------------------------------------------------------------
// Header.

struct HeaderColumns {
  std::vector<std::string> names;  // as pandas names the columns
  std::vector<bool> as_string;     // per column: read as str (no inference)
  std::vector<bool> keep;          // per column: in the table (only_columns)
};

HeaderColumns MakeHeader(const std::vector<std::string_view>& fields,
                         const CsvReadOptions& options) {
  HeaderColumns header;
  const std::vector<std::string> original_names = UnnamedHeader(fields);
  header.names = DedupHeader(original_names, fields);
  const std::set<std::string> string_columns(options.string_columns.begin(),
                                             options.string_columns.end());
  const std::set<std::string> only_columns(options.only_columns.begin(),
                                           options.only_columns.end());
  header.as_string.resize(header.names.size());
  header.keep.resize(header.names.size());
  for (size_t j = 0; j < header.names.size(); ++j) {
    header.keep[j] = only_columns.empty() || only_columns.count(header.names[j]) > 0;
    // pandas applies a dtype given for "a" to a duplicate renamed "a.1".
    header.as_string[j] = string_columns.count(header.names[j]) > 0 ||
                          string_columns.count(original_names[j]) > 0;
    // A column that is dropped needs no inference: on the general path it
    // is read as text, which parses nothing (the regular path skips it).
    if (!header.keep[j]) header.as_string[j] = true;
  }
  return header;
}

std::string ErrnoText(int err) { return std::strerror(err); }

}  // namespace

absl::Status CheckCsvSeparator(char separator) {
  static constexpr std::string_view kSeparators = ",\t;|";
  if (kSeparators.find(separator) == std::string_view::npos) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unsupported CSV separator byte ", static_cast<int>(static_cast<unsigned char>(separator)),
        ": use one of ',', '\\t', ';', '|'"));
  }
  return absl::OkStatus();
}

namespace {
// Far more than any Kaggle table; guards memory against a header of commas.
constexpr size_t kMaxColumns = size_t{1} << 22;
}  // namespace

namespace {

// The columns of CSV text `data`, as views into `data` and `arena`, those
// of options.only_columns where it names any; *shape is set to what was
// parsed.
absl::StatusOr<std::vector<TypedColumn>> ParseCsv(std::string_view data,
                                                  std::string_view source_name,
                                                  const CsvReadOptions& options, Arena& arena,
                                                  CsvShape& shape) {
  shape = CsvShape{};
  if (static_cast<int64_t>(data.size()) > options.max_bytes) {
    return absl::InvalidArgumentError(absl::StrCat(std::string(source_name), ": ", data.size(),
                                                   " bytes is more than the limit of ",
                                                   options.max_bytes, " bytes"));
  }
  RETURN_IF_ERROR(CheckCsvSeparator(options.separator));
  // Bytes are checked before anything is parsed (errors name the first bad
  // byte), except by the regular-file path, which checks them itself and
  // otherwise leaves the whole file to this one.

  size_t start = 0;
  if (data.substr(0, 3) == "\xEF\xBB\xBF") start = 3;
  Tokenizer tokenizer(data, start, options.separator, arena);
  std::vector<std::string_view> fields;
  std::vector<size_t> starts;

  auto unterminated = [&]() {
    return ErrorAt(source_name, data, tokenizer.quote_start(),
                   "quoted field is not closed before the end of the data");
  };

  // The caller's cap on cells: rows x columns, the header row included.
  const size_t cell_cap = options.max_cells > 0 ? static_cast<size_t>(options.max_cells)
                                                : std::numeric_limits<size_t>::max();
  const auto too_many_cells = [&](size_t rows, size_t columns) {
    return absl::ResourceExhaustedError(
        absl::StrCat(std::string(source_name), ": ", rows, " or more rows of ", columns,
                     " columns (the header row included) are more than the limit of ", cell_cap,
                     " cells"));
  };
  const size_t column_cap = options.max_columns > 0
                                ? std::min(kMaxColumns, static_cast<size_t>(options.max_columns))
                                : kMaxColumns;
  const auto too_many_columns = [&](size_t columns) {
    return absl::ResourceExhaustedError(
        absl::StrCat(std::string(source_name), ": ", columns,
                     " columns are more than the limit of ", column_cap));
  };
  // Fields kept of a header (or first row) that may be too wide: enough to
  // tell either limit was passed, and where.
  const size_t max_wide_fields = std::min(kMaxColumns, cell_cap) + 1;

  Tokenizer::Result result = tokenizer.Next(fields, starts, max_wide_fields);
  // The header's bytes first: they decide the error if the whole file is
  // checked, and names are only made of checked text.
  RETURN_IF_ERROR(CheckBytes(
      data.substr(0, result == Tokenizer::Result::kRecord ? tokenizer.position() : data.size()),
      source_name));
  if (result == Tokenizer::Result::kUnterminatedQuote) return unterminated();
  // No header: pandas raises EmptyDataError, which upstream turns into an
  // empty DataFrame.
  if (result == Tokenizer::Result::kEnd) return std::vector<TypedColumn>();

  if (tokenizer.field_count() > cell_cap) return too_many_cells(1, tokenizer.field_count());
  if (column_cap < kMaxColumns && tokenizer.field_count() > column_cap) {
    return too_many_columns(tokenizer.field_count());
  }
  if (fields.size() > kMaxColumns) {
    RETURN_IF_ERROR(CheckBytes(data, source_name));
    return ErrorAt(source_name, data, starts[kMaxColumns],
                   absl::StrCat("more than ", kMaxColumns, " columns"));
  }
  HeaderColumns header = MakeHeader(fields, options);
  std::vector<std::string>& names = header.names;
  const std::vector<bool>& as_string = header.as_string;
  const size_t header_width = names.size();
  // Body rows within the cap (the header row takes one row's worth).
  const size_t max_body_rows = cell_cap / std::max<size_t>(header_width, 1) - 1;

  size_t regular_rows = 0;
  if (std::optional<std::vector<TypedColumn>> regular =
          TryParseRegularBody(data, tokenizer.position(), names, as_string, header.keep,
                              options.separator, max_body_rows, &regular_rows)) {
    shape = CsvShape{.rows = static_cast<int64_t>(regular_rows),
                     .columns = static_cast<int64_t>(header_width)};
    return *std::move(regular);
  }
  PopulatePages(data.data(), data.data() + data.size(), kPopulateRead);
  RETURN_IF_ERROR(CheckBytes(data, source_name));

  // Padding short rows creates cells from nothing: a few header bytes and
  // many short lines could ask for more memory than any machine has. Real
  // files stay far below these limits (pandas has none and would run out of
  // memory instead).
  const size_t max_cells = 16 * data.size() + (size_t{1} << 20);
  size_t num_rows = 0;

  ChunkPipeline pipeline(as_string);

  // pandas takes the first data row's width: a wider first row makes its
  // extra leading fields the index (which we drop); later rows may be
  // shorter (padded with NaN) but not wider.
  size_t width = header_width;
  size_t leading = 0;
  size_t chunk_rows = 0;
  bool first_row = true;
  while (true) {
    // A row wider than the first is an error, so one more field than that
    // is all there is to keep.
    result = tokenizer.Next(fields, starts, first_row ? max_wide_fields : width + 1);
    if (result == Tokenizer::Result::kEnd) break;
    if (result == Tokenizer::Result::kUnterminatedQuote) return unterminated();
    if (first_row) {
      first_row = false;
      if (tokenizer.field_count() > cell_cap) return too_many_cells(2, tokenizer.field_count());
      if (column_cap < kMaxColumns && tokenizer.field_count() > column_cap) {
        return too_many_columns(tokenizer.field_count());
      }
      if (fields.size() > kMaxColumns) {
        return ErrorAt(source_name, data, starts[kMaxColumns],
                       absl::StrCat("more than ", kMaxColumns, " fields"));
      }
      if (fields.size() > header_width) {
        width = fields.size();
        leading = width - header_width;
      }
      chunk_rows = ChunkRows(width);
      // An estimate of the row count from the first 1 MiB (a reservation
      // that is too large costs address space only; one too small, a copy).
      const std::string_view sample = data.substr(0, size_t{1} << 20);
      const size_t expected_rows = std::min<size_t>(
          data.size() / std::max<size_t>(sample.size() / (CountNewlines(sample) + 1), 1) + 16,
          std::min(max_cells / header_width, max_body_rows));
      pipeline.Reserve(chunk_rows, expected_rows);
    } else if (tokenizer.field_count() > width) {
      return ErrorAt(source_name, data, starts[width],
                     absl::StrCat("expected ", width, " fields, saw ", tokenizer.field_count()));
    }
    if (++num_rows > max_body_rows) return too_many_cells(num_rows + 1, header_width);
    if (num_rows > max_cells / header_width) {
      return ErrorAt(source_name, data, tokenizer.record_start(),
                     absl::StrCat(num_rows, " rows of ", header_width,
                                  " columns are too many cells for ", data.size(), " bytes"));
    }
    TokenChunk& buffer = pipeline.filling();
    for (size_t j = leading; j < width; ++j) {
      buffer.columns[j - leading].push_back(j < fields.size() ? fields[j] : std::string_view());
    }
    if (++buffer.rows == chunk_rows) pipeline.Flush();
  }
  std::vector<ColumnParts>& parts = pipeline.Finish();

  std::vector<TypedColumn> columns;
  columns.reserve(header_width);
  for (size_t j = 0; j < header_width; ++j) {
    if (!header.keep[j]) continue;
    columns.push_back(AssembleColumn(std::move(names[j]), parts[j]));
  }
  shape = CsvShape{.rows = static_cast<int64_t>(num_rows),
                   .columns = static_cast<int64_t>(header_width)};
  return columns;
}

// The text of a CSV source and the arena its fields are stored in besides:
// what a TypedTable's text views point into.
struct CsvBytes {
  // A file's bytes are mapped read-only (no copy, no zeroed buffer); other
  // text is copied into `copy`.
  const char* mapped = nullptr;
  size_t mapped_size = 0;
  std::unique_ptr<char[]> copy;
  size_t size = 0;
  Arena arena;

  CsvBytes() = default;
  CsvBytes(const CsvBytes&) = delete;
  CsvBytes& operator=(const CsvBytes&) = delete;
  ~CsvBytes() {
    if (mapped != nullptr) ::munmap(const_cast<char*>(mapped), mapped_size);
  }
  std::string_view view() const {
    return std::string_view(mapped != nullptr ? mapped : copy.get(), size);
  }
};

absl::StatusOr<TypedTable> ParseOwned(std::shared_ptr<CsvBytes> bytes,
                                      std::string_view source_name,
                                      const CsvReadOptions& options, CsvShape* shape) {
  CsvShape parsed;
  ASSIGN_OR_RETURN(std::vector<TypedColumn> columns,
                   ParseCsv(bytes->view(), source_name, options, bytes->arena, parsed));
  if (shape != nullptr) *shape = parsed;
  return TypedTable(std::move(columns), std::move(bytes));
}

}  // namespace

absl::StatusOr<TypedTable> ReadTypedCsvString(std::string_view data, std::string_view source_name,
                                              const CsvReadOptions& options, CsvShape* shape) {
  auto bytes = std::make_shared<CsvBytes>();
  bytes->copy.reset(new char[data.size()]);
  std::memcpy(bytes->copy.get(), data.data(), data.size());
  bytes->size = data.size();
  return ParseOwned(std::move(bytes), source_name, options, shape);
}

absl::StatusOr<Table> ReadCsvString(std::string_view data, std::string_view source_name,
                                    const CsvReadOptions& options) {
  Arena arena;
  CsvShape shape;
  ASSIGN_OR_RETURN(std::vector<TypedColumn> columns,
                   ParseCsv(data, source_name, options, arena, shape));
  return TypedTable(std::move(columns), nullptr).ToTable();
}

absl::StatusOr<TypedTable> ReadTypedCsvFile(const std::string& path,
                                            const CsvReadOptions& options, CsvShape* shape) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    const std::string message = absl::StrCat("cannot open '", path, "': ", ErrnoText(err));
    return err == ENOENT ? absl::NotFoundError(message) : absl::InvalidArgumentError(message);
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};

  struct stat info;
  if (::fstat(fd, &info) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot stat '", path, "': ", ErrnoText(errno)));
  }
  if (!S_ISREG(info.st_mode)) {
    return absl::InvalidArgumentError(absl::StrCat("'", path, "' is not a regular file"));
  }
  if (info.st_size > options.max_bytes) {
    return absl::InvalidArgumentError(absl::StrCat("'", path, "' has ", info.st_size,
                                                   " bytes, more than the limit of ",
                                                   options.max_bytes, " bytes"));
  }
  auto bytes = std::make_shared<CsvBytes>();
  const size_t capacity = static_cast<size_t>(info.st_size);
  // Large files are mapped (the parse maps their pages in, see
  // PopulatePages); small ones, and any file the kernel will not map,
  // are read into a copy.
  if (capacity >= (size_t{1} << 20)) {
    void* mapped = ::mmap(nullptr, capacity, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapped != MAP_FAILED) {
      bytes->mapped = static_cast<const char*>(mapped);
      bytes->mapped_size = capacity;
      bytes->size = capacity;
      return ParseOwned(std::move(bytes), path, options, shape);
    }
  }
  bytes->copy.reset(new char[capacity]);
  size_t got = 0;
  while (got < capacity) {
    const ssize_t r = ::read(fd, bytes->copy.get() + got, capacity - got);
    if (r < 0) {
      if (errno == EINTR) continue;
      return absl::InvalidArgumentError(
          absl::StrCat("cannot read '", path, "': ", ErrnoText(errno)));
    }
    if (r == 0) break;  // the file shrank
    got += static_cast<size_t>(r);
  }
  bytes->size = got;
  return ParseOwned(std::move(bytes), path, options, shape);
}

absl::StatusOr<Table> ReadCsvFile(const std::string& path, const CsvReadOptions& options) {
  ASSIGN_OR_RETURN(TypedTable table, ReadTypedCsvFile(path, options));
  return table.ToTable();
}

}  // namespace mlebench
