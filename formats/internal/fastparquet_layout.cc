#include "formats/internal/fastparquet_layout.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "base/json_text.h"
#include "base/status_macros.h"

namespace mlebench::parquet_internal {
namespace {

void PutVarint(uint64_t v, std::string& out) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

// Bit i % 8 of byte i / 8 from bits[i], in n / 8 + 1 bytes.
std::string PackBitsPadded(const uint8_t* bits, size_t n) {
  std::string out(n / 8 + 1, '\0');
  for (size_t i = 0; i < n; ++i) {
    if (bits[i]) out[i / 8] = static_cast<char>(out[i / 8] | (1 << (i % 8)));
  }
  return out;
}

uint32_t Load32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// One 64 KiB block of snap's compressor.
class SnapBlock {
 public:
  SnapBlock(std::string_view src, std::string& out) : src_(src), out_(out) {}

  void Compress() {
    constexpr size_t kInputMargin = 15;
    if (src_.size() < kInputMargin + 2) {
      EmitLiteral(src_.size());
      return;
    }
    int shift = 24;
    size_t slots = 256;
    while (slots < (size_t{1} << 14) && slots < src_.size()) {
      --shift;
      slots *= 2;
    }
    shift_ = shift;
    table_.assign(slots, 0);
    const size_t limit = src_.size() - kInputMargin;
    size_t s = 1;
    uint32_t next_hash = Hash(Load32(src_.data() + s));
    while (true) {
      // Look for a 4-byte match, skipping further the longer none is found.
      size_t skip = 32, next = s, candidate;
      while (true) {
        s = next;
        const size_t step = skip >> 5;
        next = s + step;
        skip += step;
        if (next > limit) return Finish();
        candidate = table_[next_hash];
        table_[next_hash] = static_cast<uint16_t>(s);
        next_hash = Hash(Load32(src_.data() + next));
        if (Load32(src_.data() + s) == Load32(src_.data() + candidate)) break;
      }
      EmitLiteral(s);
      // Copies, as long as the next position matches right away.
      while (true) {
        const size_t base = s;
        s += 4;
        for (size_t c = candidate + 4; s < src_.size() && src_[s] == src_[c]; ++c) ++s;
        EmitCopy(base - candidate, s - base);
        emitted_ = s;
        if (s >= limit) return Finish();
        uint64_t x;
        std::memcpy(&x, src_.data() + s - 1, 8);
        table_[Hash(static_cast<uint32_t>(x))] = static_cast<uint16_t>(s - 1);
        const uint32_t current = Hash(static_cast<uint32_t>(x >> 8));
        candidate = table_[current];
        table_[current] = static_cast<uint16_t>(s);
        if (static_cast<uint32_t>(x >> 8) != Load32(src_.data() + candidate)) {
          next_hash = Hash(static_cast<uint32_t>(x >> 16));
          ++s;
          break;
        }
      }
    }
  }

 private:
  uint32_t Hash(uint32_t x) const { return (x * 0x1E35A7BDu) >> shift_; }

  void Finish() {
    if (emitted_ < src_.size()) EmitLiteral(src_.size());
  }

  // src_[emitted_, end) as one literal.
  void EmitLiteral(size_t end) {
    const size_t n = end - emitted_ - 1;
    if (n <= 59) {
      out_.push_back(static_cast<char>(n << 2));
    } else if (n < 256) {
      out_.push_back(static_cast<char>(60 << 2));
      out_.push_back(static_cast<char>(n));
    } else {
      out_.push_back(static_cast<char>(61 << 2));
      out_.push_back(static_cast<char>(n & 0xff));
      out_.push_back(static_cast<char>(n >> 8));
    }
    out_.append(src_.substr(emitted_, end - emitted_));
  }

  void EmitCopy2(size_t offset, size_t length) {
    out_.push_back(static_cast<char>(((length - 1) << 2) | 2));
    out_.push_back(static_cast<char>(offset & 0xff));
    out_.push_back(static_cast<char>(offset >> 8));
  }

  void EmitCopy(size_t offset, size_t length) {
    while (length >= 68) {
      EmitCopy2(offset, 64);
      length -= 64;
    }
    if (length > 64) {
      EmitCopy2(offset, 60);
      length -= 60;
    }
    if (length <= 11 && offset <= 2047) {
      out_.push_back(static_cast<char>(((offset >> 8) << 5) | ((length - 4) << 2) | 1));
      out_.push_back(static_cast<char>(offset & 0xff));
    } else {
      EmitCopy2(offset, length);
    }
  }

  std::string_view src_;
  std::string& out_;
  std::vector<uint16_t> table_;
  int shift_ = 24;
  size_t emitted_ = 0;
};

}  // namespace

std::string SnapCompress(std::string_view input) {
  std::string out;
  PutVarint(input.size(), out);
  for (size_t start = 0; start < input.size(); start += size_t{1} << 16) {
    SnapBlock(input.substr(start, size_t{1} << 16), out).Compress();
  }
  return out;
}

absl::StatusOr<std::string> FastparquetPandasMetadata(const std::vector<PandasColumn>& columns) {
  // json.dumps(sort_keys=True): keys in code point order, ", " and ": ".
  std::string json =
      "{\"column_indexes\": [{\"field_name\": null, \"metadata\": null, \"name\": null, "
      "\"numpy_type\": \"object\", \"pandas_type\": \"mixed-integer\"}], \"columns\": [";
  for (size_t i = 0; i < columns.size(); ++i) {
    std::string name;
    RETURN_IF_ERROR(AppendJsonString(columns[i].name, name, InvalidUtf8::kReject));
    // pandas_type: infer_dtype's "integer" / "floating" become the dtype's
    // name, and fastparquet calls a bool column "bool".
    absl::StrAppend(&json, i == 0 ? "" : ", ", "{\"field_name\": ", name,
                    ", \"metadata\": null, \"name\": ", name, ", \"numpy_type\": \"",
                    columns[i].numpy_type, "\", \"pandas_type\": \"", columns[i].numpy_type,
                    "\"}");
  }
  absl::StrAppend(&json,
                  "], \"creator\": {\"library\": \"fastparquet\", \"version\": \"2024.5.0\"}, "
                  "\"index_columns\": [], \"pandas_version\": \"2.2.2\", "
                  "\"partition_columns\": []}");
  return json;
}

std::vector<size_t> FastparquetRowGroupStarts(size_t rows, int64_t row_group_rows) {
  if (rows == 0) return {};
  if (row_group_rows <= 0) return {0};
  const size_t limit = static_cast<size_t>(row_group_rows);
  const size_t groups = (rows - 1) / limit + 1;
  const size_t size = (rows - 1) / groups + 1;
  std::vector<size_t> starts;
  for (size_t start = 0; start < rows; start += size) starts.push_back(start);
  return starts;
}

size_t FastparquetRowsPerPage(double bytes_per_value) {
  // int(500 * 2**20 // (bytes_per_value + 0.125)): has_nulls adds 1/8 byte.
  return static_cast<size_t>(std::floor(524288000.0 / (bytes_per_value + 0.125)));
}

std::string FastparquetDefinitionLevels(const uint8_t* present, size_t n) {
  std::string run;
  if (std::find(present, present + n, 0) == present + n) {
    PutVarint(static_cast<uint64_t>(n) << 1, run);
    run.push_back('\1');
  } else {
    const std::string packed = PackBitsPadded(present, n);
    PutVarint((static_cast<uint64_t>(packed.size()) << 1) | 1, run);
    run += packed;
  }
  const uint32_t size = static_cast<uint32_t>(run.size());
  char length[4];
  std::memcpy(length, &size, 4);
  return std::string(length, 4) + run;
}

std::string FastparquetPackedBooleans(const uint8_t* values, size_t n) {
  return PackBitsPadded(values, n);
}

}  // namespace mlebench::parquet_internal
