#include "base/csv.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Table Read(std::string_view data, const CsvReadOptions& options = {}) {
  absl::StatusOr<Table> table = ReadCsvString(data, "test.csv", options);
  EXPECT_TRUE(table.ok()) << table.status();
  return table.ok() ? *std::move(table) : Table();
}

absl::Status ReadError(std::string_view data) {
  absl::StatusOr<Table> table = ReadCsvString(data, "test.csv");
  EXPECT_FALSE(table.ok()) << "parsed without error: " << data;
  return table.status();
}

std::vector<std::string> Dtypes(const Table& table) {
  std::vector<std::string> out;
  for (const Column& c : table.columns()) out.emplace_back(DtypeName(c.dtype));
  return out;
}

// A readable rendering of one column's cells: "NaN", "true"/"false",
// "i:<int>", "f:<double>", "s:<string>".
std::vector<std::string> Cells(const Table& table, size_t column) {
  std::vector<std::string> out;
  for (const Cell& cell : table.columns().at(column).cells) {
    if (std::holds_alternative<std::monostate>(cell)) {
      out.push_back("NaN");
    } else if (const auto* b = std::get_if<bool>(&cell)) {
      out.push_back(*b ? "true" : "false");
    } else if (const auto* i = std::get_if<int64_t>(&cell)) {
      out.push_back("i:" + std::to_string(*i));
    } else if (const auto* d = std::get_if<double>(&cell)) {
      if (std::isnan(*d)) {
        out.push_back("NaN");
      } else {
        char buf[64];
        std::snprintf(buf, sizeof(buf), "f:%.17g", *d);
        out.push_back(buf);
      }
    } else {
      out.push_back("s:" + std::get<std::string>(cell));
    }
  }
  return out;
}

double FloatAt(const Table& table, size_t column, size_t row) {
  return std::get<double>(table.columns().at(column).cells.at(row));
}

// --- Structure: quoting, line ends, BOM, blank lines -----------------------

TEST(ReadCsvTest, SimpleIntsAndHeader) {
  Table t = Read("a,b\n1,2\n3,4\n");
  EXPECT_THAT(t.ColumnNames(), ElementsAre("a", "b"));
  EXPECT_THAT(Dtypes(t), ElementsAre("int64", "int64"));
  EXPECT_THAT(Cells(t, 0), ElementsAre("i:1", "i:3"));
  EXPECT_THAT(Cells(t, 1), ElementsAre("i:2", "i:4"));
  EXPECT_EQ(t.num_rows(), 2u);
}

TEST(ReadCsvTest, QuotedFieldsWithDelimitersQuotesAndNewlines) {
  Table t = Read("a,b\n\"x,y\",\"he said \"\"hi\"\"\"\n\"line1\nline2\",\"crlf\r\ninside\"\n");
  EXPECT_THAT(Dtypes(t), ElementsAre("object", "object"));
  EXPECT_THAT(Cells(t, 0), ElementsAre("s:x,y", "s:line1\nline2"));
  EXPECT_THAT(Cells(t, 1), ElementsAre("s:he said \"hi\"", "s:crlf\r\ninside"));
}

TEST(ReadCsvTest, LongEscapedFields) {
  // Fields that need unescaping, long and short, in any order.
  const std::string long_text(100000, 'x');
  Table t = Read("a,b\n\"" + long_text + "\"\"\",\"q\"\"\"\n\"s\"\"\",\"" + long_text +
                 "\"\"y\"\n");
  EXPECT_THAT(Cells(t, 0), ElementsAre("s:" + long_text + "\"", "s:s\""));
  EXPECT_THAT(Cells(t, 1), ElementsAre("s:q\"", "s:" + long_text + "\"y"));
}

TEST(ReadCsvTest, QuoteRulesOutsideRfc4180) {
  // Text after a closing quote continues the field; a quote inside an
  // unquoted field is literal; a space before a quote makes it unquoted.
  Table t = Read("a,b,c\n\"ab\"cd,x\"y\"z, \"q,r\"\n");
  EXPECT_THAT(t.ColumnNames(), ElementsAre("a", "b", "c"));
  // The last row has 4 fields, one more than the header: the first becomes
  // pandas' index and is dropped.
  EXPECT_THAT(Cells(t, 0), ElementsAre("s:x\"y\"z"));
  EXPECT_THAT(Cells(t, 1), ElementsAre("s: \"q"));
  EXPECT_THAT(Cells(t, 2), ElementsAre("s:r\""));
}

TEST(ReadCsvTest, QuotedNumbersAndNaTokensAreStillParsed) {
  Table t = Read("a,b\n\"1\",\"NA\"\n\"2\",\"3.5\"\n");
  EXPECT_THAT(Dtypes(t), ElementsAre("int64", "float64"));
  EXPECT_THAT(Cells(t, 0), ElementsAre("i:1", "i:2"));
  EXPECT_THAT(Cells(t, 1), ElementsAre("NaN", "f:3.5"));
}

TEST(ReadCsvTest, LineEndingsCrLfAndLoneCr) {
  for (std::string_view data : {"a,b\r\n1,2\r\n3,4\r\n", "a,b\r1,2\r3,4", "a,b\n1,2\r\n3,4\r"}) {
    Table t = Read(data);
    EXPECT_THAT(t.ColumnNames(), ElementsAre("a", "b")) << data;
    EXPECT_THAT(Cells(t, 0), ElementsAre("i:1", "i:3")) << data;
    EXPECT_THAT(Cells(t, 1), ElementsAre("i:2", "i:4")) << data;
  }
}

TEST(ReadCsvTest, BomIsDroppedOnlyAtTheStart) {
  Table t = Read("\xEF\xBB\xBF" "id,x\n1,\xEF\xBB\xBF" "2\n");
  EXPECT_THAT(t.ColumnNames(), ElementsAre("id", "x"));
  EXPECT_THAT(Cells(t, 1), ElementsAre("s:\xEF\xBB\xBF" "2"));
}

TEST(ReadCsvTest, BlankAndWhitespaceOnlyLinesAreSkipped) {
  Table t = Read("\n  \na,b\r\n\r\n1,2\n \t \n\n3,4\n\n");
  EXPECT_THAT(t.ColumnNames(), ElementsAre("a", "b"));
  EXPECT_THAT(Cells(t, 0), ElementsAre("i:1", "i:3"));
  // A line of only delimiters or a quoted empty field is not blank.
  Table u = Read("a,b\n,\n\"\"\n");
  EXPECT_EQ(u.num_rows(), 2u);
  EXPECT_THAT(Dtypes(u), ElementsAre("float64", "float64"));
}

TEST(ReadCsvTest, LeadingWhitespaceIsKeptInStrings) {
  Table t = Read("a,b\n  x,2\n");
  EXPECT_THAT(Cells(t, 0), ElementsAre("s:  x"));
}

TEST(ReadCsvTest, CarriageReturnBlankLineEatsADelimiter) {
  // pandas' tokenizer drops a delimiter right after a blank line ended by a
  // lone "\r".
  Table t = Read("a,b\n\r,5\n");
  EXPECT_THAT(Cells(t, 0), ElementsAre("i:5"));
  EXPECT_THAT(Cells(t, 1), ElementsAre("NaN"));
}

// --- Other separators (pandas' `sep`) ----------------------------------------

CsvReadOptions TabSeparated() {
  CsvReadOptions options;
  options.separator = '\t';
  return options;
}

TEST(ReadCsvTest, TabSeparatedFieldsKeepCommas) {
  Table t = Read("a,b\tc\n1,2\t3\n\"x\ty\"\t4\n", TabSeparated());
  EXPECT_THAT(t.ColumnNames(), ElementsAre("a,b", "c"));
  EXPECT_THAT(Dtypes(t), ElementsAre("object", "int64"));
  EXPECT_THAT(Cells(t, 0), ElementsAre("s:1,2", "s:x\ty"));
  // The default separator is still ",".
  EXPECT_THAT(Read("a,b\tc\n1,2\t3\n").ColumnNames(), ElementsAre("a", "b\tc"));
}

TEST(ReadCsvTest, WithTabSeparatorOnlySpacesMakeABlankLine) {
  // Spaces alone: skipped. A tab is a delimiter, so a line holding one is a
  // row (pandas' WHITESPACE_LINE state backtracks when it meets the delimiter).
  Table t = Read("a\tb\n  \n \t1\n\t\n3\t4\n", TabSeparated());
  EXPECT_EQ(t.num_rows(), 3u);
  EXPECT_THAT(Cells(t, 0), ElementsAre("s: ", "NaN", "s:3"));
  EXPECT_THAT(Cells(t, 1), ElementsAre("f:1", "NaN", "f:4"));
  // A first row of only tabs is wider than the header: its first field is
  // the dropped index.
  Table u = Read("a\tb\n\t\t\n", TabSeparated());
  EXPECT_THAT(Cells(u, 0), ElementsAre("NaN"));
  EXPECT_THAT(Dtypes(u), ElementsAre("float64", "float64"));
  // After a blank line ended by a lone "\r", the tab is the eaten delimiter.
  Table v = Read("a\tb\n\r\t5\n", TabSeparated());
  EXPECT_THAT(Cells(v, 0), ElementsAre("i:5"));
  EXPECT_THAT(Cells(v, 1), ElementsAre("NaN"));
}

TEST(ReadCsvTest, TextAfterAClosingQuoteStopsAtTheSeparator) {
  Table t = Read("a;b\n\"q\"x;y\n", [] {
    CsvReadOptions options;
    options.separator = ';';
    return options;
  }());
  EXPECT_THAT(Cells(t, 0), ElementsAre("s:qx"));
  EXPECT_THAT(Cells(t, 1), ElementsAre("s:y"));
}

TEST(ReadCsvTest, UnsupportedSeparatorsAreErrors) {
  for (char separator : {'"', '\n', '\r', '\0', '.', '1', 'a', '-', ' '}) {
    CsvReadOptions options;
    options.separator = separator;
    absl::StatusOr<Table> table = ReadCsvString("a\n1\n", "test.csv", options);
    EXPECT_EQ(table.status().code(), absl::StatusCode::kInvalidArgument) << int{separator};
    EXPECT_THAT(table.status().message(), HasSubstr("unsupported CSV separator")) << int{separator};
  }
  for (char separator : {',', '\t', ';', '|'}) EXPECT_TRUE(CheckCsvSeparator(separator).ok());
}

TEST(ReadCsvTest, FinalLineWithoutNewline) {
  Table t = Read("a,b\n1,2\n3,4");
  EXPECT_THAT(Cells(t, 1), ElementsAre("i:2", "i:4"));
  Table u = Read("a,b\n1,");  // trailing delimiter at EOF: an empty field
  EXPECT_THAT(Cells(u, 1), ElementsAre("NaN"));
}

TEST(ReadCsvTest, EmptyInputsGiveAnEmptyTable) {
  for (std::string_view data : {"", "\n", "\n\n\r\n", "  \n\t\n", "\xEF\xBB\xBF", " "}) {
    Table t = Read(data);
    EXPECT_EQ(t.num_columns(), 0u) << data;
    EXPECT_EQ(t.num_rows(), 0u) << data;
  }
}

TEST(ReadCsvTest, HeaderOnlyGivesZeroRowsOfObject) {
  for (std::string_view data : {"a,b\n", "a,b", "a,b\n\n \n"}) {
    Table t = Read(data);
    EXPECT_THAT(t.ColumnNames(), ElementsAre("a", "b")) << data;
    EXPECT_THAT(Dtypes(t), ElementsAre("object", "object")) << data;
    EXPECT_EQ(t.num_rows(), 0u);
  }
}

// --- Header names ----------------------------------------------------------

TEST(ReadCsvTest, DuplicateNamesAreRenamedLikePandas) {
  EXPECT_THAT(Read("a,a,a\n1,2,3\n").ColumnNames(), ElementsAre("a", "a.1", "a.2"));
  // pandas skips names already in the header.
  EXPECT_THAT(Read("a,a,a.1\n1,2,3\n").ColumnNames(), ElementsAre("a", "a.2", "a.1"));
  EXPECT_THAT(Read("a,a.1,a\n1,2,3\n").ColumnNames(), ElementsAre("a", "a.1", "a.2"));
  EXPECT_THAT(Read("a,a,a,a.1,a.2\n1,2,3,4,5\n").ColumnNames(),
              ElementsAre("a", "a.3", "a.4", "a.1", "a.2"));
}

TEST(ReadCsvTest, EmptyNamesBecomeUnnamed) {
  EXPECT_THAT(Read(",b,\n1,2,3\n").ColumnNames(), ElementsAre("Unnamed: 0", "b", "Unnamed: 2"));
  EXPECT_THAT(Read("Unnamed: 2,,\n1,2,3\n").ColumnNames(),
              ElementsAre("Unnamed: 2", "Unnamed: 1", "Unnamed: 2.1"));
  EXPECT_THAT(Read("\"\"\n1\n").ColumnNames(), ElementsAre("Unnamed: 0"));
  // Named columns keep their names; the made-up ones are renamed.
  EXPECT_THAT(Read("a,,Unnamed: 1\n1,2,3\n").ColumnNames(),
              ElementsAre("a", "Unnamed: 1.1", "Unnamed: 1"));
  EXPECT_THAT(Read("\"b,c\",,x,Unnamed: 1,Unnamed: 1\n1,2,3,4,5\n").ColumnNames(),
              ElementsAre("b,c", "Unnamed: 1.2", "x", "Unnamed: 1", "Unnamed: 1.1"));
}

TEST(ReadCsvTest, HeaderNamesAreVerbatim) {
  Table t = Read(" a ,\"b,c\",NA,1\n1,2,3,4\n");
  EXPECT_THAT(t.ColumnNames(), ElementsAre(" a ", "b,c", "NA", "1"));
}

// --- Row widths --------------------------------------------------------------

TEST(ReadCsvTest, ShortRowsArePaddedWithNaN) {
  Table t = Read("a,b,c\n1,2\n3,4,5\n6\n");
  EXPECT_THAT(Dtypes(t), ElementsAre("int64", "float64", "float64"));
  EXPECT_THAT(Cells(t, 1), ElementsAre("f:2", "f:4", "NaN"));
  EXPECT_THAT(Cells(t, 2), ElementsAre("NaN", "f:5", "NaN"));
}

TEST(ReadCsvTest, LongRowIsAnErrorNamingLineAndCounts) {
  absl::Status s = ReadError("a,b\n1,2\n\n3,4,5\n");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("test.csv"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("line 4, column 5"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("expected 2 fields, saw 3"));
}

TEST(ReadCsvTest, WiderFirstDataRowBecomesTheDroppedIndex) {
  // pandas' implicit index: a first data row with k extra fields makes its
  // first k fields the index; later rows are read at that width.
  Table t = Read("a,b\n1,2,3\n4,5\n");
  EXPECT_THAT(t.ColumnNames(), ElementsAre("a", "b"));
  EXPECT_THAT(Cells(t, 0), ElementsAre("i:2", "i:5"));
  EXPECT_THAT(Cells(t, 1), ElementsAre("f:3", "NaN"));
  absl::Status s = ReadError("a,b\n1,2,3\n4,5,6,7\n");
  EXPECT_THAT(std::string(s.message()), HasSubstr("line 3"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("expected 3 fields, saw 4"));
}

// --- NaN tokens and dtypes ---------------------------------------------------

TEST(ReadCsvTest, AllDefaultNaTokensAreMissing) {
  const char* tokens[] = {"",     "#N/A", "#N/A N/A", "#NA",  "-1.#IND", "-1.#QNAN", "-NaN",
                          "-nan", "1.#IND", "1.#QNAN", "<NA>", "N/A",     "NA",       "NULL",
                          "NaN",  "None", "n/a",     "nan",  "null"};
  std::string data = "a,b\n";
  for (const char* token : tokens) data += std::string("x,") + token + "\n";
  Table t = Read(data);
  EXPECT_THAT(Dtypes(t), ElementsAre("object", "float64"));
  for (const std::string& cell : Cells(t, 1)) EXPECT_EQ(cell, "NaN");
  EXPECT_EQ(t.num_rows(), std::size(tokens));
}

TEST(ReadCsvTest, NearNaTokensAreStrings) {
  Table t = Read("a\n NA\nNA \nNAN\nnull \nNone \n");
  EXPECT_THAT(Dtypes(t), ElementsAre("object"));
  EXPECT_THAT(Cells(t, 0), ElementsAre("s: NA", "s:NA ", "s:NAN", "s:null ", "s:None "));
}

TEST(ReadCsvTest, IntColumnWithNaNIsFloat) {
  Table t = Read("a\n1\n\n2\nNA\n");
  EXPECT_THAT(Dtypes(t), ElementsAre("float64"));
  EXPECT_THAT(Cells(t, 0), ElementsAre("f:1", "f:2", "NaN"));
  // Large ints convert to the nearest double.
  Table u = Read("a\n9007199254740993\nNA\n");
  EXPECT_EQ(FloatAt(u, 0, 0), 9007199254740992.0);
  // pandas uses INT64_MIN as its NA marker: with any NA it becomes NaN too.
  Table v = Read("a\n-9223372036854775808\nNA\n");
  EXPECT_THAT(Cells(v, 0), ElementsAre("NaN", "NaN"));
  // Only INT64_MIN itself (pandas 2.x compares before converting to float;
  // pandas 1.5 also hit values that round to it).
  Table w = Read("a\n-9223372036854775807\nNA\n");
  EXPECT_THAT(Cells(w, 0), ElementsAre("f:-9.2233720368547758e+18", "NaN"));
}

TEST(ReadCsvTest, AllMissingColumnIsFloat) {
  Table t = Read("a,b\n1,\n2,NA\n");
  EXPECT_THAT(Dtypes(t), ElementsAre("int64", "float64"));
}

TEST(ReadCsvTest, IntegerSyntax) {
  Table t = Read("a\n+5\n-0\n007\n 12 \n\t-3\t\n");
  EXPECT_THAT(Dtypes(t), ElementsAre("int64"));
  EXPECT_THAT(Cells(t, 0), ElementsAre("i:5", "i:0", "i:7", "i:12", "i:-3"));
  EXPECT_THAT(Dtypes(Read("a\n1_000\n")), ElementsAre("object"));
  EXPECT_THAT(Dtypes(Read("a\n0x10\n")), ElementsAre("object"));
  EXPECT_THAT(Dtypes(Read("a\n1 2\n")), ElementsAre("object"));
}

TEST(ReadCsvTest, Int64Limits) {
  Table t = Read("a\n-9223372036854775808\n9223372036854775807\n");
  EXPECT_THAT(Dtypes(t), ElementsAre("int64"));
  EXPECT_THAT(Cells(t, 0), ElementsAre("i:-9223372036854775808", "i:9223372036854775807"));
}

TEST(ReadCsvTest, IntegersBeyondInt64) {
  // pandas: uint64 (no such dtype here: kept exactly, as text).
  Table t = Read("a\n9223372036854775808\n18446744073709551615\n1\n");
  EXPECT_THAT(Dtypes(t), ElementsAre("object"));
  EXPECT_THAT(Cells(t, 0), ElementsAre("s:9223372036854775808", "s:18446744073709551615", "s:1"));
  // Beyond uint64, or below int64: object.
  EXPECT_THAT(Dtypes(Read("a\n18446744073709551616\n")), ElementsAre("object"));
  EXPECT_THAT(Dtypes(Read("a\n-9223372036854775809\n")), ElementsAre("object"));
  // Both negative and above int64: pandas gives up and keeps even NA tokens
  // as text.
  Table u = Read("a\n9223372036854775808\n-1\nNA\n");
  EXPECT_THAT(Cells(u, 0), ElementsAre("s:9223372036854775808", "s:-1", "s:NA"));
  Table v = Read("a\n9223372036854775808\nNA\n");
  EXPECT_THAT(Cells(v, 0), ElementsAre("s:9223372036854775808", "s:NA"));
  // Overflow with missing values beyond uint64: NA stays missing.
  Table w = Read("a\n99999999999999999999\nNA\n");
  EXPECT_THAT(Cells(w, 0), ElementsAre("s:99999999999999999999", "NaN"));
  // Mixed with floats the order matters to pandas: a float first gives
  // float64, an overflow beyond uint64 first gives object.
  EXPECT_THAT(Cells(Read("a\n1.5\n99999999999999999999\n"), 0), ElementsAre("f:1.5", "f:1e+20"));
  EXPECT_THAT(Dtypes(Read("a\n99999999999999999999\n1.5\n")), ElementsAre("object"));
  EXPECT_THAT(Cells(Read("a\n9999999999999999999\n1.5\n"), 0), ElementsAre("f:1e+19", "f:1.5"));
  EXPECT_THAT(Cells(Read("a\n-99999999999999999999\n1.5\n"), 0),
              ElementsAre("f:-1e+20", "f:1.5"));
}

TEST(ReadCsvTest, FloatsRoundTrip) {
  Table t = Read(
      "a\n0.1\n1e-310\n1.7976931348623157e308\n2.675\n0.30000000000000004\n-0.0\n5e-324\n"
      "123456789012345678901234567890\n.5\n5.\n1E+05\n 1.5\t\n2.4703282292062328e-324\n");
  EXPECT_THAT(Dtypes(t), ElementsAre("float64"));
  const std::vector<double> expected = {0.1,
                                        1e-310,
                                        1.7976931348623157e308,
                                        2.675,
                                        0.30000000000000004,
                                        -0.0,
                                        5e-324,
                                        1.2345678901234568e29,
                                        0.5,
                                        5.0,
                                        1e5,
                                        1.5,
                                        5e-324};
  ASSERT_EQ(t.num_rows(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(FloatAt(t, 0, i), expected[i]) << i;
    EXPECT_EQ(std::signbit(FloatAt(t, 0, i)), std::signbit(expected[i])) << i;
  }
}

TEST(ReadCsvTest, FloatOverflowAndUnderflow) {
  // pandas treats a +inf overflow as a parse failure but accepts -inf.
  EXPECT_THAT(Dtypes(Read("a\n1e400\n")), ElementsAre("object"));
  EXPECT_THAT(Dtypes(Read("a\n1.7976931348623159e308\n")), ElementsAre("object"));
  EXPECT_EQ(FloatAt(Read("a\n-1e400\n"), 0, 0), -std::numeric_limits<double>::infinity());
  Table t = Read("a\n1e-400\n-1e-400\n0e999999999999\n");
  EXPECT_EQ(FloatAt(t, 0, 0), 0.0);
  EXPECT_TRUE(std::signbit(FloatAt(t, 0, 1)));
  EXPECT_EQ(FloatAt(t, 0, 2), 0.0);
}

TEST(ReadCsvTest, InfinitySpellings) {
  Table t = Read("a\ninf\n-Infinity\n+INF\niNfInItY\n-inf\n+infinity\n");
  EXPECT_THAT(Dtypes(t), ElementsAre("float64"));
  EXPECT_THAT(Cells(t, 0), ElementsAre("f:inf", "f:-inf", "f:inf", "f:inf", "f:-inf", "f:inf"));
  // No surrounding space, no "nan" spelled otherwise than the NA tokens.
  EXPECT_THAT(Dtypes(Read("a\n inf\n")), ElementsAre("object"));
  EXPECT_THAT(Dtypes(Read("a\n1.5\nNAN\n")), ElementsAre("object"));
  EXPECT_THAT(Dtypes(Read("a\n1.5\n+nan\n")), ElementsAre("object"));
}

TEST(ReadCsvTest, MalformedFloatsAreObject) {
  for (std::string_view data : {"a\n1e\n", "a\n.\n", "a\n1.5x\n", "a\n1e+\n", "a\n--1\n",
                                "a\n1.2.3\n", "a\n  \n1\n x\n", "a\ne5\n"}) {
    EXPECT_THAT(Dtypes(Read(data)), ElementsAre("object")) << data;
  }
}

TEST(ReadCsvTest, Bools) {
  Table t = Read("a\nTrue\nfalse\ntRuE\nFALSE\n");
  EXPECT_THAT(Dtypes(t), ElementsAre("bool"));
  EXPECT_THAT(Cells(t, 0), ElementsAre("true", "false", "true", "false"));
  // With a missing value: object holding bools and NaN.
  Table u = Read("a\nTrue\nNA\nFalse\n");
  EXPECT_THAT(Dtypes(u), ElementsAre("object"));
  EXPECT_THAT(Cells(u, 0), ElementsAre("true", "NaN", "false"));
  // Mixed with numbers or padded with spaces: strings.
  EXPECT_THAT(Cells(Read("a\nTrue\n1\n"), 0), ElementsAre("s:True", "s:1"));
  EXPECT_THAT(Cells(Read("a\nTrue \n"), 0), ElementsAre("s:True "));
}

TEST(ReadCsvTest, StringColumnsSkipInference) {
  CsvReadOptions options;
  options.string_columns = {"id", "dup", "absent"};
  Table t = Read("id,x,dup,dup\n001,1,2,3\nNA,2,True,4\n", options);
  EXPECT_THAT(t.ColumnNames(), ElementsAre("id", "x", "dup", "dup.1"));
  // pandas applies a dtype given for "dup" to its renamed duplicate too.
  EXPECT_THAT(Dtypes(t), ElementsAre("object", "int64", "object", "object"));
  EXPECT_THAT(Cells(t, 0), ElementsAre("s:001", "NaN"));
  EXPECT_THAT(Cells(t, 2), ElementsAre("s:2", "s:True"));
  EXPECT_THAT(Cells(t, 3), ElementsAre("s:3", "s:4"));
}

TEST(ReadCsvTest, LargeFilesAreInferredInChunksLikePandas) {
  // pandas (low_memory=True) infers dtypes per chunk of 2**19 rows for a
  // one-column file, then concatenates the chunks numpy-style.
  const size_t chunk = size_t{1} << 19;
  std::string ints = "a\n";
  for (size_t i = 0; i < chunk; ++i) ints += "1\n";
  {
    Table t = Read(ints + "abc\n");  // int64 chunk + object chunk: mixed object
    EXPECT_THAT(Dtypes(t), ElementsAre("object"));
    EXPECT_EQ(std::get<int64_t>(t.columns()[0].cells.front()), 1);
    EXPECT_EQ(std::get<std::string>(t.columns()[0].cells.back()), "abc");
  }
  {
    Table t = Read(ints.substr(0, ints.size() - 2) + "abc\n");  // one chunk: all strings
    EXPECT_EQ(std::get<std::string>(t.columns()[0].cells.front()), "1");
  }
  {
    // int64 + bool: pandas 2.x casts the bools to int64 (True -> 1) and then
    // makes the column object (GH#39817); pandas 1.5 left it int64.
    Table t = Read(ints + "True\n");
    EXPECT_THAT(Dtypes(t), ElementsAre("object"));
    EXPECT_EQ(std::get<int64_t>(t.columns()[0].cells.front()), 1);
    EXPECT_EQ(std::get<int64_t>(t.columns()[0].cells.back()), 1);
  }
  {
    Table t = Read(ints + "1.5\nNA\n");  // int64 + float64: float64
    EXPECT_THAT(Dtypes(t), ElementsAre("float64"));
    EXPECT_EQ(FloatAt(t, 0, 0), 1.0);
  }
  {
    std::string bools = "a\n";
    for (size_t i = 0; i < chunk; ++i) bools += "True\n";
    Table t = Read(bools + "2.5\nNA\n");  // bool + float64: object holding floats
    EXPECT_THAT(Dtypes(t), ElementsAre("object"));
    EXPECT_EQ(std::get<double>(t.columns()[0].cells.front()), 1.0);
    EXPECT_EQ(std::get<double>(t.columns()[0].cells[chunk]), 2.5);
    EXPECT_TRUE(std::holds_alternative<std::monostate>(t.columns()[0].cells.back()));
    Table u = Read(bools + "x\n");  // bool + object: bools stay bools
    EXPECT_EQ(std::get<bool>(u.columns()[0].cells.front()), true);
    EXPECT_EQ(std::get<std::string>(u.columns()[0].cells.back()), "x");
  }
  {
    Table t = Read(ints + "NA\n");  // int64 + float64: float64
    EXPECT_THAT(Dtypes(t), ElementsAre("float64"));
    EXPECT_TRUE(std::isnan(FloatAt(t, 0, chunk)));
  }
  {
    Table t = Read(ints + "9223372036854775808\n");  // int64 + uint64: float64
    EXPECT_THAT(Dtypes(t), ElementsAre("float64"));
    EXPECT_EQ(FloatAt(t, 0, chunk), 9223372036854775808.0);
  }
  {
    Table t = Read(ints + "1.5\nx\n");  // int64 + object: the chunk's own types
    EXPECT_THAT(Dtypes(t), ElementsAre("object"));
    EXPECT_EQ(std::get<std::string>(t.columns()[0].cells.back()), "x");
  }
}

// --- Errors and robustness ---------------------------------------------------

TEST(ReadCsvTest, UnterminatedQuoteNamesWhereItOpened) {
  absl::Status s = ReadError("a,b\n1,2\n3,\"abc\ndef\n");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("test.csv: line 3, column 3"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("quoted field"));
  // A doubled quote right before the end is not a closing quote.
  EXPECT_THAT(std::string(ReadError("a\n\"x\"\"").message()), HasSubstr("line 2, column 1"));
  EXPECT_THAT(std::string(ReadError("\"a\n").message()), HasSubstr("line 1, column 1"));
}

TEST(ReadCsvTest, BinaryContentIsAnError) {
  absl::Status nul = ReadError(std::string_view("a,b\n1,x\0y\n", 10));
  EXPECT_EQ(nul.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(nul.message()), HasSubstr("line 2, column 4"));
  EXPECT_THAT(std::string(nul.message()), HasSubstr("NUL"));
  absl::Status utf8 = ReadError("a,b\n1,\xff\n");
  EXPECT_THAT(std::string(utf8.message()), HasSubstr("line 2, column 3"));
  EXPECT_THAT(std::string(utf8.message()), HasSubstr("UTF-8"));
  // Overlong forms and surrogates are invalid too; real UTF-8 is fine.
  (void)ReadError("a\n\xC0\xAF\n");
  (void)ReadError("a\n\xED\xA0\x80\n");
  (void)ReadError("a\n\xF4\x90\x80\x80\n");
  Table t = Read("name\n\xC3\xA9t\xC3\xA9\n\xF0\x9F\x98\x80\n");
  EXPECT_THAT(Cells(t, 0), ElementsAre("s:\xC3\xA9t\xC3\xA9", "s:\xF0\x9F\x98\x80"));
}

TEST(ReadCsvTest, MaxBytesIsEnforced) {
  CsvReadOptions options;
  options.max_bytes = 5;
  absl::StatusOr<Table> t = ReadCsvString("a,b\n1,2\n", "small.csv", options);
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()), HasSubstr("small.csv"));
}

TEST(ReadCsvTest, MemoryBlowUpsAreErrors) {
  // 20k columns padded over 2k short rows: 40M cells from 40 kB.
  std::string wide(20000, ',');
  wide += "\n";
  for (int i = 0; i < 2000; ++i) wide += "1\n";
  absl::Status s = ReadError(wide);
  EXPECT_THAT(std::string(s.message()), HasSubstr("too many cells"));
  // A header of more than 4Mi names.
  EXPECT_THAT(std::string(ReadError(std::string(size_t{1} << 22, ',') + "\n").message()),
              HasSubstr("more than 4194304 columns"));
  // The same shapes within bounds read fine.
  EXPECT_EQ(Read(std::string(2000, ',') + "\n1\n2\n").num_columns(), 2001u);
}

TEST(ReadCsvTest, MaxCellsIsCheckedBeforeTheCellsAreBuilt) {
  CsvReadOptions options;
  options.max_cells = 1000;
  const auto code = [&](std::string_view data) {
    absl::StatusOr<TypedTable> t = ReadTypedCsvString(data, "sub.csv", options);
    return t.ok() ? absl::StatusCode::kOk : t.status().code();
  };
  const auto message = [&](std::string_view data) {
    return std::string(ReadTypedCsvString(data, "sub.csv", options).status().message());
  };
  // Exactly at the cap (10 columns x (1 header + 99 rows)) reads, on both
  // paths: regular rows, and short rows padded to the header's width.
  std::string regular = "a,b,c,d,e,f,g,h,i,j\n";
  std::string padded = regular;
  for (int i = 0; i < 99; ++i) {
    regular += "1,2,3,4,5,6,7,8,9,10\n";
    padded += "1\n";
  }
  EXPECT_EQ(code(regular), absl::StatusCode::kOk);
  EXPECT_EQ(code(padded), absl::StatusCode::kOk);
  // One row more is too many, whichever path reads it.
  EXPECT_EQ(code(regular + "1,2,3,4,5,6,7,8,9,10\n"), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(code(padded + "1\n"), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(message(padded + "1\n"),
              HasSubstr("sub.csv: 101 or more rows of 10 columns (the header row included) are "
                        "more than the limit of 1000 cells"));
  // The shape: a wide header over short rows, and a header wider
  // than the cap by itself; a first data row wider than the cap too.
  std::string wide(2000, ',');
  wide += "\n1\n";
  EXPECT_THAT(message(wide), HasSubstr("1 or more rows of 2001 columns"));
  EXPECT_EQ(code("a\n" + std::string(1000, ',') + "\n"), absl::StatusCode::kResourceExhausted);
  // Without a cap, the same files read.
  options.max_cells = 0;
  EXPECT_EQ(code(padded + "1\n"), absl::StatusCode::kOk);
  EXPECT_EQ(code(wide), absl::StatusCode::kOk);
}

TEST(ReadCsvTest, OnlyColumnsKeepsTheNamedColumnsOfTheFullRead) {
  const auto read = [](std::string_view data, std::vector<std::string> only, CsvShape* shape) {
    absl::StatusOr<TypedTable> t =
        ReadTypedCsvString(data, "answers.csv", {.only_columns = std::move(only)}, shape);
    EXPECT_TRUE(t.ok()) << t.status();
    return t.ok() ? t->ToTable() : Table();
  };
  CsvShape shape;
  // The file's order, not the list's; a name the file lacks is left out.
  const std::string data = "id,x,label,y\na,1.5,3,q\nb,2.5,4,r\n";
  const Table kept = read(data, {"label", "id", "absent"}, &shape);
  EXPECT_THAT(kept.ColumnNames(), ElementsAre("id", "label"));
  EXPECT_THAT(Cells(kept, 0), ElementsAre("s:a", "s:b"));
  EXPECT_THAT(Cells(kept, 1), ElementsAre("i:3", "i:4"));
  EXPECT_EQ(shape.rows, 2);
  EXPECT_EQ(shape.columns, 4);
  // Names are matched after duplicates are renamed.
  EXPECT_THAT(read("a,a,b\n1,2,3\n", {"a.1"}, &shape).ColumnNames(), ElementsAre("a.1"));
  EXPECT_EQ(shape.columns, 3);
  // A dropped column of mixed values changes nothing in the others, on the
  // regular path and on the general one (quotes).
  for (const std::string& mixed : {std::string("id,v,w\n1,x,2.5\n2,3,NA\n"),
                                   std::string("id,v,w\n1,\"x\",2.5\n2,3,NA\n")}) {
    const Table some = read(mixed, {"id", "w"}, &shape);
    EXPECT_THAT(Cells(some, 0), ElementsAre("i:1", "i:2"));
    EXPECT_THAT(Cells(some, 1), ElementsAre("f:2.5", "NaN"));
    EXPECT_EQ(shape.rows, 2);
  }
  // A dropped column still counts in the rows' width and in the limits.
  EXPECT_THAT(ReadTypedCsvString("a,b\n1,2\n1,2,3,4\n", "t.csv", {.only_columns = {"a"}})
                  .status()
                  .message(),
              HasSubstr("expected 2 fields, saw 4"));
  std::string rows = "a,b,c,d\n";
  for (int i = 0; i < 300; ++i) rows += "1,2,3,4\n";
  const absl::StatusOr<TypedTable> capped =
      ReadTypedCsvString(rows, "t.csv", {.max_cells = 1000, .only_columns = {"a"}});
  EXPECT_EQ(capped.status().code(), absl::StatusCode::kResourceExhausted);
  // An empty file has no shape.
  shape = CsvShape{.rows = 5, .columns = 5};
  EXPECT_EQ(read("", {"a"}, &shape).num_columns(), 0);
  EXPECT_EQ(shape.rows, 0);
  EXPECT_EQ(shape.columns, 0);
}

// The cap counts rows as pandas does: blank lines and line ends inside
// quotes are no rows, and an error earlier in the file comes first (a fuzz
// finding: the regular path once took every line for a row).
TEST(ReadCsvTest, MaxCellsCountsRowsNotLines) {
  const CsvReadOptions options{.max_cells = 30};  // 3 columns: the header and 9 rows
  std::string blank_lines = "a,b,c\n";
  std::string quoted_lines = "a,b,c\n";
  for (int i = 0; i < 9; ++i) {
    blank_lines += "1,2,3\n\n\n";
    quoted_lines += "1,\"x\ny\nz\",3\n";
  }
  for (const std::string& data : {blank_lines, quoted_lines}) {
    const absl::StatusOr<TypedTable> t = ReadTypedCsvString(data, "sub.csv", options);
    ASSERT_TRUE(t.ok()) << t.status();
    EXPECT_EQ(t->num_rows(), 9u);
  }
  EXPECT_EQ(ReadTypedCsvString(blank_lines + "1,2,3\n", "sub.csv", options).status().code(),
            absl::StatusCode::kResourceExhausted);
  // A row too long on line 3 is the error, not the 20 rows after it.
  std::string long_row = "a,b,c\n1,2,3\n1,2,3,4\n";
  for (int i = 0; i < 20; ++i) long_row += "1,2,3\n";
  EXPECT_THAT(ReadTypedCsvString(long_row, "sub.csv", options).status().message(),
              HasSubstr("line 3"));
}

TEST(ReadCsvTest, MaxColumnsIsCheckedBeforeAnyColumnExists) {
  CsvReadOptions options;
  options.max_columns = 3;
  EXPECT_TRUE(ReadTypedCsvString("a,b,c\n1,2,3\n", "sub.csv", options).ok());
  absl::StatusOr<TypedTable> t = ReadTypedCsvString("a,b,c,d\n1,2,3,4\n", "sub.csv", options);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(t.status().message()),
              HasSubstr("sub.csv: 4 columns are more than the limit of 3"));
  // A first row wider than the header (pandas' index columns) counts too.
  t = ReadTypedCsvString("a,b\n1,2,3,4\n", "sub.csv", options);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kResourceExhausted);
}

TEST(ReadCsvTest, AHugeHeaderKeepsFewFields) {
  // 64Mi delimiters: keeping a view and an offset for each would take 1.5 GB
  // before the column limit could say no.
  struct rusage before;
  getrusage(RUSAGE_SELF, &before);
  const std::string header(size_t{64} << 20, ',');
  EXPECT_THAT(std::string(ReadError(header + "\n").message()), HasSubstr("more than 4194304 columns"));
  struct rusage after;
  getrusage(RUSAGE_SELF, &after);
  // ru_maxrss is in KiB: the header itself (64 MiB) plus 4Mi kept fields.
  EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 400 * 1024);
}

TEST(ReadCsvTest, RandomBytesNeverCrash) {
  std::mt19937_64 rng(12345);
  const std::string alphabet = "ab1.,\"\n\r \t-e+NA\xC3\xA9\xff";
  for (int iteration = 0; iteration < 3000; ++iteration) {
    std::string data;
    const size_t length = rng() % 64;
    for (size_t i = 0; i < length; ++i) {
      data.push_back(iteration % 3 == 0 ? static_cast<char>(rng() & 0xff)
                                        : alphabet[rng() % alphabet.size()]);
    }
    absl::StatusOr<Table> t = ReadCsvString(data, "fuzz");
    if (t.ok()) {
      for (const Column& c : t->columns()) ASSERT_EQ(c.cells.size(), t->num_rows());
      // Whatever was read writes and reads back with the same shape.
      absl::StatusOr<Table> again = ReadCsvString(WriteCsvString(*t), "again");
      ASSERT_TRUE(again.ok()) << again.status();
      EXPECT_EQ(again->num_columns(), t->num_columns());
    } else {
      EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
    }
  }
}

// --- Files -------------------------------------------------------------------

std::string TempDir() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : "/tmp";
}

TEST(CsvFileTest, AbsentFileIsNotFound) {
  absl::StatusOr<Table> t = ReadCsvFile(TempDir() + "/does_not_exist.csv");
  EXPECT_EQ(t.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(t.status().message()), HasSubstr("does_not_exist.csv"));
}

TEST(CsvFileTest, DirectoryIsAnError) {
  absl::StatusOr<Table> t = ReadCsvFile(TempDir());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(t.status().message()), HasSubstr("not a regular file"));
}

TEST(CsvFileTest, SizeIsCheckedBeforeReading) {
  const std::string path = TempDir() + "/big.csv";
  { std::ofstream(path) << "a\n" << std::string(100, '1') << "\n"; }
  CsvReadOptions options;
  options.max_bytes = 50;
  absl::StatusOr<Table> t = ReadCsvFile(path, options);
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(t.status().message()), HasSubstr("big.csv"));
  EXPECT_THAT(std::string(t.status().message()), HasSubstr("103 bytes"));
}

TEST(CsvFileTest, WriteThenReadFile) {
  const std::string path = TempDir() + "/round_trip.csv";
  Table t = Read("id,score,label\n1,0.5,x\n2,,\"y,z\"\n");
  ASSERT_TRUE(WriteCsvFile(t, path).ok());
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "id,score,label\n1,0.5,x\n2,,\"y,z\"\n");
  absl::StatusOr<Table> back = ReadCsvFile(path);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(WriteCsvString(*back), text);
  // No temporary files are left beside it.
  size_t entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(TempDir())) {
    if (absl::StrContains(e.path().filename().string(), "round_trip.csv")) ++entries;
  }
  EXPECT_EQ(entries, 1u);
}

TEST(CsvFileTest, FailedWriteLeavesNothing) {
  const std::string dir = TempDir() + "/write_failure";
  std::filesystem::create_directories(dir + "/target.csv");  // a directory in the way
  absl::Status s = WriteCsvFile(Read("a\n1\n"), dir + "/target.csv");
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), HasSubstr("target.csv"));
  size_t entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    (void)e;
    ++entries;
  }
  EXPECT_EQ(entries, 1u);
  EXPECT_FALSE(WriteCsvFile(Read("a\n1\n"), dir + "/missing_dir/x.csv").ok());
}

// --- Writer -------------------------------------------------------------------

Table MakeTable(std::vector<Column> columns) { return Table(std::move(columns)); }

TEST(WriteCsvTest, QuotesMinimallyLikePythonCsv) {
  Table t = MakeTable({{"text", Dtype::kObject,
                        {std::string("plain"), std::string("a,b"), std::string("say \"hi\""),
                         std::string("two\nlines"), std::string("cr\ronly"), std::string(" sp "),
                         std::string("tab\there"), std::string("")}},
                       {"n", Dtype::kInt64,
                        {int64_t{1}, int64_t{-2}, int64_t{0}, int64_t{3}, int64_t{4}, int64_t{5},
                         int64_t{6}, int64_t{7}}}});
  EXPECT_EQ(WriteCsvString(t),
            "text,n\nplain,1\n\"a,b\",-2\n\"say \"\"hi\"\"\",0\n\"two\nlines\",3\n\"cr\ronly\",4\n"
            " sp ,5\ntab\there,6\n,7\n");
}

TEST(WriteCsvTest, SingleEmptyFieldIsQuoted) {
  Table t = MakeTable({{"a", Dtype::kFloat64,
                        {std::numeric_limits<double>::quiet_NaN(), 1.0}}});
  EXPECT_EQ(WriteCsvString(t), "a\n\"\"\n1.0\n");
  Table u = MakeTable({{"", Dtype::kObject, {std::string(""), std::monostate()}}});
  EXPECT_EQ(WriteCsvString(u), "\"\"\n\"\"\n\"\"\n");
  // With two columns empty fields stay empty.
  Table v = MakeTable({{"a", Dtype::kObject, {std::string("")}},
                       {"b", Dtype::kObject, {std::monostate()}}});
  EXPECT_EQ(WriteCsvString(v), "a,b\n,\n");
}

TEST(WriteCsvTest, EmptyTables) {
  EXPECT_EQ(WriteCsvString(Table()), "\n");
  EXPECT_EQ(WriteCsvString(MakeTable({{"a", Dtype::kObject, {}}, {"b", Dtype::kFloat64, {}}})),
            "a,b\n");
}

TEST(WriteCsvTest, FormatsValuesLikePandas) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  Table t = MakeTable(
      {{"f", Dtype::kFloat64,
        {1e16, 1234567890123456.0, 1e-5, 0.0001, -0.0, 5e-324, inf, -inf, 0.1, nan, 2.0}},
       {"o", Dtype::kObject,
        {true, std::monostate(), false, 1.5, int64_t{2}, std::string("x"), nan, 1e22, 3.0,
         std::string("NA"), std::string("")}},
       {"b", Dtype::kBool, {true, false, true, false, true, false, true, false, true, false, true}}});
  EXPECT_EQ(WriteCsvString(t),
            "f,o,b\n"
            "1e+16,True,True\n"
            "1234567890123456.0,,False\n"
            "1e-05,False,True\n"
            "0.0001,1.5,False\n"
            "-0.0,2,True\n"
            "5e-324,x,False\n"
            "inf,,True\n"
            "-inf,1e+22,False\n"
            "0.1,3.0,True\n"
            ",NA,False\n"
            "2.0,,True\n");
}

TEST(WriteCsvTest, HeaderIsQuotedToo) {
  Table t = MakeTable({{"a,b", Dtype::kInt64, {int64_t{1}}}, {"c\"", Dtype::kInt64, {int64_t{2}}}});
  EXPECT_EQ(WriteCsvString(t), "\"a,b\",\"c\"\"\"\n1,2\n");
}

TEST(WriteCsvTest, OtherSeparatorsQuoteThemselvesNotCommas) {
  Table t = MakeTable({{"a,b", Dtype::kObject,
                        {std::string("x,y"), std::string("tab\there"), std::string("q\""),
                         std::monostate()}},
                       {"n", Dtype::kFloat64, {1.5, 2.0, std::numeric_limits<double>::quiet_NaN(),
                                               -0.0}}});
  absl::StatusOr<std::string> tsv = WriteCsvString(t, CsvWriteOptions{.separator = '\t'});
  ASSERT_TRUE(tsv.ok()) << tsv.status();
  EXPECT_EQ(*tsv, "a,b\tn\nx,y\t1.5\n\"tab\there\"\t2.0\n\"q\"\"\"\t\n\t-0.0\n");
  // Default options are the plain writer's output.
  EXPECT_EQ(*WriteCsvString(t, CsvWriteOptions{}), WriteCsvString(t));
  // Written with a separator, read back with it.
  Table back = Read(*tsv, TabSeparated());
  EXPECT_THAT(Cells(back, 0), ElementsAre("s:x,y", "s:tab\there", "s:q\"", "NaN"));
  EXPECT_EQ(*WriteCsvString(back, CsvWriteOptions{.separator = '\t'}), *tsv);
  // A single empty field is still quoted.
  Table single = MakeTable({{"a", Dtype::kObject, {std::string("")}}});
  EXPECT_EQ(*WriteCsvString(single, CsvWriteOptions{.separator = '|'}), "a\n\"\"\n");
}

TEST(WriteCsvTest, UnsupportedSeparatorsAreErrors) {
  Table t = MakeTable({{"a", Dtype::kInt64, {int64_t{1}}}});
  for (char separator : {'"', '\n', '\r', '.', '7'}) {
    EXPECT_EQ(WriteCsvString(t, CsvWriteOptions{.separator = separator}).status().code(),
              absl::StatusCode::kInvalidArgument)
        << int{separator};
  }
  const std::string path = TempDir() + "/bad_separator.csv";
  std::filesystem::remove(path);
  EXPECT_FALSE(WriteCsvFile(t, path, CsvWriteOptions{.separator = '"'}).ok());
  EXPECT_FALSE(std::filesystem::exists(path));
  ASSERT_TRUE(WriteCsvFile(t, path, CsvWriteOptions{.separator = '\t'}).ok());
  std::ifstream in(path);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()),
            "a\n1\n");
}

TEST(WriteCsvTest, ReadWriteRoundTripIsStable) {
  const std::string text =
      "id,x,flag,text,maybe\n"
      "1,0.1,True,\"a,b\",True\n"
      "2,1e-310,False,\"q\"\"uote\",\n"
      "3,,True,\"multi\nline\",False\n";
  Table t = Read(text);
  EXPECT_THAT(Dtypes(t), ElementsAre("int64", "float64", "bool", "object", "object"));
  EXPECT_EQ(WriteCsvString(t), text);
}


// --- Typed reading -------------------------------------------------------------

namespace typed {

TypedTable ReadTyped(std::string_view data, const CsvReadOptions& options = {}) {
  absl::StatusOr<TypedTable> table = ReadTypedCsvString(data, "test.csv", options);
  EXPECT_TRUE(table.ok()) << table.status();
  return table.ok() ? *std::move(table) : TypedTable();
}

// The cells of both tables are identical (NaN equal to NaN).
void ExpectSameTable(const Table& a, const Table& b) {
  ASSERT_EQ(a.num_columns(), b.num_columns());
  for (size_t j = 0; j < a.num_columns(); ++j) {
    const Column& x = a.columns()[j];
    const Column& y = b.columns()[j];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.dtype, y.dtype) << x.name;
    ASSERT_EQ(x.cells.size(), y.cells.size()) << x.name;
    for (size_t i = 0; i < x.cells.size(); ++i) {
      if (IsMissing(x.cells[i]) && IsMissing(y.cells[i])) {
        EXPECT_EQ(x.cells[i].index(), y.cells[i].index()) << x.name << " row " << i;
        continue;
      }
      EXPECT_EQ(x.cells[i], y.cells[i]) << x.name << " row " << i;
    }
  }
}

TEST(ReadTypedCsvTest, EachDtypeGetsItsStorage) {
  const TypedTable t = ReadTyped("i,f,s,b,n,m\n1,1.5,x,True,,True\n2,NA,,False,NA,\n");
  using Storage = TypedColumn::Storage;
  ASSERT_EQ(t.num_columns(), 6u);
  EXPECT_EQ(t.Find("i")->storage(), Storage::kInt64);
  EXPECT_EQ(t.Find("f")->storage(), Storage::kFloat64);
  EXPECT_TRUE(std::isnan(t.Find("f")->doubles()[1]));
  EXPECT_EQ(t.Find("s")->storage(), Storage::kText);
  EXPECT_EQ(t.Find("s")->text()[0], "x");
  EXPECT_TRUE(TypedColumn::IsMissingText(t.Find("s")->text()[1]));
  EXPECT_EQ(t.Find("b")->storage(), Storage::kBool);
  EXPECT_EQ(t.Find("n")->storage(), Storage::kFloat64);  // all missing: float64 NaN
  EXPECT_EQ(t.Find("m")->storage(), Storage::kCells);    // bools with a missing value
  EXPECT_EQ(t.Find("m")->dtype(), Dtype::kObject);
}

TEST(ReadTypedCsvTest, StringColumnsAndKeptEmptyStrings) {
  CsvReadOptions options;
  options.string_columns = {"id"};
  const TypedTable t = ReadTyped("id,v\n007,1\nNA,2\n", options);
  EXPECT_EQ(t.Find("id")->storage(), TypedColumn::Storage::kText);
  EXPECT_EQ(t.Find("id")->text()[0], "007");
  EXPECT_TRUE(TypedColumn::IsMissingText(t.Find("id")->text()[1]));
  // pandas' "negative and beyond int64" path keeps NA tokens, and empty
  // fields, as text: present empty strings, not missing values.
  const TypedTable u = ReadTyped("a\n-1\n18446744073709551615\n\nNA\n");
  const Table cells = u.ToTable();
  EXPECT_EQ(cells.columns()[0].dtype, Dtype::kObject);
}

TEST(ReadTypedCsvTest, TypedTablesAreTheTablesReadCsvGives) {
  // Chunks of different kinds (2**19 rows per chunk for one column), text
  // with quotes and escapes, padding, a header-only file.
  std::vector<std::string> inputs = {
      "a,b\n1,x\n2,\"y,\"\"z\"\"\"\n3\n",
      "a,b,c\n",
      "x\n1\n2.5\nTrue\n",
      "u\n18446744073709551615\n1\n",
  };
  const size_t chunk = size_t{1} << 19;
  for (const char* tail : {"abc\n", "True\n", "1.5\nNA\n", "9223372036854775808\n"}) {
    std::string big = "a\n";
    for (size_t i = 0; i < chunk; ++i) big += "1\n";
    inputs.push_back(big + tail);
  }
  for (const std::string& input : inputs) {
    SCOPED_TRACE(input.substr(0, 40));
    ExpectSameTable(ReadTyped(input).ToTable(), Read(input));
  }
}

TEST(ReadTypedCsvTest, MappedAndReadFilesGiveTheSameTable) {
  // Files of 1 MiB and more are mapped, smaller ones read; both are kept
  // alive by the table for its text views.
  std::string big = "id,score\n";
  for (int i = 0; big.size() < (size_t{3} << 20); ++i) {
    big += "row" + std::to_string(i) + "," + std::to_string(i * 0.25) + "\n";
  }
  for (const std::string& text : {big, std::string("id,score\nx,1\n")}) {
    const std::string path = TempDir() + "/typed_" + std::to_string(text.size()) + ".csv";
    { std::ofstream(path) << text; }
    absl::StatusOr<TypedTable> file = ReadTypedCsvFile(path);
    ASSERT_TRUE(file.ok()) << file.status();
    std::filesystem::remove(path);  // the mapping outlives the directory entry
    ExpectSameTable(file->ToTable(), Read(text));
    EXPECT_EQ(file->Find("id")->storage(), TypedColumn::Storage::kText);
  }
  EXPECT_EQ(ReadTypedCsvFile(TempDir() + "/absent.csv").status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace typed

}  // namespace
}  // namespace mlebench
