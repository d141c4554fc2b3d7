#include "base/csv.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <future>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/internal/csv_values.h"
#include "base/parallel.h"
#include "base/python_float.h"
#include "base/status_macros.h"
#include "base/utf8.h"

namespace mlebench {
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

// 0x80 in each byte of `word` that is zero, 0 elsewhere (exact, unlike the
// shorter test that may flag a byte above a zero one).
inline uint64_t ZeroBytes(uint64_t word) {
  constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7Full;
  return ~(((word & kLow7) + kLow7) | word | kLow7);
}

inline uint64_t Broadcast(char c) {
  return 0x0101010101010101ull * static_cast<unsigned char>(c);
}

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

// The number of bytes ZeroBytes marked in `marks`: one 0x01 per marked byte,
// summed into the top byte (the popcnt instruction is not in the baseline
// x86-64 this is built for; the library call is slower).
inline size_t CountMarkedBytes(uint64_t marks) {
  return static_cast<size_t>(((marks >> 7) * 0x0101010101010101ull) >> 56);
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

using namespace csv_internal;  // NOLINT: the reader's own value parsing

// ---------------------------------------------------------------------------
// Column dtype inference. For each column pandas tries int64 (falling back to
// uint64 on overflow), then float64, then bool, then object. With its default
// low_memory=True it does so separately for each chunk of rows and then
// concatenates the chunks numpy-style, so a large file can mix types.

// A chunk's dtype as pandas infers it ('i', 'u', 'f', 'b' and 'O' kinds).
enum class Kind { kInt64, kUint64, kFloat64, kBool, kObject };

// One chunk of one column; only the vector matching `kind` is filled (for
// kObject: `text`, strings and missing values as TypedColumn's kText holds
// them, or `objects` for bools mixed with missing values).
struct Chunk {
  Kind kind = Kind::kObject;
  std::vector<int64_t> ints;
  std::vector<uint64_t> uints;
  std::vector<double> doubles;  // NaN for missing
  std::vector<uint8_t> bools;
  std::vector<std::string_view> text;
  std::vector<Cell> objects;  // bool or std::monostate
};

using TokenSpan = std::span<const std::string_view>;

// A present empty string: non-null data, unlike a missing kText value.
constexpr std::string_view kEmptyText = "";

void FillObjects(TokenSpan tokens, bool na_filter, Chunk& chunk) {
  chunk.kind = Kind::kObject;
  chunk.text.clear();
  for (std::string_view t : tokens) {
    if (na_filter && IsNaToken(t)) {
      chunk.text.emplace_back();
    } else {
      chunk.text.push_back(t.data() == nullptr ? kEmptyText : t);
    }
  }
}

// pandas' uint64 attempt after an int64 overflow. Returns false when some
// value is not an integer (pandas then tries float64).
bool TryUint64(TokenSpan tokens, Chunk& chunk) {
  bool seen_negative = false, seen_uint = false, seen_null = false;
  std::vector<uint64_t>& values = chunk.uints;
  values.assign(tokens.size(), 0);
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (IsNaToken(tokens[i])) {
      seen_null = true;
      continue;
    }
    bool negative;
    switch (ParseUint64(tokens[i], &values[i], &negative)) {
      case IntParse::kInvalid:
        return false;
      case IntParse::kOverflow:  // beyond uint64: object
        FillObjects(tokens, /*na_filter=*/true, chunk);
        return true;
      case IntParse::kOk:
        break;
    }
    if (negative) seen_negative = true;
    if (values[i] > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) seen_uint = true;
  }
  if (seen_uint && (seen_negative || seen_null)) {
    // pandas' "both negative and > int64 max" ValueError path: object, with
    // the NA tokens left as text.
    FillObjects(tokens, /*na_filter=*/false, chunk);
  } else if (seen_negative) {  // below int64's minimum
    FillObjects(tokens, /*na_filter=*/true, chunk);
  } else {
    chunk.kind = Kind::kUint64;
  }
  return true;
}

// Infers one chunk of one column into `chunk`, whose vectors are reused from
// chunk to chunk (cleared, their memory kept): only the vector of the
// inferred kind holds this chunk's values afterwards.
void InferChunk(TokenSpan tokens, Chunk& chunk) {
  const size_t n = tokens.size();
  chunk.ints.clear();
  chunk.uints.clear();
  chunk.doubles.clear();
  chunk.bools.clear();
  chunk.text.clear();
  chunk.objects.clear();
  // int64; pandas marks NA with INT64_MIN and, if there was any NA, turns
  // every INT64_MIN into NaN when it upcasts to float64.
  {
    std::vector<int64_t>& values = chunk.ints;
    size_t na_count = 0;
    IntParse status = IntParse::kOk;
    for (size_t i = 0; i < n && status == IntParse::kOk; ++i) {
      if (IsNaToken(tokens[i])) {
        values.push_back(std::numeric_limits<int64_t>::min());
        ++na_count;
        continue;
      }
      int64_t v = 0;
      status = ParseInt64(tokens[i], &v);
      values.push_back(v);
    }
    if (status == IntParse::kOk) {
      if (na_count == 0) {
        chunk.kind = Kind::kInt64;
      } else {
        chunk.kind = Kind::kFloat64;
        for (int64_t v : values) {
          chunk.doubles.push_back(v == std::numeric_limits<int64_t>::min()
                                      ? std::numeric_limits<double>::quiet_NaN()
                                      : static_cast<double>(v));
        }
        values.clear();
      }
      return;
    }
    values.clear();
    if (status == IntParse::kOverflow && TryUint64(tokens, chunk)) return;
    chunk.uints.clear();
  }
  // float64
  {
    std::vector<double>& values = chunk.doubles;
    bool ok = true;
    for (size_t i = 0; i < n && ok; ++i) {
      if (IsNaToken(tokens[i])) {
        values.push_back(std::numeric_limits<double>::quiet_NaN());
        continue;
      }
      double v = 0;
      ok = ParseDouble(tokens[i], &v);
      values.push_back(v);
    }
    if (ok) {
      chunk.kind = Kind::kFloat64;
      return;
    }
    values.clear();
  }
  // bool; with any NA pandas upcasts to object holding bools and NaN.
  {
    std::vector<uint8_t>& values = chunk.bools;
    size_t na_count = 0;
    bool ok = true;
    for (size_t i = 0; i < n && ok; ++i) {
      if (IsNaToken(tokens[i])) {
        values.push_back(2);
        ++na_count;
        continue;
      }
      bool b = false;
      ok = ParseBool(tokens[i], &b);
      values.push_back(b ? 1 : 0);
    }
    if (ok) {
      if (na_count == 0) {
        chunk.kind = Kind::kBool;
      } else {
        chunk.kind = Kind::kObject;
        for (uint8_t v : values) {
          if (v == 2) {
            chunk.objects.emplace_back(std::monostate());
          } else {
            chunk.objects.emplace_back(v == 1);
          }
        }
        values.clear();
      }
      return;
    }
    values.clear();
  }
  FillObjects(tokens, /*na_filter=*/true, chunk);
}

// A column's chunks, appended one by one in row order: each kind's values
// in one vector, and which slice of it each chunk is. A column whose chunks
// all have one kind is that vector as is (no concatenation copy).
struct ColumnParts {
  struct Part {
    Kind kind;
    bool as_objects;  // kObject held in `objects` rather than `text`
    size_t begin;
    size_t count;
  };
  std::vector<int64_t> ints;
  std::vector<uint64_t> uints;
  std::vector<double> doubles;
  std::vector<uint8_t> bools;
  std::vector<std::string_view> text;
  std::vector<Cell> objects;
  std::vector<Part> parts;

  // Appends `chunk`'s values; a vector used for the first time reserves
  // `expected_rows` (address space only until written).
  void Append(Chunk& chunk, size_t expected_rows) {
    const auto append = [&](auto& to, auto& from, bool as_objects = false) {
      if (to.empty()) to.reserve(std::max(expected_rows, from.size()));
      parts.push_back({chunk.kind, as_objects, to.size(), from.size()});
      to.insert(to.end(), std::make_move_iterator(from.begin()),
                std::make_move_iterator(from.end()));
    };
    switch (chunk.kind) {
      case Kind::kInt64:
        return append(ints, chunk.ints);
      case Kind::kUint64:
        return append(uints, chunk.uints);
      case Kind::kFloat64:
        return append(doubles, chunk.doubles);
      case Kind::kBool:
        return append(bools, chunk.bools);
      case Kind::kObject:
        if (!chunk.objects.empty()) return append(objects, chunk.objects, /*as_objects=*/true);
        return append(text, chunk.text);
    }
  }
};

// How pandas 2.x's concat_compat combines chunks of different kinds: the
// chunks are cast to numpy's common type (i/u/f mix to a number type, b with
// numbers to a number type, anything with O to object); if a bool chunk was
// cast to a number type (True -> 1), the result is then made object
// (GH#39817), holding numbers.
struct Concatenation {
  Kind kind;
  bool numbers_as_object = false;
};

Concatenation ConcatenatedKind(const std::vector<ColumnParts::Part>& parts) {
  bool has[5] = {false, false, false, false, false};
  for (const ColumnParts::Part& p : parts) has[static_cast<int>(p.kind)] = true;
  const bool i = has[static_cast<int>(Kind::kInt64)], u = has[static_cast<int>(Kind::kUint64)],
             f = has[static_cast<int>(Kind::kFloat64)], b = has[static_cast<int>(Kind::kBool)],
             o = has[static_cast<int>(Kind::kObject)];
  if (i + u + f + b + o == 1) return {parts.front().kind};
  if (o) return {Kind::kObject};
  // numpy's result type of the numeric kinds (bool promotes to any of them).
  const Kind number = f || (i && u) ? Kind::kFloat64 : i ? Kind::kInt64 : Kind::kUint64;
  return {number, b};
}

// A column whose concatenation is one typed vector: its chunks' one vector as
// is, or float64 made of float64, int64 and uint64 chunks. nullopt when it is
// cells (several kinds with bools or text, uint64, numbers as objects).
std::optional<TypedColumn> ConcatenateTyped(std::string& name, ColumnParts& column,
                                            const Concatenation& concatenation) {
  const Kind kind = concatenation.kind;
  if (concatenation.numbers_as_object) return std::nullopt;
  const bool single_kind =
      std::all_of(column.parts.begin(), column.parts.end(),
                  [&](const ColumnParts::Part& p) { return p.kind == kind && !p.as_objects; });
  if (single_kind) {
    switch (kind) {
      case Kind::kInt64:
        return TypedColumn::Ints(std::move(name), std::move(column.ints));
      case Kind::kFloat64:
        return TypedColumn::Doubles(std::move(name), std::move(column.doubles));
      case Kind::kBool:
        return TypedColumn::Bools(std::move(name), std::move(column.bools));
      case Kind::kObject:
        return TypedColumn::Text(std::move(name), std::move(column.text));
      case Kind::kUint64:
        break;
    }
  }
  if (kind != Kind::kFloat64) return std::nullopt;
  std::vector<double> values;
  for (const ColumnParts::Part& p : column.parts) {
    for (size_t k = p.begin; k < p.begin + p.count; ++k) {
      switch (p.kind) {
        case Kind::kFloat64:
          values.push_back(column.doubles[k]);
          break;
        case Kind::kInt64:
          values.push_back(static_cast<double>(column.ints[k]));
          break;
        case Kind::kUint64:
          values.push_back(static_cast<double>(column.uints[k]));
          break;
        case Kind::kBool:
        case Kind::kObject:
          break;  // not part of a float64 concatenation without bools
      }
    }
  }
  return TypedColumn::Doubles(std::move(name), std::move(values));
}

std::string UintText(uint64_t v) {
  char buf[24];
  return std::string(buf, std::to_chars(buf, buf + sizeof(buf), v).ptr);
}

// Appends value `k` of part `p` (moved out where it is an object) to the cells
// of a column whose concatenation is `concatenation`.
void AppendConcatenatedCell(ColumnParts& column, const ColumnParts::Part& p, size_t k,
                            const Concatenation& concatenation, std::vector<Cell>& cells) {
  const auto add_double = [&](double v) {
    if (concatenation.numbers_as_object && std::isnan(v)) {
      cells.emplace_back(std::monostate());
    } else {
      cells.emplace_back(v);
    }
  };
  switch (concatenation.kind) {
    case Kind::kInt64:  // int64 and bool chunks (bools become 0 and 1)
      if (p.kind == Kind::kInt64) {
        cells.emplace_back(column.ints[k]);
      } else {
        cells.emplace_back(int64_t{column.bools[k]});
      }
      return;
    case Kind::kUint64:  // no uint64 dtype here: exact values as text
      cells.emplace_back(
          UintText(p.kind == Kind::kUint64 ? column.uints[k] : uint64_t{column.bools[k]}));
      return;
    case Kind::kFloat64:
      switch (p.kind) {
        case Kind::kFloat64:
          return add_double(column.doubles[k]);
        case Kind::kInt64:
          return add_double(static_cast<double>(column.ints[k]));
        case Kind::kUint64:
          return add_double(static_cast<double>(column.uints[k]));
        case Kind::kBool:
          return add_double(static_cast<double>(column.bools[k]));
        case Kind::kObject:
          return;
      }
      return;
    case Kind::kBool:
      cells.emplace_back(column.bools[k] == 1);
      return;
    case Kind::kObject:  // each chunk's values as Python objects
      switch (p.kind) {
        case Kind::kObject:
          if (p.as_objects) {
            cells.push_back(std::move(column.objects[k]));
          } else if (TypedColumn::IsMissingText(column.text[k])) {
            cells.emplace_back(std::monostate());
          } else {
            cells.emplace_back(std::string(column.text[k]));
          }
          return;
        case Kind::kInt64:
          cells.emplace_back(column.ints[k]);
          return;
        case Kind::kUint64:
          cells.emplace_back(UintText(column.uints[k]));
          return;
        case Kind::kFloat64:
          if (std::isnan(column.doubles[k])) {
            cells.emplace_back(std::monostate());
          } else {
            cells.emplace_back(column.doubles[k]);
          }
          return;
        case Kind::kBool:
          cells.emplace_back(column.bools[k] == 1);
          return;
      }
      return;
  }
}

// The dtype of a column of cells.
Dtype CellsDtype(const Concatenation& concatenation) {
  if (concatenation.numbers_as_object) return Dtype::kObject;
  switch (concatenation.kind) {
    case Kind::kInt64:
      return Dtype::kInt64;
    case Kind::kFloat64:
      return Dtype::kFloat64;
    case Kind::kBool:
      return Dtype::kBool;
    case Kind::kUint64:
    case Kind::kObject:
      break;
  }
  return Dtype::kObject;
}

// The concatenation of a column's chunks as pandas makes it, in typed
// storage where the result is one plain dtype (or text), else as cells.
TypedColumn AssembleColumn(std::string name, ColumnParts& column) {
  if (column.parts.empty()) {  // no rows: pandas gives object columns
    return TypedColumn::Text(std::move(name), {});
  }
  const Concatenation concatenation = ConcatenatedKind(column.parts);
  if (std::optional<TypedColumn> typed = ConcatenateTyped(name, column, concatenation)) {
    return *std::move(typed);
  }
  std::vector<Cell> cells;
  for (const ColumnParts::Part& p : column.parts) {
    for (size_t k = p.begin; k < p.begin + p.count; ++k) {
      AppendConcatenatedCell(column, p, k, concatenation, cells);
    }
  }
  return TypedColumn::Cells(std::move(name), CellsDtype(concatenation), std::move(cells));
}

// pandas' low_memory chunk size in rows for a table `width` fields wide: the
// largest power of two below 2**20 / width (at least 1).
size_t ChunkRows(size_t width) {
  const size_t heuristic = (size_t{1} << 20) / std::max<size_t>(width, 1);
  size_t rows = 1;
  while (rows * 2 < heuristic) rows *= 2;
  return rows;
}

// One pandas chunk: the tokens of up to ChunkRows(width) consecutive rows,
// column by column.
struct TokenChunk {
  std::vector<std::vector<std::string_view>> columns;
  size_t rows = 0;
};

// Infers each column of one chunk (pandas infers a dtype per column per
// chunk) into `chunks`, one reused Chunk per column; `as_string` columns are
// text whatever they hold.
void InferTokenChunk(const TokenChunk& tokens, const std::vector<bool>& as_string,
                     std::vector<Chunk>& chunks) {
  for (size_t j = 0; j < tokens.columns.size(); ++j) {
    const TokenSpan column(tokens.columns[j].data(), tokens.columns[j].size());
    if (as_string[j]) {
      chunks[j].objects.clear();
      FillObjects(column, /*na_filter=*/true, chunks[j]);
    } else {
      InferChunk(column, chunks[j]);
    }
  }
}

// Rows are tokenized one pandas chunk at a time into a slot; full slots are
// inferred on other threads (chunks are independent) while the next ones are
// tokenized, and their values appended to the columns in row order. Memory
// for tokens stays at kSlots chunks (about 16 MB each at most) whatever the
// file's size, and is reused rather than freshly mapped.
class ChunkPipeline {
 public:
  // `as_string`: per column, text whatever it holds (see InferTokenChunk).
  explicit ChunkPipeline(const std::vector<bool>& as_string)
      : as_string_(as_string), parts_(as_string.size()) {
    for (Slot& slot : slots_) slot.inferred.resize(as_string.size());
  }
  ChunkPipeline(const ChunkPipeline&) = delete;
  ChunkPipeline& operator=(const ChunkPipeline&) = delete;
  // A caller may return an error while chunks are in flight: they finish
  // first.
  ~ChunkPipeline() {
    for (Slot& slot : slots_) {
      if (slot.done.valid()) slot.done.wait();
    }
  }

  // Before the first row: each slot's token columns reserve `chunk_rows`
  // (at most `expected_rows`), and each column's storage `expected_rows`.
  void Reserve(size_t chunk_rows, size_t expected_rows) {
    expected_rows_ = expected_rows;
    for (Slot& slot : slots_) {
      slot.tokens.columns.resize(parts_.size());
      for (auto& column : slot.tokens.columns) {
        column.reserve(std::min(chunk_rows, expected_rows));
      }
    }
  }

  // The chunk rows are tokenized into.
  TokenChunk& filling() { return slots_[filling_].tokens; }

  // Infers the filling chunk (on another thread, unless it is small or no
  // thread can be had) and moves on to a free slot.
  void Flush() { Flush(/*last=*/false); }

  // Infers what is left, waits for every chunk and returns each column's
  // parts, in row order.
  std::vector<ColumnParts>& Finish() {
    if (filling().rows > 0) {
      Flush(/*last=*/true);
    } else {
      while (!in_flight_.empty()) CollectOldest();
    }
    return parts_;
  }

 private:
  static constexpr size_t kSlots = 3;
  struct Slot {
    TokenChunk tokens;
    std::vector<Chunk> inferred;  // one per column
    std::future<void> done;
  };

  void Append(Slot& slot) {
    for (size_t j = 0; j < parts_.size(); ++j) parts_[j].Append(slot.inferred[j], expected_rows_);
  }

  void CollectOldest() {
    Slot& slot = slots_[in_flight_.front()];
    in_flight_.pop_front();
    slot.done.get();
    Append(slot);
  }

  // The last chunk, or a small one, is inferred inline, after those in
  // flight.
  void Flush(bool last) {
    Slot& full = slots_[filling_];
    bool started = false;
    if (!last && full.tokens.rows >= 4096) {
      try {
        full.done = std::async(std::launch::async, [&full, this] {
          InferTokenChunk(full.tokens, as_string_, full.inferred);
        });
        started = true;
      } catch (const std::system_error&) {
        // No thread to be had (a process limit): infer it here instead.
      }
    }
    if (started) {
      in_flight_.push_back(filling_);
      if (in_flight_.size() == kSlots) CollectOldest();
    } else {
      while (!in_flight_.empty()) CollectOldest();
      InferTokenChunk(full.tokens, as_string_, full.inferred);
      Append(full);
    }
    for (size_t k = 0; k < kSlots; ++k) {
      if (std::find(in_flight_.begin(), in_flight_.end(), k) == in_flight_.end()) filling_ = k;
    }
    for (auto& column : slots_[filling_].tokens.columns) column.clear();
    slots_[filling_].tokens.rows = 0;
  }

  const std::vector<bool>& as_string_;
  std::vector<ColumnParts> parts_;  // per column, chunks in row order
  Slot slots_[kSlots];
  std::deque<size_t> in_flight_;  // slots being inferred, oldest first
  size_t filling_ = 0;
  size_t expected_rows_ = 0;  // for reserving each column's storage once
};

// ---------------------------------------------------------------------------
// Header.

struct HeaderColumns {
  std::vector<std::string> names;  // as pandas names the columns
  std::vector<bool> as_string;     // per column: read as str (no inference)
};

HeaderColumns MakeHeader(const std::vector<std::string_view>& fields,
                         const CsvReadOptions& options) {
  HeaderColumns header;
  const std::vector<std::string> original_names = UnnamedHeader(fields);
  header.names = DedupHeader(original_names, fields);
  const std::set<std::string> string_columns(options.string_columns.begin(),
                                             options.string_columns.end());
  header.as_string.resize(header.names.size());
  for (size_t j = 0; j < header.names.size(); ++j) {
    // pandas applies a dtype given for "a" to a duplicate renamed "a.1".
    header.as_string[j] = string_columns.count(header.names[j]) > 0 ||
                          string_columns.count(original_names[j]) > 0;
  }
  return header;
}

// ---------------------------------------------------------------------------
// Regular files.
//
// Most large CSVs (what pandas or numpy write for a submission) are regular:
// no quotes and no "\r", no blank lines, every row exactly as wide as the
// header, and each column holding one kind of value throughout (text,
// integers, floats or bools). Their body is read without tokens: it is cut at line
// ends into segments that threads scan and parse in place, every value
// written straight into its column's final array. The result must be what
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
// Anything else (including any error) makes the general reader read the
// whole file again, so regular files are only a fast path.

enum class RegularKind { kText, kInt64, kFloat64, kBool };

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
// without "\n") while checking its bytes: false on a quote, "\r", NUL or
// invalid UTF-8 (which the general reader handles or reports).
bool ScanRegularSegment(std::string_view seg, size_t* rows) {
  const char* d = seg.data();
  size_t count = 0, i = 0;
  // One byte that the word-at-a-time loops below stopped at: false for a
  // byte the regular path does not take.
  const auto take_byte = [&] {
    const char c = d[i];
    if (c == '"' || c == '\r' || c == '\0') return false;
    if (static_cast<unsigned char>(c) >= 0x80) {
      const size_t len = Utf8SequenceLength(seg, i);
      i += len;
      return len != 0;
    }
    count += c == '\n';
    ++i;
    return true;
  };
#if defined(__SSE2__)
  // 16 bytes at a time: any byte that needs a closer look (non-ASCII,
  // quote, "\r", NUL) ends the block loop there; "\n" bytes are counted in
  // per-lane byte counters, folded into `count` before they can wrap.
  {
    const __m128i newlines = _mm_set1_epi8('\n'), quotes = _mm_set1_epi8('"'),
                  returns = _mm_set1_epi8('\r'), zero = _mm_setzero_si128();
    __m128i lanes = zero;
    int pending = 0;
    const auto fold = [&] {
      const __m128i sums = _mm_sad_epu8(lanes, zero);
      count += static_cast<size_t>(_mm_cvtsi128_si64(sums)) +
               static_cast<size_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
      lanes = zero;
      pending = 0;
    };
    while (true) {
      while (i + 16 <= seg.size()) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(d + i));
        const __m128i special =
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, quotes), _mm_cmpeq_epi8(bytes, returns)),
                         _mm_cmpeq_epi8(bytes, zero));
        if ((_mm_movemask_epi8(special) | _mm_movemask_epi8(bytes)) != 0) break;
        lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(bytes, newlines));  // +1 per "\n"
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
      if (((word & kHigh) | ZeroBytes(word) | ZeroBytes(word ^ quotes) |
           ZeroBytes(word ^ returns)) == 0) {
        count += CountMarkedBytes(ZeroBytes(word ^ newlines));
        i += 8;
        continue;
      }
    }
    if (!take_byte()) return false;
  }
  if (!seg.empty() && seg.back() != '\n') ++count;
  *rows = count;
  return true;
}

// Linux >= 5.14's madvise advice that maps the pages of a range in (all at
// once rather than a fault per page as they are first touched); absent from
// older headers.
constexpr int kPopulateRead = 22;   // MADV_POPULATE_READ: a file mapping's pages
constexpr int kPopulateWrite = 23;  // MADV_POPULATE_WRITE: fresh pages, zeroed, writable

// Has the pages holding [begin, end) populated with `advice`, one segment's
// share, in parallel with the others. Elsewhere, or on an older kernel, the
// call fails and the pages fault in as usual; either way nothing changes
// but when the work is done.
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

// Splits the lines of a regular region (no quotes, no "\r") into fields:
// the positions of its delimiters and "\n" bytes are found 64 bytes at a
// time as a bit mask and taken in order, so no branch depends on where a
// field happens to end.
class RegularLineSplitter {
 public:
  // The region d[begin, end).
  RegularLineSplitter(const char* d, size_t begin, size_t end, char sep)
      : d_(d), p_(begin), block_(begin), end_(end), sep_(sep) {}

  // The fields of the next line into `fields` (exactly `width`); false when
  // the line is not regular (blank, too short or too long) or none is left.
  bool Next(size_t width, std::string_view* fields) {
    if (p_ >= end_) return false;
    for (size_t j = 0; j < width; ++j) {
      const size_t e = NextBoundary();
      fields[j] = std::string_view(d_ + p_, e - p_);
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
  }
}

// Parses the rows [first_row, end_row) of the segment [begin, end) of `d`
// into `columns`, marking in `seen` (chunk * width + column) each chunk
// where a text column saw a witness. False if a value does not fit its
// column's kind or the rows do not end where the segment does.
bool ParseRegularSegment(const char* d, size_t begin, size_t end, char sep, size_t first_row,
                         size_t end_row, size_t chunk_rows,
                         const std::vector<RegularColumn>& columns, std::vector<uint8_t>& seen) {
  const size_t width = columns.size();
  std::vector<std::string_view> fields(width);
  RegularLineSplitter lines(d, begin, end, sep);
  for (const RegularColumn& column : columns) {
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
          if (ParseInt64(t, &v) != IntParse::kOk) return false;
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
      }
    }
  }
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
      break;
  }
  return TypedColumn::Bools(std::move(name), {column.values<uint8_t>(), rows}, column.owner);
}

// The fast path for a regular body (the rows from byte `body` on): no quotes,
// every row exactly names.size() fields, each value of the kind of its
// column's first value, each inferred text column with a witness in every
// chunk. Parses it on several threads into typed storage and moves `names`
// into the columns; nullopt, with `names` untouched, when the body is not
// regular (ParseCsv's general path then reads it).
// More than `max_rows` body rows is no table either: nullopt, with the count
// in `*too_many_rows` (left alone otherwise), before any column is allocated.
std::optional<std::vector<TypedColumn>> TryParseRegularBody(std::string_view data, size_t body,
                                                            std::vector<std::string>& names,
                                                            const std::vector<bool>& as_string,
                                                            char sep, size_t max_rows,
                                                            std::optional<size_t>* too_many_rows) {
  const size_t width = names.size();
  if (width == 0 || body >= data.size()) return std::nullopt;
  const char* d = data.data();
  const size_t n = data.size();

  // Each column's kind, from the first row.
  std::vector<std::string_view> first(width);
  if (!RegularLineSplitter(d, body, n, sep).Next(width, first.data())) return std::nullopt;
  std::vector<RegularColumn> columns(width);
  for (size_t j = 0; j < width; ++j) {
    const std::optional<RegularKind> kind = FirstValueKind(first[j], as_string[j]);
    if (!kind.has_value()) return std::nullopt;
    columns[j].kind = *kind;
    columns[j].needs_witness = *kind == RegularKind::kText && !as_string[j];
  }

  // Count each segment's rows, then parse the segments into their rows.
  const std::vector<size_t> bounds = SegmentBounds(d, body, n);
  const size_t segments = bounds.size() - 1;
  std::vector<size_t> rows(segments);
  std::vector<uint8_t> scanned(segments);
  RunInParallel(segments, [&](size_t k) {
    PopulatePages(d + bounds[k], d + bounds[k + 1], kPopulateRead);
    scanned[k] = ScanRegularSegment(data.substr(bounds[k], bounds[k + 1] - bounds[k]), &rows[k]);
  });
  std::vector<size_t> first_row(segments + 1, 0);
  for (size_t k = 0; k < segments; ++k) {
    if (!scanned[k]) return std::nullopt;
    first_row[k + 1] = first_row[k] + rows[k];
  }
  const size_t total_rows = first_row[segments];
  if (total_rows > max_rows) {
    *too_many_rows = total_rows;
    return std::nullopt;
  }
  const size_t chunk_rows = ChunkRows(width);
  const size_t num_chunks = (total_rows + chunk_rows - 1) / chunk_rows;
  for (RegularColumn& column : columns) AllocateRegularColumn(column, total_rows);

  std::vector<uint8_t> parsed(segments);
  std::vector<std::vector<uint8_t>> witnessed(segments);
  RunInParallel(segments, [&](size_t k) {
    witnessed[k].assign(num_chunks * width, 0);
    parsed[k] = ParseRegularSegment(d, bounds[k], bounds[k + 1], sep, first_row[k],
                                    first_row[k + 1], chunk_rows, columns, witnessed[k]);
  });
  for (size_t k = 0; k < segments; ++k) {
    if (!parsed[k]) return std::nullopt;
  }
  if (!EveryChunkWitnessed(columns, witnessed, num_chunks)) return std::nullopt;

  std::vector<TypedColumn> typed;
  typed.reserve(width);
  for (size_t j = 0; j < width; ++j) {
    typed.push_back(RegularTypedColumn(std::move(names[j]), columns[j], total_rows));
  }
  return typed;
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

// The columns of CSV text `data`, as views into `data` and `arena`.
absl::StatusOr<std::vector<TypedColumn>> ParseCsv(std::string_view data,
                                                  std::string_view source_name,
                                                  const CsvReadOptions& options, Arena& arena) {
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

  std::optional<size_t> too_many_rows;
  if (std::optional<std::vector<TypedColumn>> regular =
          TryParseRegularBody(data, tokenizer.position(), names, as_string, options.separator,
                              max_body_rows, &too_many_rows)) {
    return *std::move(regular);
  }
  if (too_many_rows.has_value()) return too_many_cells(*too_many_rows + 1, header_width);
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
    columns.push_back(AssembleColumn(std::move(names[j]), parts[j]));
  }
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
                                      const CsvReadOptions& options) {
  ASSIGN_OR_RETURN(std::vector<TypedColumn> columns,
                   ParseCsv(bytes->view(), source_name, options, bytes->arena));
  return TypedTable(std::move(columns), std::move(bytes));
}

}  // namespace

absl::StatusOr<TypedTable> ReadTypedCsvString(std::string_view data, std::string_view source_name,
                                              const CsvReadOptions& options) {
  auto bytes = std::make_shared<CsvBytes>();
  bytes->copy.reset(new char[data.size()]);
  std::memcpy(bytes->copy.get(), data.data(), data.size());
  bytes->size = data.size();
  return ParseOwned(std::move(bytes), source_name, options);
}

absl::StatusOr<Table> ReadCsvString(std::string_view data, std::string_view source_name,
                                    const CsvReadOptions& options) {
  Arena arena;
  ASSIGN_OR_RETURN(std::vector<TypedColumn> columns, ParseCsv(data, source_name, options, arena));
  return TypedTable(std::move(columns), nullptr).ToTable();
}

absl::StatusOr<TypedTable> ReadTypedCsvFile(const std::string& path,
                                            const CsvReadOptions& options) {
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
      return ParseOwned(std::move(bytes), path, options);
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
  return ParseOwned(std::move(bytes), path, options);
}

absl::StatusOr<Table> ReadCsvFile(const std::string& path, const CsvReadOptions& options) {
  ASSIGN_OR_RETURN(TypedTable table, ReadTypedCsvFile(path, options));
  return table.ToTable();
}

}  // namespace mlebench
