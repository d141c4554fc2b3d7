#include "formats/internal/parquet_write_plan.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "formats/internal/parquet_format.h"

namespace mlebench::parquet_internal {
namespace {

// Plans rows [begin, min(end, size)) of the column called `name` of `dtype`
// and `size` rows, whose row r is cell_at(r) (a Cell or a reference to one).
template <typename CellAt>
absl::StatusOr<WriteColumn> PlanCells(const std::string& name, Dtype dtype, size_t size,
                                      CellAt cell_at, const ParquetWriteOptions& options,
                                      size_t begin, size_t end) {
  WriteColumn w;
  w.name = name;
  auto it = options.storage.find(name);
  if (it != options.storage.end()) {
    w.storage = it->second;
  } else {
    switch (dtype) {
      case Dtype::kInt64:
        w.storage = ParquetStorage::kInt64;
        break;
      case Dtype::kFloat64:
        w.storage = ParquetStorage::kDouble;
        break;
      case Dtype::kBool:
        w.storage = ParquetStorage::kBoolean;
        break;
      case Dtype::kObject: {
        bool all_bool = true, any_present = false;
        for (size_t row = 0; row < size; ++row) {
          const Cell& c = cell_at(row);
          if (IsMissing(c)) continue;
          any_present = true;
          if (!std::holds_alternative<bool>(c)) all_bool = false;
        }
        w.storage = any_present && all_bool ? ParquetStorage::kBoolean : ParquetStorage::kString;
      }
    }
  }
  switch (w.storage) {
    case ParquetStorage::kInt16:
    case ParquetStorage::kInt32:
      w.physical = kInt32;
      break;
    case ParquetStorage::kInt64:
      w.physical = kInt64;
      break;
    case ParquetStorage::kFloat:
      w.physical = kFloat;
      break;
    case ParquetStorage::kDouble:
      w.physical = kDouble;
      break;
    case ParquetStorage::kBoolean:
      w.physical = kBoolean;
      break;
    case ParquetStorage::kString:
      w.physical = kByteArray;
      break;
  }
  auto misfit = [&](size_t row) {
    return absl::InvalidArgumentError(absl::StrCat("column '", name, "' row ", row,
                                                   ": value does not fit Parquet storage ",
                                                   StorageName(w.storage)));
  };
  w.present.reserve(std::min(end, size) - std::min(begin, size));
  for (size_t row = begin; row < std::min(end, size); ++row) {
    const Cell& c = cell_at(row);
    if (IsMissing(c)) {
      if (w.physical == kInt32 || w.physical == kInt64) return misfit(row);
      w.present.push_back(0);
      continue;
    }
    std::string bytes;
    switch (w.storage) {
      case ParquetStorage::kInt16:
      case ParquetStorage::kInt32:
      case ParquetStorage::kInt64: {
        if (!std::holds_alternative<int64_t>(c)) return misfit(row);
        int64_t v = std::get<int64_t>(c);
        int64_t lo = w.storage == ParquetStorage::kInt16   ? -32768
                     : w.storage == ParquetStorage::kInt32 ? std::numeric_limits<int32_t>::min()
                                                           : std::numeric_limits<int64_t>::min();
        int64_t hi = w.storage == ParquetStorage::kInt16   ? 32767
                     : w.storage == ParquetStorage::kInt32 ? std::numeric_limits<int32_t>::max()
                                                           : std::numeric_limits<int64_t>::max();
        if (v < lo || v > hi) return misfit(row);
        if (w.physical == kInt32) {
          int32_t v32 = static_cast<int32_t>(v);
          bytes.assign(reinterpret_cast<const char*>(&v32), 4);
        } else {
          bytes.assign(reinterpret_cast<const char*>(&v), 8);
        }
        break;
      }
      case ParquetStorage::kFloat:
      case ParquetStorage::kDouble: {
        double d;
        if (std::holds_alternative<double>(c)) {
          d = std::get<double>(c);
        } else if (std::holds_alternative<int64_t>(c)) {
          d = static_cast<double>(std::get<int64_t>(c));
        } else {
          return misfit(row);
        }
        if (w.storage == ParquetStorage::kFloat) {
          float f = static_cast<float>(d);
          bytes.assign(reinterpret_cast<const char*>(&f), 4);
        } else {
          bytes.assign(reinterpret_cast<const char*>(&d), 8);
        }
        break;
      }
      case ParquetStorage::kBoolean:
        if (!std::holds_alternative<bool>(c)) return misfit(row);
        bytes.assign(1, std::get<bool>(c) ? '\1' : '\0');
        break;
      case ParquetStorage::kString: {
        if (!std::holds_alternative<std::string>(c)) return misfit(row);
        const std::string& s = std::get<std::string>(c);
        if (s.size() > std::numeric_limits<uint32_t>::max()) return misfit(row);
        PutU32(&bytes, static_cast<uint32_t>(s.size()));
        bytes += s;
        break;
      }
    }
    w.present.push_back(1);
    w.data += bytes;
    w.offsets.push_back(w.data.size());
  }
  w.optional = std::find(w.present.begin(), w.present.end(), 0) != w.present.end();
  return w;
}

}  // namespace

void PutU32(std::string* out, uint32_t v) {
  char b[4];
  std::memcpy(b, &v, 4);
  out->append(b, 4);
}

std::string StorageName(ParquetStorage s) {
  switch (s) {
    case ParquetStorage::kInt16:
      return "int16";
    case ParquetStorage::kInt32:
      return "int32";
    case ParquetStorage::kInt64:
      return "int64";
    case ParquetStorage::kFloat:
      return "float";
    case ParquetStorage::kDouble:
      return "double";
    case ParquetStorage::kBoolean:
      return "boolean";
    case ParquetStorage::kString:
      return "string";
  }
  return "?";
}

absl::StatusOr<WriteColumn> PlanColumn(const Column& column, const ParquetWriteOptions& options,
                                       size_t begin, size_t end) {
  return PlanCells(
      column.name, column.dtype, column.cells.size(),
      [&column](size_t row) -> const Cell& { return column.cells[row]; }, options, begin, end);
}

absl::StatusOr<WriteColumn> PlanColumn(const TypedColumn& column,
                                       const ParquetWriteOptions& options) {
  return PlanCells(
      column.name(), column.dtype(), column.size(),
      [&column](size_t row) { return column.CellAt(row); }, options, 0, column.size());
}

std::string PageHeaderBytes(int64_t type, size_t uncompressed, size_t compressed,
                            const std::function<void(ThriftWriter&)>& body) {
  ThriftWriter t;
  t.BeginStruct();
  t.I32(1, type);
  t.I32(2, static_cast<int64_t>(uncompressed));
  t.I32(3, static_cast<int64_t>(compressed));
  body(t);
  t.EndStruct();
  return t.bytes();
}

absl::Status CheckWritable(const Table& table, const ParquetWriteOptions& options) {
  if (table.num_columns() == 0)
    return absl::InvalidArgumentError("cannot write a table without columns");
  if (options.data_page_version != 1 && options.data_page_version != 2) {
    return absl::InvalidArgumentError("data_page_version must be 1 or 2");
  }
  if (options.rows_per_page < 0) return absl::InvalidArgumentError("rows_per_page must be >= 0");
  std::set<std::string> names;
  for (const Column& c : table.columns()) {
    if (c.name.empty()) return absl::InvalidArgumentError("empty column name");
    if (!names.insert(c.name).second) {
      return absl::InvalidArgumentError(absl::StrCat("duplicate column name '", c.name, "'"));
    }
    if (c.cells.size() != table.num_rows()) {
      return absl::InvalidArgumentError(
          absl::StrCat("column '", c.name, "' has a different length"));
    }
  }
  return absl::OkStatus();
}

void AppendPage(const std::string& header, const std::string& body, size_t uncompressed_body,
                std::string& file, ChunkInfo& info) {
  file += header;
  file += body;
  info.compressed += static_cast<int64_t>(header.size() + body.size());
  info.uncompressed += static_cast<int64_t>(header.size() + uncompressed_body);
}

}  // namespace mlebench::parquet_internal
