#include "base/csv_segments.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// A file's lines, "\n" or "\r\n" dropped, through getline (the last may lack
// one).
class LineReader {
 public:
  static absl::StatusOr<std::unique_ptr<LineReader>> Open(const fs::path& path) {
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (file == nullptr) {
      return absl::NotFoundError(absl::StrCat("cannot open '", path.string(), "'"));
    }
    return std::unique_ptr<LineReader>(new LineReader(file, path));
  }
  ~LineReader() {
    std::free(buffer_);
    std::fclose(file_);
  }
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line into `*line` (valid until the next call); false at the end.
  absl::StatusOr<bool> Next(std::string_view* line) {
    const ssize_t n = ::getline(&buffer_, &capacity_, file_);
    if (n < 0) {
      if (std::ferror(file_)) {
        return absl::DataLossError(absl::StrCat("error reading '", path_.string(), "'"));
      }
      return false;
    }
    size_t size = static_cast<size_t>(n);
    if (size > 0 && buffer_[size - 1] == '\n') --size;
    // "\r\n" ends a line as "\n" does (a "\r" anywhere else is not plain).
    if (size > 0 && buffer_[size - 1] == '\r') --size;
    *line = std::string_view(buffer_, size);
    return true;
  }

 private:
  LineReader(std::FILE* file, fs::path path) : file_(file), path_(std::move(path)) {}
  std::FILE* file_;
  fs::path path_;
  char* buffer_ = nullptr;
  size_t capacity_ = 0;
};

// Whether the CSV reader reads `line` (of a file that passed
// ScanPlainCsvFile's other tests) as one record of at most `max_commas` + 1
// fields, nothing else: no quoting, no lone "\r" line end, not blank, not
// wider than the header.
bool IsPlainLine(std::string_view line, size_t max_commas) {
  if (line.find_first_not_of(" \t") == std::string_view::npos) return false;
  size_t commas = 0;
  for (const char c : line) {
    if (c == '"' || c == '\r' || c == '\0') return false;
    commas += c == ',';
  }
  return commas <= max_commas;
}

CsvColumnKinds KindsOf(const TypedTable& table) {
  CsvColumnKinds kinds;
  for (const TypedColumn& c : table.columns()) kinds.emplace_back(c.storage(), c.dtype());
  return kinds;
}

}  // namespace

std::optional<PlainCsvFile> ScanPlainCsvFile(const fs::path& path) {
  std::error_code error;
  const uintmax_t bytes = fs::file_size(path, error);
  if (error || bytes > static_cast<uintmax_t>(CsvReadOptions().max_bytes)) return std::nullopt;
  absl::StatusOr<std::unique_ptr<LineReader>> lines = LineReader::Open(path);
  if (!lines.ok()) return std::nullopt;
  std::string_view line;
  absl::StatusOr<bool> more = (*lines)->Next(&line);
  if (!more.ok() || !*more || line.substr(0, 3) == "\xEF\xBB\xBF") return std::nullopt;
  const size_t header_commas = static_cast<size_t>(std::count(line.begin(), line.end(), ','));
  if (!IsPlainLine(line, header_commas)) return std::nullopt;
  PlainCsvFile file{std::string(line), 0};
  while (true) {
    more = (*lines)->Next(&line);
    if (!more.ok()) return std::nullopt;
    if (!*more) break;
    if (!IsPlainLine(line, header_commas)) return std::nullopt;
    ++file.rows;
  }
  if ((file.rows + 1) * (header_commas + 1) > 16 * bytes + (size_t{1} << 20)) return std::nullopt;
  return file;
}

absl::StatusOr<bool> ForEachCsvSegment(
    const fs::path& path, const PlainCsvFile& file, CsvColumnKinds& kinds,
    const std::function<absl::Status(const TypedTable& segment, size_t first_row)>& visit) {
  absl::StatusOr<std::unique_ptr<LineReader>> lines = LineReader::Open(path);
  if (!lines.ok()) return false;
  std::string_view line;
  absl::StatusOr<bool> more = (*lines)->Next(&line);  // the header
  size_t first_row = 0;
  std::string text;
  while (more.ok() && *more) {
    text.assign(file.header).push_back('\n');
    size_t rows = 0;
    while (rows < kCsvSegmentRows) {
      more = (*lines)->Next(&line);
      if (!more.ok()) return false;
      if (!*more) break;
      text.append(line).push_back('\n');
      ++rows;
    }
    if (rows == 0) break;
    absl::StatusOr<TypedTable> segment = ReadTypedCsvString(text, path.string());
    if (!segment.ok() || segment->num_rows() != rows) return false;
    const CsvColumnKinds segment_kinds = KindsOf(*segment);
    for (const auto& [storage, dtype] : segment_kinds) {
      if (storage == TypedColumn::Storage::kCells) return false;
    }
    if (kinds.empty()) kinds = segment_kinds;
    if (segment_kinds != kinds) return false;
    RETURN_IF_ERROR(visit(*segment, first_row));
    first_row += rows;
  }
  return more.ok() && first_row == file.rows;
}

}  // namespace mlebench
