#include "base/internal/csv_inference.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/internal/csv_values.h"

namespace mlebench::csv_internal {
namespace {

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

}  // namespace


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

}  // namespace mlebench::csv_internal
