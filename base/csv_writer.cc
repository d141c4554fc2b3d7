// The CSV writer: pandas' to_csv(index=False) text, through Python's csv
// module with QUOTE_MINIMAL.

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/python_float.h"
#include "base/replacing_file.h"
#include "base/status_macros.h"

namespace mlebench {
namespace {

// Python's csv module with QUOTE_MINIMAL (CPython >= 3.11.9 also quotes a
// bare "\r", see gh-67044).
void AppendField(std::string& out, std::string_view field, char sep) {
  bool quote = false;
  for (char c : field) {
    if (c == sep || c == '"' || c == '\n' || c == '\r') {
      quote = true;
      break;
    }
  }
  if (!quote) {
    out.append(field);
    return;
  }
  out.push_back('"');
  for (char c : field) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
}

// Appends the text pandas writes for `cell` (before quoting).
void AppendCellText(std::string& out, const Cell& cell, char sep) {
  if (const auto* s = std::get_if<std::string>(&cell)) {
    AppendField(out, *s, sep);
  } else if (const auto* d = std::get_if<double>(&cell)) {
    if (!std::isnan(*d)) out.append(FormatPythonFloat(*d));
  } else if (const auto* i = std::get_if<int64_t>(&cell)) {
    char buf[24];
    const auto res = std::to_chars(buf, buf + sizeof(buf), *i);
    out.append(buf, res.ptr);
  } else if (const auto* b = std::get_if<bool>(&cell)) {
    out.append(*b ? "True" : "False");
  }
  // std::monostate: missing, an empty field.
}

void AppendRow(std::string& out, size_t num_fields, const std::vector<const Cell*>& cells,
               const std::vector<std::string_view>* names, char sep) {
  const size_t row_start = out.size();
  for (size_t j = 0; j < num_fields; ++j) {
    if (j > 0) out.push_back(sep);
    if (names != nullptr) {
      AppendField(out, (*names)[j], sep);
    } else {
      AppendCellText(out, *cells[j], sep);
    }
  }
  // Python's csv writer quotes a record that is a single empty field, so that
  // it does not read back as a blank line.
  if (num_fields == 1 && out.size() == row_start) out.append("\"\"");
  out.push_back('\n');
}

}  // namespace

namespace {

std::string WriteCsvText(const Table& table, char sep) {
  const std::vector<Column>& columns = table.columns();
  const size_t num_columns = columns.size();
  const size_t num_rows = table.num_rows();
  std::string out;
  out.reserve(16 * (num_rows + 1) * std::max<size_t>(num_columns, 1));
  std::vector<std::string_view> names;
  names.reserve(num_columns);
  for (const Column& c : columns) names.push_back(c.name);
  std::vector<const Cell*> cells(num_columns);
  AppendRow(out, num_columns, cells, &names, sep);
  static const Cell kMissing;
  for (size_t i = 0; i < num_rows; ++i) {
    for (size_t j = 0; j < num_columns; ++j) {
      // Ragged columns (a malformed Table) read as missing past their end.
      cells[j] = i < columns[j].cells.size() ? &columns[j].cells[i] : &kMissing;
    }
    AppendRow(out, num_columns, cells, nullptr, sep);
  }
  return out;
}

}  // namespace

std::string WriteCsvString(const Table& table) { return WriteCsvText(table, ','); }

absl::StatusOr<std::string> WriteCsvString(const Table& table, const CsvWriteOptions& options) {
  RETURN_IF_ERROR(CheckCsvSeparator(options.separator));
  return WriteCsvText(table, options.separator);
}

absl::Status WriteCsvFile(const Table& table, const std::string& path,
                          const CsvWriteOptions& options) {
  ASSIGN_OR_RETURN(std::string csv_text, WriteCsvString(table, options));
  // Written beside the target and renamed over it: readers never see a
  // half-written file.
  ASSIGN_OR_RETURN(ReplacingFile file, ReplacingFile::Create(path));
  RETURN_IF_ERROR(file.Append(csv_text));
  return file.Commit();
}

}  // namespace mlebench
