#include "grading/hostile_variants.h"

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/csv.h"

namespace mlebench::testing {
namespace {

// The table with every cell of the columns after the first replaced by
// `value` (text as a CSV reader would see it).
Table WithValues(const Table& table, const Cell& value) {
  Table out = table;
  for (size_t c = 1; c < out.num_columns(); ++c) {
    Column& column = out.mutable_columns()[c];
    column.dtype = Dtype::kObject;
    for (Cell& cell : column.cells) cell = value;
  }
  return out;
}

Table WithRows(const Table& table, const std::vector<size_t>& rows) {
  Table out = table;
  for (Column& column : out.mutable_columns()) {
    std::vector<Cell> cells;
    cells.reserve(rows.size());
    for (size_t r : rows) cells.push_back(column.cells[r]);
    column.cells = std::move(cells);
  }
  return out;
}

}  // namespace

std::string BinaryGarbage(size_t size) {
  std::string out(size, '\0');
  uint64_t state = 0x9E3779B97F4A7C15ull;
  for (char& c : out) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    c = static_cast<char>(state & 0xFF);
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> HostileVariants(const std::string& sample,
                                                                 const Table& table,
                                                                 const std::string& answers) {
  std::vector<std::pair<std::string, std::string>> v;
  v.emplace_back("empty file", "");
  v.emplace_back("binary garbage", BinaryGarbage(4096));
  v.emplace_back("header only", sample.substr(0, sample.find('\n') + 1));
  v.emplace_back("no trailing newline, unterminated quote", sample + "\"unterminated,1");
  v.emplace_back("byte-order mark", "\xEF\xBB\xBF" + sample);
  {
    std::string crlf;
    for (char c : sample) {
      if (c == '\n') crlf += '\r';
      crlf += c;
    }
    v.emplace_back("CRLF line endings", crlf);
  }
  v.emplace_back("the answers file", answers);
  const size_t n = table.num_rows();
  if (table.num_columns() == 0) return v;
  std::vector<size_t> reversed, repeated, dropped;
  for (size_t r = 0; r < n; ++r) reversed.push_back(n - 1 - r);
  for (size_t r = 0; r < n; ++r) repeated.push_back(r);
  if (n > 0) repeated.push_back(0);
  for (size_t r = 0; r + 1 < n; ++r) dropped.push_back(r);
  v.emplace_back("rows reversed", WriteCsvString(WithRows(table, reversed)));
  v.emplace_back("first row repeated", WriteCsvString(WithRows(table, repeated)));
  v.emplace_back("last row dropped", WriteCsvString(WithRows(table, dropped)));
  v.emplace_back("no rows", WriteCsvString(WithRows(table, {})));
  for (const auto& [name, value] : std::vector<std::pair<std::string, Cell>>{
           {"NaN", Cell()},
           {"inf", Cell(std::string("inf"))},
           {"-inf", Cell(std::string("-inf"))},
           {"1e308", Cell(std::string("1e308"))},
           {"-1", Cell(std::string("-1"))},
           {"text", Cell(std::string("x y"))},
           {"empty text", Cell(std::string(""))},
           {"2**70", Cell(std::string("1180591620717411303424"))}}) {
    v.emplace_back("values " + name, WriteCsvString(WithValues(table, value)));
  }
  if (n > 0) {
    Table long_cell = table;
    for (size_t c = 1; c < long_cell.num_columns(); ++c) {
      long_cell.mutable_columns()[c].dtype = Dtype::kObject;
      long_cell.mutable_columns()[c].cells[0] = Cell(std::string(100000, 'a'));
    }
    v.emplace_back("a 100 kB cell in the first row", WriteCsvString(long_cell));
  }
  {
    Table ids = table;
    for (Cell& cell : ids.mutable_columns()[0].cells) {
      cell =
          Cell(absl::StrCat(std::holds_alternative<std::string>(cell) ? std::get<std::string>(cell)
                                                                      : std::string("id"),
                            "_foreign"));
    }
    ids.mutable_columns()[0].dtype = Dtype::kObject;
    v.emplace_back("foreign ids", WriteCsvString(ids));
  }
  {
    Table reordered;
    for (auto it = table.columns().rbegin(); it != table.columns().rend(); ++it) {
      reordered.mutable_columns().push_back(*it);
    }
    v.emplace_back("columns reversed", WriteCsvString(reordered));
  }
  {
    Table extra = table;
    Column column;
    column.name = "extra";
    column.dtype = Dtype::kInt64;
    column.cells.assign(n, Cell(int64_t{1}));
    extra.mutable_columns().push_back(column);
    v.emplace_back("extra column", WriteCsvString(extra));
  }
  for (size_t c = 0; c < table.num_columns(); ++c) {
    Table fewer = table;
    fewer.mutable_columns().erase(fewer.mutable_columns().begin() + static_cast<long>(c));
    if (fewer.num_columns() == 0) continue;
    v.emplace_back("without column " + table.columns()[c].name, WriteCsvString(fewer));
  }
  {
    Table renamed = table;
    for (Column& column : renamed.mutable_columns()) column.name = column.name + "_renamed";
    v.emplace_back("columns renamed", WriteCsvString(renamed));
  }
  return v;
}

}  // namespace mlebench::testing
