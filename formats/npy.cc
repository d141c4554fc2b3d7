#include "formats/npy.h"

#include <cstdint>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace mlebench {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr size_t kArrayAlign = 64;
// numpy's spare header room: the digits of the largest conceivable axis.
constexpr size_t kGrowthAxisMaxDigits = 21;
// np.load's default `max_header_size`.
constexpr size_t kMaxHeaderSize = 10000;

absl::Status Invalid(std::string_view reason) {
  return absl::InvalidArgumentError(absl::StrCat("npy: ", std::string(reason)));
}

struct Descr {
  char order;  // '<', '>' or '|' (normalized)
  char kind;
  int64_t size;  // as written: characters for 'U', bytes otherwise
};

absl::StatusOr<Descr> ParseDescr(std::string_view text) {
  const std::string quoted = absl::StrCat("'", std::string(text), "'");
  Descr d{'<', 0, 0};
  size_t pos = 0;
  char order = 0;
  if (pos < text.size() && std::string_view("<>|=").find(text[pos]) != std::string_view::npos) {
    order = text[pos++];
  }
  if (pos >= text.size()) return Invalid(absl::StrCat("unsupported descr ", quoted));
  d.kind = text[pos++];
  if (pos >= text.size() || text.size() - pos > 12) {
    return Invalid(absl::StrCat("unsupported descr ", quoted));
  }
  for (; pos < text.size(); ++pos) {
    if (text[pos] < '0' || text[pos] > '9') {
      return Invalid(absl::StrCat("unsupported descr ", quoted));
    }
    d.size = d.size * 10 + (text[pos] - '0');
  }
  bool size_ok = false;
  switch (d.kind) {
    case 'b':
      size_ok = d.size == 1;
      break;
    case 'i':
    case 'u':
      size_ok = d.size == 1 || d.size == 2 || d.size == 4 || d.size == 8;
      break;
    case 'f':
      size_ok = d.size == 2 || d.size == 4 || d.size == 8 || d.size == 16;
      break;
    case 'c':
      size_ok = d.size == 8 || d.size == 16 || d.size == 32;
      break;
    case 'S':
    case 'V':
    case 'U':
      size_ok = d.size >= 1 && d.size <= (int64_t{1} << 30);
      break;
    default:
      break;
  }
  if (!size_ok) return Invalid(absl::StrCat("unsupported descr ", quoted));
  // numpy's dtype.str: no byte order for one-byte and byte-string kinds,
  // the (little-endian) native order for '=' or a meaningless '|'.
  if (d.kind == 'b' || d.kind == 'S' || d.kind == 'V' || (d.size == 1 && d.kind != 'U')) {
    d.order = '|';
  } else if (order == '>') {
    d.order = '>';
  } else {
    d.order = '<';
  }
  return d;
}

std::string DescrText(const Descr& d) {
  return absl::StrCat(std::string(1, d.order), std::string(1, d.kind), d.size);
}

int64_t ItemSize(const Descr& d) { return d.kind == 'U' ? d.size * 4 : d.size; }

// product(shape) * item_size, or nullopt on overflow.
std::optional<int64_t> DataSize(const std::vector<int64_t>& shape, int64_t item_size) {
  int64_t n = item_size;
  for (int64_t dim : shape) {
    if (dim < 0) return std::nullopt;
    if (dim != 0 && n > std::numeric_limits<int64_t>::max() / dim) return std::nullopt;
    n *= dim;
  }
  return n;
}

// The header dict: a Python literal with string keys and string, bool or
// tuple-of-int values, which is all np.save ever writes.
class HeaderParser {
 public:
  explicit HeaderParser(std::string_view text) : text_(text) {}

  absl::Status Parse(std::optional<std::string>& descr, std::optional<bool>& fortran,
                     std::optional<std::vector<int64_t>>& shape) {
    SkipSpace();
    if (!Consume('{')) return Error("expected '{'");
    std::vector<std::string> keys;
    while (true) {
      SkipSpace();
      if (Consume('}')) break;
      ASSIGN_OR_RETURN(std::string key, String());
      SkipSpace();
      if (!Consume(':')) return Error("expected ':'");
      SkipSpace();
      if (key == "descr") {
        if (Peek() != '\'' && Peek() != '"') {
          return Invalid(
              "descr is not a valid dtype descriptor (only simple dtypes are supported)");
        }
        ASSIGN_OR_RETURN(std::string value, String());
        descr = value;
      } else if (key == "fortran_order") {
        if (text_.substr(pos_, 4) == "True") {
          fortran = true;
          pos_ += 4;
        } else if (text_.substr(pos_, 5) == "False") {
          fortran = false;
          pos_ += 5;
        } else {
          return Invalid("fortran_order is not a valid bool");
        }
      } else if (key == "shape") {
        ASSIGN_OR_RETURN(std::vector<int64_t> value, Tuple());
        shape = value;
      } else {
        return Invalid(
            absl::StrCat("Header does not contain the correct keys: unexpected '", key, "'"));
      }
      SkipSpace();
      if (Consume('}')) break;
      if (!Consume(',')) return Error("expected ',' or '}'");
    }
    SkipSpace();
    if (pos_ != text_.size()) return Error("unexpected text after the dict");
    if (!descr || !fortran || !shape) {
      return Invalid(
          "Header does not contain the correct keys: need 'descr', "
          "'fortran_order' and 'shape'");
    }
    return absl::OkStatus();
  }

 private:
  absl::Status Error(std::string_view what) {
    return Invalid(absl::StrCat("Cannot parse header: ", std::string(what), " at offset ", pos_));
  }
  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool Consume(char c) {
    if (Peek() != c) return false;
    ++pos_;
    return true;
  }
  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\t' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }
  absl::StatusOr<std::string> String() {
    const char quote = Peek();
    if (quote != '\'' && quote != '"') return Error("expected a string");
    ++pos_;
    const size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos) return Error("unterminated string");
    std::string value(text_.substr(pos_, end - pos_));
    if (value.find_first_of("\\\n") != std::string::npos) return Error("unsupported string escape");
    pos_ = end + 1;
    return value;
  }
  absl::StatusOr<std::vector<int64_t>> Tuple() {
    if (!Consume('(')) return Invalid("shape is not valid: not a tuple");
    std::vector<int64_t> dims;
    bool trailing_comma = false;
    while (true) {
      SkipSpace();
      if (Consume(')')) break;
      if (Peek() < '0' || Peek() > '9')
        return Invalid("shape is not valid: expected a non-negative int");
      int64_t dim = 0;
      while (Peek() >= '0' && Peek() <= '9') {
        if (dim > (std::numeric_limits<int64_t>::max() - 9) / 10) {
          return Invalid("shape is not valid: dimension too large");
        }
        dim = dim * 10 + (text_[pos_++] - '0');
      }
      dims.push_back(dim);
      SkipSpace();
      trailing_comma = Consume(',');
      if (trailing_comma) continue;
      if (Consume(')')) break;
      return Error("expected ',' or ')' in shape");
    }
    // "(3)" is the int 3 in Python, not a tuple.
    if (dims.size() == 1 && !trailing_comma) return Invalid("shape is not valid: not a tuple");
    return dims;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

absl::StatusOr<int64_t> NpyItemSize(std::string_view descr) {
  ASSIGN_OR_RETURN(Descr d, ParseDescr(descr));
  return ItemSize(d);
}

absl::StatusOr<NpyArray> ParseNpy(std::string_view bytes) {
  if (bytes.size() < kMagic.size() + 2 || bytes.substr(0, kMagic.size()) != kMagic) {
    return Invalid("the magic string is not correct (not a .npy file)");
  }
  const unsigned char major = bytes[6];
  const unsigned char minor = bytes[7];
  if (minor != 0 || major < 1 || major > 3) {
    return Invalid(absl::StrCat("unsupported format version ", major, ".", minor));
  }
  const size_t length_bytes = major == 1 ? 2 : 4;
  if (bytes.size() < 8 + length_bytes) return Invalid("EOF reading the header length");
  uint64_t header_length = 0;
  for (size_t i = 0; i < length_bytes; ++i) {
    header_length |= uint64_t{static_cast<unsigned char>(bytes[8 + i])} << (8 * i);
  }
  const size_t header_start = 8 + length_bytes;
  if (bytes.size() - header_start < header_length) return Invalid("EOF reading the array header");
  if (header_length > kMaxHeaderSize) {
    return Invalid(absl::StrCat("Header info length (", header_length,
                                ") is large and may not be safe to load"));
  }
  const std::string_view header = bytes.substr(header_start, header_length);
  std::optional<std::string> descr_text;
  std::optional<bool> fortran;
  std::optional<std::vector<int64_t>> shape;
  RETURN_IF_ERROR(HeaderParser(header).Parse(descr_text, fortran, shape));
  ASSIGN_OR_RETURN(Descr descr, ParseDescr(*descr_text));
  const std::optional<int64_t> data_size = DataSize(*shape, ItemSize(descr));
  if (!data_size) return Invalid("the shape's size overflows");
  const std::string_view data = bytes.substr(header_start + header_length);
  if (static_cast<uint64_t>(data.size()) != static_cast<uint64_t>(*data_size)) {
    return Invalid(
        absl::StrCat("expected ", *data_size, " bytes of array data, found ", data.size()));
  }
  NpyArray array;
  array.descr = DescrText(descr);
  array.fortran_order = *fortran;
  array.shape = std::move(*shape);
  array.data = std::string(data);
  return array;
}

absl::StatusOr<std::string> SerializeNpy(const NpyArray& array) {
  ASSIGN_OR_RETURN(Descr descr, ParseDescr(array.descr));
  const std::optional<int64_t> data_size = DataSize(array.shape, ItemSize(descr));
  if (!data_size) return Invalid("the shape's size overflows or has a negative dimension");
  if (static_cast<uint64_t>(array.data.size()) != static_cast<uint64_t>(*data_size)) {
    return Invalid(absl::StrCat("shape and descr need ", *data_size, " bytes of data, have ",
                                array.data.size()));
  }
  std::string shape = "(";
  for (size_t i = 0; i < array.shape.size(); ++i) {
    absl::StrAppend(&shape, i == 0 ? "" : ", ", array.shape[i]);
  }
  absl::StrAppend(&shape, array.shape.size() == 1 ? ",)" : ")");
  std::string header = absl::StrCat("{'descr': '", DescrText(descr),
                                    "', 'fortran_order': ", array.fortran_order ? "True" : "False",
                                    ", 'shape': ", shape, ", }");
  if (!array.shape.empty()) {
    const std::string growth_axis =
        absl::StrCat(array.fortran_order ? array.shape.back() : array.shape.front());
    header.append(kGrowthAxisMaxDigits - growth_axis.size(), ' ');
  }
  // Magic, version, header length, header, padding spaces and '\n' end on a
  // 64-byte boundary; version 2.0's 4-byte length only when 2 bytes are short.
  int major = 1;
  size_t prefix = kMagic.size() + 2 + 2;
  size_t padding = kArrayAlign - (prefix + header.size() + 1) % kArrayAlign;
  if (header.size() + 1 + padding > 0xFFFF) {
    major = 2;
    prefix = kMagic.size() + 2 + 4;
    padding = kArrayAlign - (prefix + header.size() + 1) % kArrayAlign;
  }
  const uint64_t header_length = header.size() + 1 + padding;
  std::string out(kMagic);
  out.push_back(static_cast<char>(major));
  out.push_back('\0');
  for (size_t i = 0; i < (major == 1 ? 2u : 4u); ++i) {
    out.push_back(static_cast<char>((header_length >> (8 * i)) & 0xFF));
  }
  out += header;
  out.append(padding, ' ');
  out.push_back('\n');
  out += array.data;
  return out;
}

absl::StatusOr<NpyArray> ReadNpyFile(const std::filesystem::path& path, int64_t max_bytes) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    return absl::NotFoundError(absl::StrCat("npy: ", path.string(), " is not a regular file"));
  }
  const uintmax_t size = std::filesystem::file_size(path, error);
  if (error) return absl::InternalError(absl::StrCat("npy: cannot stat ", path.string()));
  if (size > static_cast<uintmax_t>(max_bytes)) {
    return Invalid(
        absl::StrCat(path.string(), " has ", size, " bytes, over the limit of ", max_bytes));
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  if (!in.good() && !in.eof()) {
    return absl::InternalError(absl::StrCat("npy: cannot read ", path.string()));
  }
  absl::StatusOr<NpyArray> array = ParseNpy(content.str());
  if (!array.ok()) {
    return absl::Status(array.status().code(),
                        absl::StrCat(path.string(), ": ", array.status().message()));
  }
  return array;
}

absl::Status WriteNpyFile(const NpyArray& array, const std::filesystem::path& path) {
  ASSIGN_OR_RETURN(std::string bytes, SerializeNpy(array));
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return absl::InternalError(absl::StrCat("npy: cannot write ", path.string()));
  return absl::OkStatus();
}

absl::StatusOr<NpyArray> TakeNpyRows(const NpyArray& array, std::span<const int64_t> rows) {
  if (array.shape.empty()) return Invalid("too many indices for a 0-dimensional array");
  if (array.fortran_order && array.shape.size() > 1) {
    return Invalid("taking rows of a Fortran-ordered array is not supported");
  }
  ASSIGN_OR_RETURN(int64_t item_size, NpyItemSize(array.descr));
  const std::vector<int64_t> row_shape(array.shape.begin() + 1, array.shape.end());
  const std::optional<int64_t> row_bytes = DataSize(row_shape, item_size);
  const std::optional<int64_t> total = DataSize(array.shape, item_size);
  if (!row_bytes || !total || static_cast<uint64_t>(*total) != array.data.size()) {
    return Invalid("the array's data does not match its shape");
  }
  const int64_t n = array.shape.front();
  NpyArray out;
  out.descr = array.descr;
  out.shape = array.shape;
  out.shape.front() = static_cast<int64_t>(rows.size());
  out.data.reserve(rows.size() * static_cast<size_t>(*row_bytes));
  for (int64_t row : rows) {
    if (row < -n || row >= n) {
      return absl::OutOfRangeError(
          absl::StrCat("npy: index ", row, " is out of bounds for axis 0 with size ", n));
    }
    if (row < 0) row += n;
    out.data.append(array.data, static_cast<size_t>(row * *row_bytes),
                    static_cast<size_t>(*row_bytes));
  }
  return out;
}

}  // namespace mlebench
