#include "base/json_lines.h"

#include <charconv>
#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/python_float.h"
#include "base/status_macros.h"
#include "base/utf8.h"

namespace mlebench {
namespace {

// Deeper nesting is rejected rather than risking the stack.
constexpr int kMaxDepth = 1000;

// Parses one line; errors are plain messages, positioned by the caller.
class LineParser {
 public:
  explicit LineParser(std::string_view line) : s_(line) {}

  // The line's top-level members, in order.
  absl::StatusOr<std::vector<std::pair<std::string, Cell>>> ParseObjectLine() {
    std::vector<std::pair<std::string, Cell>> members;
    SkipWhitespace();
    if (!Consume('{')) return Error("expected a JSON object");
    SkipWhitespace();
    if (!Consume('}')) {
      while (true) {
        SkipWhitespace();
        std::string key;
        RETURN_IF_ERROR(ParseString(&key));
        for (const auto& [existing, unused] : members) {
          if (existing == key) return Error(absl::StrCat("repeated key \"", key, "\""));
        }
        SkipWhitespace();
        if (!Consume(':')) return Error("expected ':'");
        SkipWhitespace();
        ASSIGN_OR_RETURN(Cell value, ParseTopLevelValue());
        members.emplace_back(std::move(key), std::move(value));
        SkipWhitespace();
        if (Consume(',')) continue;
        if (Consume('}')) break;
        return Error("expected ',' or '}'");
      }
    }
    SkipWhitespace();
    if (pos_ != s_.size()) return Error("extra text after the object");
    return members;
  }

 private:
  absl::Status Error(std::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat(std::string(what), " at column ", pos_ + 1));
  }
  bool AtEnd() const { return pos_ >= s_.size(); }
  bool Consume(char c) {
    if (!AtEnd() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool ConsumeWord(std::string_view word) {
    if (s_.substr(pos_, word.size()) == word) {
      pos_ += word.size();
      return true;
    }
    return false;
  }
  void SkipWhitespace() {
    while (!AtEnd() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\r')) ++pos_;
  }

  absl::StatusOr<Cell> ParseTopLevelValue() {
    if (AtEnd()) return Error("expected a value");
    const char c = s_[pos_];
    if (c == '"') {
      std::string text;
      RETURN_IF_ERROR(ParseString(&text));
      return Cell(std::move(text));
    }
    if (c == '{' || c == '[') {
      const size_t start = pos_;
      RETURN_IF_ERROR(SkipValue(0));
      return Cell(std::string(s_.substr(start, pos_ - start)));
    }
    if (ConsumeWord("true")) return Cell(true);
    if (ConsumeWord("false")) return Cell(false);
    if (ConsumeWord("null")) return Cell(std::monostate());
    return ParseNumber();
  }

  // Scans a number as JSON's grammar spells it.
  absl::StatusOr<Cell> ParseNumber() {
    const size_t start = pos_;
    Consume('-');
    if (Consume('0')) {
    } else if (!AtEnd() && s_[pos_] >= '1' && s_[pos_] <= '9') {
      while (!AtEnd() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
    } else {
      pos_ = start;
      return Error("expected a value");
    }
    bool integral = true;
    if (Consume('.')) {
      integral = false;
      if (!SkipDigits()) return Error("expected digits after '.'");
    }
    if (Consume('e') || Consume('E')) {
      integral = false;
      if (!Consume('+')) Consume('-');
      if (!SkipDigits()) return Error("expected exponent digits");
    }
    const char* first = s_.data() + start;
    const char* last = s_.data() + pos_;
    if (integral) {
      int64_t value = 0;
      const auto [end, ec] = std::from_chars(first, last, value);
      if (ec != std::errc() || end != last) return Error("integer out of the int64 range");
      return Cell(value);
    }
    return Cell(DecimalTextToDouble(std::string_view(first, static_cast<size_t>(last - first))));
  }

  bool SkipDigits() {
    const size_t start = pos_;
    while (!AtEnd() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
    return pos_ > start;
  }

  std::optional<uint32_t> ParseHex4() {
    if (pos_ + 4 > s_.size()) return std::nullopt;
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = s_[pos_ + i];
      value <<= 4;
      if (c >= '0' && c <= '9')
        value |= c - '0';
      else if (c >= 'a' && c <= 'f')
        value |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        value |= c - 'A' + 10;
      else
        return std::nullopt;
    }
    pos_ += 4;
    return value;
  }

  // Parses a string literal into `out` (nullptr: validate only).
  absl::Status ParseString(std::string* out) {
    if (!Consume('"')) return Error("expected a string");
    while (true) {
      if (AtEnd()) return Error("unterminated string");
      const char c = s_[pos_];
      if (c == '"') {
        ++pos_;
        return absl::OkStatus();
      }
      if (static_cast<unsigned char>(c) < 0x20) return Error("control character in a string");
      if (c != '\\') {
        if (out != nullptr) *out += c;
        ++pos_;
        continue;
      }
      ++pos_;
      if (AtEnd()) return Error("unterminated string");
      const char e = s_[pos_++];
      char simple = 0;
      switch (e) {
        case '"':
          simple = '"';
          break;
        case '\\':
          simple = '\\';
          break;
        case '/':
          simple = '/';
          break;
        case 'b':
          simple = '\b';
          break;
        case 'f':
          simple = '\f';
          break;
        case 'n':
          simple = '\n';
          break;
        case 'r':
          simple = '\r';
          break;
        case 't':
          simple = '\t';
          break;
        case 'u':
          break;
        default:
          return Error("invalid escape");
      }
      if (e != 'u') {
        if (out != nullptr) *out += simple;
        continue;
      }
      std::optional<uint32_t> code = ParseHex4();
      if (!code.has_value()) return Error("invalid \\u escape");
      if (*code >= 0xD800 && *code < 0xDC00 && s_.substr(pos_, 2) == "\\u") {
        const size_t saved = pos_;
        pos_ += 2;
        std::optional<uint32_t> low = ParseHex4();
        if (low.has_value() && *low >= 0xDC00 && *low < 0xE000) {
          *code = 0x10000 + ((*code - 0xD800) << 10) + (*low - 0xDC00);
        } else {
          pos_ = saved;
        }
      }
      if (out != nullptr) AppendUtf8(*code, *out);
    }
  }

  // Validates and skips any value.
  absl::Status SkipValue(int depth) {
    if (depth > kMaxDepth) return Error("nesting too deep");
    if (AtEnd()) return Error("expected a value");
    const char c = s_[pos_];
    if (c == '"') return ParseString(nullptr);
    if (c == '{' || c == '[') {
      const char close = c == '{' ? '}' : ']';
      ++pos_;
      SkipWhitespace();
      if (Consume(close)) return absl::OkStatus();
      while (true) {
        SkipWhitespace();
        if (c == '{') {
          RETURN_IF_ERROR(ParseString(nullptr));
          SkipWhitespace();
          if (!Consume(':')) return Error("expected ':'");
          SkipWhitespace();
        }
        RETURN_IF_ERROR(SkipValue(depth + 1));
        SkipWhitespace();
        if (Consume(',')) continue;
        if (Consume(close)) return absl::OkStatus();
        return Error(c == '{' ? "expected ',' or '}'" : "expected ',' or ']'");
      }
    }
    if (ConsumeWord("true") || ConsumeWord("false") || ConsumeWord("null")) {
      return absl::OkStatus();
    }
    return ParseNumber().status();
  }

  std::string_view s_;
  size_t pos_ = 0;
};

bool IsBlank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

}  // namespace

absl::StatusOr<Table> ReadJsonLinesString(std::string_view data, std::string_view source_name) {
  std::vector<Column> columns;
  std::map<std::string, size_t, std::less<>> column_index;
  size_t num_rows = 0;
  size_t line_number = 0;
  size_t start = 0;
  while (start < data.size()) {
    size_t end = data.find('\n', start);
    if (end == std::string_view::npos) end = data.size();
    const std::string_view line = data.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (IsBlank(line)) continue;
    absl::StatusOr<std::vector<std::pair<std::string, Cell>>> members =
        LineParser(line).ParseObjectLine();
    if (!members.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(std::string(source_name), ": line ",
                                                     line_number, ": ",
                                                     std::string(members.status().message())));
    }
    for (auto& [key, value] : *members) {
      auto it = column_index.find(key);
      if (it == column_index.end()) {
        it = column_index.emplace(key, columns.size()).first;
        Column column{.name = key, .dtype = Dtype::kObject};
        column.cells.resize(num_rows);  // earlier lines lacked this key
        columns.push_back(std::move(column));
      }
      columns[it->second].cells.push_back(std::move(value));
    }
    ++num_rows;
    for (Column& column : columns) column.cells.resize(num_rows);  // absent keys: missing
  }
  return Table(std::move(columns));
}

absl::StatusOr<Table> ReadJsonLinesFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", path));
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) return absl::DataLossError(absl::StrCat("cannot read ", path));
  return ReadJsonLinesString(contents.str(), path);
}

}  // namespace mlebench
