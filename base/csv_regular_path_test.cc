// The CSV reader's regular-file path (no quotes, no "\r", one kind per
// column, read in parallel segments) must give exactly what its general path
// gives. A file with "\r\n" line ends reads the same to pandas but always
// takes the general path, so each case is read both ways and compared.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "base/csv.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

// One cell with its type, floats as exact hex.
std::string Render(const Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return "NA";
  if (const auto* b = std::get_if<bool>(&cell)) return *b ? "b:1" : "b:0";
  if (const auto* i = std::get_if<int64_t>(&cell)) return absl::StrCat("i:", *i);
  if (const auto* d = std::get_if<double>(&cell)) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "f:%a", *d);
    return buf;
  }
  return absl::StrCat("s:[", std::get<std::string>(cell), "]");
}

// The first difference between two reads (status, names, dtypes, storage or
// a value, doubles bit for bit), or "" when they are the same.
std::string Difference(const absl::StatusOr<TypedTable>& a, const absl::StatusOr<TypedTable>& b) {
  if (!a.ok() || !b.ok()) {
    if (a.status() == b.status()) return "";
    return absl::StrCat(a.status().ToString(), " vs ", b.status().ToString());
  }
  if (a->num_columns() != b->num_columns()) return "column counts differ";
  for (size_t j = 0; j < a->num_columns(); ++j) {
    const TypedColumn &x = a->columns()[j], &y = b->columns()[j];
    if (x.name() != y.name() || x.dtype() != y.dtype() || x.storage() != y.storage() ||
        x.size() != y.size()) {
      return absl::StrCat("column ", j, ": ", x.name(), " ", std::string(DtypeName(x.dtype())), " ",
                          static_cast<int>(x.storage()), " ", x.size(), " vs ", y.name(), " ",
                          std::string(DtypeName(y.dtype())), " ", static_cast<int>(y.storage()), " ", y.size());
    }
    for (size_t row = 0; row < x.size(); ++row) {
      bool same;
      switch (x.storage()) {
        case TypedColumn::Storage::kInt64:
          same = x.ints()[row] == y.ints()[row];
          break;
        case TypedColumn::Storage::kFloat64:
          same = std::memcmp(&x.doubles()[row], &y.doubles()[row], sizeof(double)) == 0;
          break;
        case TypedColumn::Storage::kText:
          same = x.text()[row] == y.text()[row] &&
                 TypedColumn::IsMissingText(x.text()[row]) ==
                     TypedColumn::IsMissingText(y.text()[row]);
          break;
        default:
          same = Render(x.CellAt(row)) == Render(y.CellAt(row));
          break;
      }
      if (!same) {
        return absl::StrCat("column ", x.name(), " row ", row, ": ", Render(x.CellAt(row)), " vs ",
                            Render(y.CellAt(row)));
      }
    }
  }
  return "";
}

// `full` (a read without only_columns) with only the columns named in
// `only`, in its order, as a table of cells; or its error.
absl::StatusOr<Table> Restricted(const absl::StatusOr<TypedTable>& full,
                                 const std::vector<std::string>& only) {
  if (!full.ok()) return full.status();
  std::vector<Column> kept;
  for (const TypedColumn& column : full->columns()) {
    if (std::find(only.begin(), only.end(), column.name()) != only.end()) {
      kept.push_back(column.ToColumn());
    }
  }
  return Table(std::move(kept));
}

// The first difference between two tables of cells (floats bit for bit), or
// "" when they are the same.
std::string CellsDifference(const absl::StatusOr<Table>& a, const absl::StatusOr<Table>& b) {
  if (!a.ok() || !b.ok()) {
    if (a.status() == b.status()) return "";
    return absl::StrCat(a.status().ToString(), " vs ", b.status().ToString());
  }
  if (a->ColumnNames() != b->ColumnNames()) {
    return absl::StrCat("columns [", absl::StrJoin(a->ColumnNames(), ","), "] vs [",
                        absl::StrJoin(b->ColumnNames(), ","), "]");
  }
  for (size_t j = 0; j < a->num_columns(); ++j) {
    const Column &x = a->columns()[j], &y = b->columns()[j];
    if (x.dtype != y.dtype || x.cells.size() != y.cells.size()) {
      return absl::StrCat("column ", x.name, ": dtype or size differs");
    }
    for (size_t row = 0; row < x.cells.size(); ++row) {
      if (Render(x.cells[row]) != Render(y.cells[row])) {
        return absl::StrCat("column ", x.name, " row ", row, ": ", Render(x.cells[row]), " vs ",
                            Render(y.cells[row]));
      }
    }
  }
  return "";
}

// Reads `csv` with only some of its columns (every subset of the first
// four names of its full read, with a name it lacks), as is, with a blank
// line at its end and, without quotes, with "\r\n" line ends (the last two
// take the general path): each must be the full read restricted to those
// columns, and report the full read's shape.
void ExpectOnlyColumnsRestrictTheFullRead(const std::string& csv, const CsvReadOptions& options) {
  std::vector<std::string> texts = {csv, csv + "\n\n"};
  if (csv.find('"') == std::string::npos) {
    texts.push_back(absl::StrReplaceAll(csv, {{"\n", "\r\n"}}));
  }
  const absl::StatusOr<TypedTable> full = ReadTypedCsvString(csv, "test.csv", options);
  std::vector<std::string> names;
  if (full.ok()) names = full->ColumnNames();
  if (names.size() > 4) names.resize(4);
  for (unsigned subset = 0; subset < (1u << names.size()); ++subset) {
    CsvReadOptions some = options;
    some.only_columns = {"not in the file"};
    for (size_t j = 0; j < names.size(); ++j) {
      if (subset & (1u << j)) some.only_columns.push_back(names[j]);
    }
    for (const std::string& text : texts) {
      CsvShape shape;
      const absl::StatusOr<TypedTable> read = ReadTypedCsvString(text, "test.csv", some, &shape);
      const absl::StatusOr<Table> got =
          read.ok() ? absl::StatusOr<Table>(read->ToTable()) : absl::StatusOr<Table>(read.status());
      ASSERT_EQ(CellsDifference(Restricted(full, some.only_columns), got), "")
          << "columns " << absl::StrJoin(some.only_columns, ",") << "; input:\n"
          << csv.substr(0, 2000);
      if (full.ok()) {
        EXPECT_EQ(shape.rows, static_cast<int64_t>(full->num_rows()));
        EXPECT_EQ(shape.columns, static_cast<int64_t>(full->num_columns()));
      }
    }
  }
}

// Reads `csv` as is and with a blank line at its end, which pandas skips
// and which sends the reader down its general path; both must be equal.
// (Unlike "\r\n" line ends, it changes no quoted field's value.)
void ExpectSameWithBlankLine(const std::string& csv, const CsvReadOptions& options = {}) {
  ASSERT_EQ(Difference(ReadTypedCsvString(csv, "test.csv", options),
                       ReadTypedCsvString(csv + "\n\n", "test.csv", options)),
            "")
      << "input:\n"
      << csv.substr(0, 2000);
}

// Reads `csv` as is and with "\r\n" line ends; both must be equal.
void ExpectSameBothWays(const std::string& csv, const CsvReadOptions& options = {}) {
  const std::string crlf = absl::StrReplaceAll(csv, {{"\n", "\r\n"}});
  ASSERT_EQ(Difference(ReadTypedCsvString(csv, "test.csv", options),
                       ReadTypedCsvString(crlf, "test.csv", options)),
            "")
      << "input:\n"
      << csv.substr(0, 2000);
}

// Tokens by what pandas makes of them.
const std::vector<std::string> kInts = {"0", "7", "-17", "+5", " 12", "3 ", "00042",
                                        "9223372036854775807", "-9223372036854775808"};
const std::vector<std::string> kBigInts = {"9223372036854775808", "18446744073709551615",
                                           "18446744073709551616", "-9223372036854775809"};
const std::vector<std::string> kFloats = {
    "0.5",   "1e5",      "-0.0",     ".5",        "5.",      "1.7976931348623157e308",
    "1e309", "-1e309",   "inf",      "-Infinity", "1E-400",  "0.1234567890123456789",
    "9.3e18", "-9.3e18", "123456789012345678.5",  "0.30000000000000004", " 2.5 ", "9007199254740993.0"};
const std::vector<std::string> kMissing = {"", "NA", "nan", "NaN", "null", "None", "#N/A", "<NA>"};
const std::vector<std::string> kText = {"abc", "id0001", "x y", " ", "\xC3\xBC", "True1", "1.2.3",
                                        "-", "e5", "0x10"};
const std::vector<std::string> kBools = {"True", "false", "TRUE"};

std::string Pick(std::mt19937& rng, const std::vector<std::string>& from) {
  return from[std::uniform_int_distribution<size_t>(0, from.size() - 1)(rng)];
}

// A token for a column of `style`, mostly of its own kind.
std::string Token(std::mt19937& rng, int style) {
  const int roll = std::uniform_int_distribution<int>(0, 99)(rng);
  const auto rare = [&](int percent) { return roll < percent; };
  switch (style) {
    case 0:  // ints
      return rare(2) ? Pick(rng, kMissing) : rare(4) ? Pick(rng, kBigInts) : Pick(rng, kInts);
    case 1:  // floats, some integral
      return rare(3) ? Pick(rng, kMissing) : rare(20) ? Pick(rng, kInts) : Pick(rng, kFloats);
    case 2:  // text with the odd number
      return rare(3) ? Pick(rng, kMissing) : rare(8) ? Pick(rng, kInts) : Pick(rng, kText);
    case 3:  // bools
      return rare(5) ? Pick(rng, kMissing) : Pick(rng, kBools);
    case 4:  // pure ints
      return Pick(rng, kInts);
    default:  // pure floats
      return Pick(rng, kFloats);
  }
}

TEST(CsvRegularPathTest, RandomSmallFilesReadAsTheGeneralPathReadsThem) {
  std::mt19937 rng(20261130);
  for (int trial = 0; trial < 3000; ++trial) {
    const size_t width = std::uniform_int_distribution<size_t>(1, 4)(rng);
    const size_t rows = std::uniform_int_distribution<size_t>(0, 12)(rng);
    std::vector<int> styles(width);
    for (int& s : styles) s = std::uniform_int_distribution<int>(0, 5)(rng);
    std::string csv = trial % 50 == 0 ? "\xEF\xBB\xBF" : "";
    for (size_t j = 0; j < width; ++j) absl::StrAppend(&csv, j > 0 ? "," : "", "c", j % 3);
    csv += "\n";
    for (size_t r = 0; r < rows; ++r) {
      const int shape = std::uniform_int_distribution<int>(0, 99)(rng);
      if (shape == 0) {
        csv += "\n";  // blank line
      } else if (shape == 1) {
        csv += " \t\n";  // blank to pandas too
      }
      size_t fields = width;
      if (shape == 2 && width > 1) fields = width - 1;  // padded with NaN
      if (shape == 3) fields = width + 1;               // an index column, or an error
      for (size_t j = 0; j < fields; ++j) {
        if (j > 0) csv += ",";
        csv += Token(rng, styles[j % width]);
        if (shape == 4 && j == 0) csv += "\"q\"";  // quotes: the general path
      }
      if (r + 1 < rows || shape % 2 == 0) csv += "\n";
    }
    CsvReadOptions options;
    if (trial % 7 == 0) options.string_columns = {"c0"};
    ExpectSameBothWays(csv, options);
    if (trial % 3 == 0) ExpectOnlyColumnsRestrictTheFullRead(csv, options);
    if (HasFailure()) return;
  }
}

// Integers of 1 to 8 plain digits are read as one word (which may reach past
// the field, into the next ones or up to the end of the file): every length,
// leading zeros, a non-digit at each position of the word, and the last
// value of a file with and without its final line end.
TEST(CsvRegularPathTest, ShortIntegersReadAsWords) {
  std::mt19937 rng(8);
  for (int trial = 0; trial < 400; ++trial) {
    std::string csv = "id,label\n";
    std::vector<int64_t> expected;
    const size_t rows = std::uniform_int_distribution<size_t>(1, 40)(rng);
    bool all_digits = true;
    for (size_t r = 0; r < rows; ++r) {
      const size_t length = std::uniform_int_distribution<size_t>(1, 12)(rng);
      std::string digits;
      for (size_t k = 0; k < length; ++k) digits += static_cast<char>('0' + rng() % 10);
      if (trial % 4 == 0 && r == rows / 2) {
        // One value that is not plain digits, somewhere in its first 8 bytes.
        const char others[] = {'a', '-', ' ', '.', '/', ':', '\x7f', '+'};
        digits[rng() % std::min<size_t>(length, 8)] = others[rng() % 8];
        all_digits = false;
      }
      expected.push_back(all_digits ? std::stoll(digits) : 0);
      absl::StrAppend(&csv, digits, ",", rng() % 3, r + 1 < rows || trial % 2 ? "\n" : "");
    }
    ExpectSameBothWays(csv);
    ExpectSameWithBlankLine(csv);
    if (HasFailure()) return;
    if (!all_digits) continue;
    const absl::StatusOr<TypedTable> table = ReadTypedCsvString(csv, "test.csv");
    ASSERT_TRUE(table.ok()) << table.status();
    ASSERT_EQ(table->columns()[0].storage(), TypedColumn::Storage::kInt64);
    for (size_t r = 0; r < rows; ++r) ASSERT_EQ(table->columns()[0].ints()[r], expected[r]) << csv;
  }
}

// Quoted fields: around a whole field without quotes or line ends inside,
// the regular path reads them; anything else a quote does (doubled quotes,
// text after the closing quote, a quote inside an unquoted field, a line
// end inside quotes, no closing quote) is the general path's.
TEST(CsvRegularPathTest, QuotedFieldsReadAsTheGeneralPathReadsThem) {
  const std::vector<std::string> quoted = {
      "\"a,b\"", "\"\"", "\"1.5\"", "\"NA\"", "\"x\"", "\" 7 \"", "\"True\"", "\"\xC3\xBC,\"",
      "\"a\tb\"", "\",,,\""};
  const std::vector<std::string> irregular = {"\"a\"\"b\"", "\"ab\"c", "ab\"c", "\"a\nb\"", "\"open",
                                              "\"a\"\"\"", "x\"", "\"\"\"\""};
  std::mt19937 rng(20261207);
  for (int trial = 0; trial < 3000; ++trial) {
    const size_t width = std::uniform_int_distribution<size_t>(1, 4)(rng);
    const size_t rows = std::uniform_int_distribution<size_t>(0, 10)(rng);
    std::vector<int> styles(width);
    for (int& st : styles) st = std::uniform_int_distribution<int>(0, 5)(rng);
    std::string csv;
    for (size_t j = 0; j < width; ++j) absl::StrAppend(&csv, j > 0 ? "," : "", "c", j);
    csv += "\n";
    for (size_t r = 0; r < rows; ++r) {
      for (size_t j = 0; j < width; ++j) {
        if (j > 0) csv += ",";
        const int roll = std::uniform_int_distribution<int>(0, 99)(rng);
        if (roll < 25) {
          csv += Pick(rng, quoted);
        } else if (roll < 27) {
          csv += Pick(rng, irregular);
        } else if (roll < 40) {
          csv += "\"" + Token(rng, styles[j]) + "\"";
        } else {
          csv += Token(rng, styles[j]);
        }
      }
      if (r + 1 < rows || trial % 2 == 0) csv += "\n";
    }
    CsvReadOptions options;
    if (trial % 5 == 0) options.string_columns = {"c1"};
    if (trial % 11 == 0) options.separator = ';';
    if (options.separator != ',') absl::StrReplaceAll({{",", ";"}}, &csv);
    ExpectSameWithBlankLine(csv, options);
    if (trial % 3 == 0) ExpectOnlyColumnsRestrictTheFullRead(csv, options);
    if (HasFailure()) return;
  }
  // Quoted values are views into the file, delimiters and all.
  const absl::StatusOr<TypedTable> table =
      ReadTypedCsvString("id,text\n1,\"a,b\"\n2,\"\"\n3,c\n", "test.csv");
  ASSERT_TRUE(table.ok()) << table.status();
  ASSERT_EQ(table->columns()[1].storage(), TypedColumn::Storage::kText);
  EXPECT_EQ(table->columns()[1].text()[0], "a,b");
  EXPECT_TRUE(TypedColumn::IsMissingText(table->columns()[1].text()[1]));
  EXPECT_EQ(table->columns()[1].text()[2], "c");
}

// Many chunks (1024 rows each at 512 columns) over several segments (files
// above 1 MiB are cut in parallel segments), with chunk-dependent kinds.
TEST(CsvRegularPathTest, MultiChunkFilesKeepPandasPerChunkInference) {
  constexpr size_t kWidth = 512, kRows = 3000, kChunk = 1024;
  // Per column: what each row holds, as a function of the row.
  const auto build = [&](auto cell) {
    std::string csv;
    for (size_t j = 0; j < kWidth; ++j) absl::StrAppend(&csv, j > 0 ? "," : "", "c", j);
    csv += "\n";
    for (size_t r = 0; r < kRows; ++r) {
      for (size_t j = 0; j < kWidth; ++j) {
        if (j > 0) csv += ",";
        csv += cell(r, j);
      }
      csv += "\n";
    }
    return csv;
  };
  // Regular throughout: ints, floats, text, bools.
  const std::string regular = build([](size_t r, size_t j) -> std::string {
    switch (j % 4) {
      case 0:
        return std::to_string(r * 7 + j);
      case 1:
        return absl::StrCat(r % 10, ".", j);
      case 2:
        return absl::StrCat("id", r, "_", j);
      default:
        return (r + j) % 3 == 0 ? "True" : "false";
    }
  });
  ASSERT_GT(regular.size(), size_t{2} << 20);
  ExpectSameBothWays(regular);
  const absl::StatusOr<TypedTable> table = ReadTypedCsvString(regular, "test.csv");
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(table->num_rows(), kRows);
  EXPECT_EQ(table->columns()[0].storage(), TypedColumn::Storage::kInt64);
  EXPECT_EQ(table->columns()[1].storage(), TypedColumn::Storage::kFloat64);
  EXPECT_EQ(table->columns()[2].storage(), TypedColumn::Storage::kText);
  EXPECT_EQ(table->columns()[3].storage(), TypedColumn::Storage::kBool);
  EXPECT_EQ(table->columns()[4].ints()[kRows - 1], static_cast<int64_t>((kRows - 1) * 7 + 4));
  EXPECT_EQ(table->columns()[7].bools()[2], 1);  // (2 + 7) % 3 == 0

  // One chunk-dependent column at a time (any of them sends the whole file
  // down the general path, so together they would hide each other): a
  // float column whose second chunk is all integers; a text column whose
  // second chunk is all numbers (pandas: object holding ints there); an int
  // column with a float in its last row; an int column with missing values
  // in its third chunk only; a float column whose second chunk holds only
  // integers and missing values.
  const auto with_column_1 = [&](auto value) {
    return build([&](size_t r, size_t j) -> std::string {
      return j == 1 ? value(r) : std::to_string(j);
    });
  };
  const std::vector<std::function<std::string(size_t)>> columns = {
      [](size_t r) { return r / kChunk == 1 ? std::to_string(r) : absl::StrCat(r, ".5"); },
      [](size_t r) { return r / kChunk == 1 ? std::to_string(r) : absl::StrCat("t", r); },
      [](size_t r) { return r + 1 == kRows ? std::string("1.5") : std::to_string(r); },
      [](size_t r) { return r / kChunk == 2 && r % 2 == 0 ? std::string() : std::to_string(r); },
      [](size_t r) {
        return r / kChunk == 1 ? std::string(r % 3 == 0 ? "NA" : "4") : std::string("0.25");
      },
      [](size_t r) { return std::string(r == 2 * kChunk + 5 ? "" : r % 2 ? "TRUE" : "False"); },
  };
  for (size_t c = 0; c < columns.size(); ++c) {
    SCOPED_TRACE(absl::StrCat("chunk-dependent column ", c));
    ExpectSameBothWays(with_column_1(columns[c]));
    // Without column c1, the rest of the file is regular again.
    for (const std::vector<std::string>& only :
         {std::vector<std::string>{"c0", "c2"}, std::vector<std::string>{"c1", "c511"}}) {
      const std::string csv = with_column_1(columns[c]);
      const CsvReadOptions some{.only_columns = only};
      CsvShape shape;
      const absl::StatusOr<TypedTable> read = ReadTypedCsvString(csv, "test.csv", some, &shape);
      ASSERT_TRUE(read.ok()) << read.status();
      absl::StatusOr<Table> got = read->ToTable();
      ASSERT_EQ(CellsDifference(Restricted(ReadTypedCsvString(csv, "test.csv"), only), got), "");
      EXPECT_EQ(shape.rows, static_cast<int64_t>(kRows));
      EXPECT_EQ(shape.columns, static_cast<int64_t>(kWidth));
    }
  }
  {
    const absl::StatusOr<TypedTable> mixed = ReadTypedCsvString(with_column_1(columns[1]), "t.csv");
    ASSERT_TRUE(mixed.ok()) << mixed.status();
    EXPECT_EQ(mixed->columns()[1].storage(), TypedColumn::Storage::kCells);
    EXPECT_EQ(mixed->columns()[1].CellAt(kChunk), Cell(static_cast<int64_t>(kChunk)));
  }
  // A text column quoted throughout (commas inside), and what makes a quote
  // the general path's, deep in the file (in a later segment).
  const std::string quoted_text = build([](size_t r, size_t j) -> std::string {
    return j % 4 == 2 ? absl::StrCat("\"id,", r, "\"") : std::to_string(r + j);
  });
  ExpectSameWithBlankLine(quoted_text);
  {
    const absl::StatusOr<TypedTable> read = ReadTypedCsvString(quoted_text, "test.csv");
    ASSERT_TRUE(read.ok()) << read.status();
    EXPECT_EQ(read->columns()[2].text()[kRows - 1], absl::StrCat("id,", kRows - 1));
  }
  const size_t late = quoted_text.find("\"id,", quoted_text.size() * 3 / 4);
  for (const std::string& change : {std::string("\"\""), std::string("x\""), std::string("\n")}) {
    std::string changed = quoted_text;
    changed.insert(late + 1, change);  // a doubled quote, a quote inside, a line end inside
    ExpectSameWithBlankLine(changed);
  }
  std::string after_close = quoted_text;
  after_close.insert(quoted_text.find('"', late + 1) + 1, "z");  // text after the closing quote
  ExpectSameWithBlankLine(after_close);
  std::string mid_field = quoted_text;
  // An unquoted field with a quote in it (the field after the quoted one).
  mid_field.insert(quoted_text.find('"', late + 1) + 3, "\"");
  ExpectSameWithBlankLine(mid_field);

  // A blank line and an unterminated quote deep in the file.
  std::string blank = regular;
  blank.insert(blank.find('\n', blank.size() / 2) + 1, "\n");
  ExpectSameBothWays(blank);
  std::string quoted = regular;
  quoted.insert(quoted.find('\n', quoted.size() * 3 / 4) + 1, "\"");
  ExpectSameBothWays(quoted);
  // A row one field too long, and one a field short, in the second segment.
  std::string long_row = regular;
  long_row.insert(long_row.find('\n', long_row.size() * 2 / 3), ",x");
  ExpectSameBothWays(long_row);
  // A dropped column still counts in every row's width.
  EXPECT_EQ(CellsDifference(ReadCsvString(long_row, "test.csv"),
                            ReadCsvString(long_row, "test.csv", {.only_columns = {"c0"}})),
            "");
  std::string short_row = regular;
  const size_t line_end = short_row.find('\n', short_row.size() * 2 / 3);
  const size_t last_comma = short_row.rfind(',', line_end);
  short_row.erase(last_comma, line_end - last_comma);
  ExpectSameBothWays(short_row);
  // Invalid UTF-8 and a NUL byte late in the file are reported where they are.
  std::string binary = regular;
  binary[binary.size() - 10] = '\xFF';
  ExpectSameBothWays(binary);
  binary[binary.size() - 10] = '\0';
  ExpectSameBothWays(binary);
  std::string text = regular;
  text.replace(text.size() - 20, 2, "\xC3\xA9");  // valid UTF-8 in the last segment
  ExpectSameBothWays(text);
}

// Floats the fast decimal path reads are the correctly rounded values.
TEST(CsvRegularPathTest, DecimalValuesAreCorrectlyRounded) {
  std::mt19937_64 rng(7);
  std::vector<std::string> tokens = {"9007199254740992", "9007199254740993", "9007199254740995",
                                     "18014398509481985", "0.9007199254740993",
                                     "9999999999999999999", "1000000000000000001.5",
                                     "0.000000000000000001", "0.999999999999999999",
                                     "-0.000000000000000001", "1234567890123456789",
                                     "0.1", "0.30000000000000004", "123.456e2"};
  // Mantissas beyond 2**53 (up to 19 digits): the exact-comparison path.
  for (int i = 0; i < 100000; ++i) {
    const size_t int_digits = rng() % 3, fraction_digits = 15 + rng() % 5;
    std::string t = int_digits == 0 ? "0." : "";
    for (size_t k = 0; k < int_digits; ++k) t += static_cast<char>('1' + rng() % 9);
    if (int_digits > 0) t += ".";
    for (size_t k = 0; k < fraction_digits; ++k) t += static_cast<char>('0' + rng() % 10);
    tokens.push_back(t);
  }
  for (int i = 0; i < 20000; ++i) {
    std::string t = rng() % 4 == 0 ? "-" : "";
    const size_t int_digits = rng() % 6, fraction_digits = rng() % 22;
    for (size_t k = 0; k < int_digits; ++k) t += static_cast<char>('0' + rng() % 10);
    if (fraction_digits > 0 || int_digits == 0) {
      t += ".";
      for (size_t k = 0; k < std::max<size_t>(fraction_digits, 1); ++k) {
        t += static_cast<char>('0' + rng() % 10);
      }
    }
    tokens.push_back(t);
  }
  std::string csv = "x\n";
  for (const std::string& t : tokens) csv += t + "\n";
  const absl::StatusOr<TypedTable> table = ReadTypedCsvString(csv, "test.csv");
  ASSERT_TRUE(table.ok()) << table.status();
  ASSERT_EQ(table->columns()[0].storage(), TypedColumn::Storage::kFloat64);
  const std::span<const double> values = table->columns()[0].doubles();
  ASSERT_EQ(values.size(), tokens.size());
  for (size_t i = 0; i < tokens.size(); ++i) {
    const double expected = std::strtod(tokens[i].c_str(), nullptr);  // glibc rounds correctly
    ASSERT_EQ(std::signbit(values[i]), std::signbit(expected)) << tokens[i];
    ASSERT_EQ(values[i], expected) << tokens[i];
  }
  ExpectSameBothWays(csv);
}

}  // namespace
}  // namespace mlebench
