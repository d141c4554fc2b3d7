#include "base/csv_segments.h"

#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/testing/test_util.h"
#include "base/typed_table.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// A CSV file of `rows` rows "i,x,name" (int, float, text; every 7th name
// missing), `last_x` as the last row's x.
std::string Numbered(size_t rows, const std::string& last_x = "0.5",
                     const std::string& line_end = "\n") {
  std::string text = "i,x,name" + line_end;
  for (size_t r = 0; r < rows; ++r) {
    const std::string x = r + 1 == rows ? last_x : absl::StrCat(r % 10, ".25");
    absl::StrAppend(&text, r * 3, ",", x, ",", r % 7 == 0 ? "" : absl::StrCat("n", r % 1000),
                    line_end);
  }
  return text;
}

fs::path WriteCsv(const std::string& text) {
  const fs::path path = testing::NewTempDir("csv_segments") / "t.csv";
  testing::WriteFileOrFail(path, text);
  return path;
}

// The segments' rows written as CSV, one after another, and their first rows.
struct Streamed {
  bool complete = false;
  std::string text;
  std::vector<size_t> first_rows;
};

Streamed Stream(const fs::path& path, const PlainCsvFile& file, CsvColumnKinds& kinds) {
  Streamed out;
  absl::StatusOr<bool> complete =
      ForEachCsvSegment(path, file, kinds, [&](const TypedTable& segment, size_t first_row) {
        const std::string text = WriteCsvString(segment.ToTable());
        out.text += out.first_rows.empty() ? text : text.substr(text.find('\n') + 1);
        out.first_rows.push_back(first_row);
        return absl::OkStatus();
      });
  EXPECT_TRUE(complete.ok()) << complete.status();
  out.complete = complete.ok() && *complete;
  return out;
}

TEST(CsvSegmentsTest, SegmentsGiveTheWholeFilesValues) {
  const size_t rows = kCsvSegmentRows + 1000;
  const fs::path path = WriteCsv(Numbered(rows));
  const std::optional<PlainCsvFile> file = ScanPlainCsvFile(path);
  ASSERT_TRUE(file.has_value());
  EXPECT_EQ(file->header, "i,x,name");
  EXPECT_EQ(file->rows, rows);
  CsvColumnKinds kinds;
  const Streamed streamed = Stream(path, *file, kinds);
  EXPECT_TRUE(streamed.complete);
  EXPECT_EQ(streamed.first_rows, (std::vector<size_t>{0, kCsvSegmentRows}));
  absl::StatusOr<TypedTable> whole = ReadTypedCsvFile(path.string());
  ASSERT_TRUE(whole.ok()) << whole.status();
  EXPECT_EQ(streamed.text, WriteCsvString(whole->ToTable()));
  ASSERT_EQ(kinds.size(), 3u);
  EXPECT_EQ(kinds[0].first, TypedColumn::Storage::kInt64);
  EXPECT_EQ(kinds[1].first, TypedColumn::Storage::kFloat64);
  EXPECT_EQ(kinds[2].first, TypedColumn::Storage::kText);
  // A second pass must find the kinds of the first.
  EXPECT_TRUE(Stream(path, *file, kinds).complete);
}

TEST(CsvSegmentsTest, CrLfLineEndsArePlain) {
  const fs::path path = WriteCsv(Numbered(10, "0.5", "\r\n"));
  const std::optional<PlainCsvFile> file = ScanPlainCsvFile(path);
  ASSERT_TRUE(file.has_value());
  EXPECT_EQ(file->rows, 10u);
  CsvColumnKinds kinds;
  const Streamed streamed = Stream(path, *file, kinds);
  EXPECT_TRUE(streamed.complete);
  EXPECT_EQ(streamed.text, WriteCsvString(ReadTypedCsvFile(path.string())->ToTable()));
}

TEST(CsvSegmentsTest, OtherFilesAreNotPlain) {
  for (const std::string& text : {
           std::string("a,b\n\"1\",2\n"),     // a quote
           std::string("a,b\n1,2\n\n3,4\n"),  // a blank line
           std::string("\xEF\xBB\xBF"
                       "a,b\n1,2\n"),       // a BOM
           std::string("a,b\n1,2\r3,4\n"),  // a lone "\r"
           std::string("a,b\n1,2,3\n"),     // wider than the header
           std::string("a,b\n1,\0\n", 8),   // a NUL
           std::string(),                   // no header
       }) {
    EXPECT_FALSE(ScanPlainCsvFile(WriteCsv(text)).has_value()) << text;
  }
  EXPECT_FALSE(ScanPlainCsvFile(testing::NewTempDir("csv_segments") / "absent.csv").has_value());
}

TEST(CsvSegmentsTest, ADifferentKindInALaterSegmentIsNotStreamed) {
  // The last segment's x holds text: the whole file's x is mixed cells.
  const fs::path path = WriteCsv(Numbered(kCsvSegmentRows + 10, "text"));
  const std::optional<PlainCsvFile> file = ScanPlainCsvFile(path);
  ASSERT_TRUE(file.has_value());
  CsvColumnKinds kinds;
  EXPECT_FALSE(Stream(path, *file, kinds).complete);
}

TEST(CsvSegmentsTest, KindsOfAnEarlierPassMustMatch) {
  const fs::path path = WriteCsv("a,b\n1,x\n2,y\n");
  const std::optional<PlainCsvFile> file = ScanPlainCsvFile(path);
  ASSERT_TRUE(file.has_value());
  CsvColumnKinds kinds{{TypedColumn::Storage::kFloat64, Dtype::kFloat64},
                       {TypedColumn::Storage::kText, Dtype::kObject}};
  EXPECT_FALSE(Stream(path, *file, kinds).complete);
  kinds = {{TypedColumn::Storage::kInt64, Dtype::kInt64},
           {TypedColumn::Storage::kText, Dtype::kObject}};
  EXPECT_TRUE(Stream(path, *file, kinds).complete);
}

TEST(CsvSegmentsTest, VisitErrorsAreReturned) {
  const fs::path path = WriteCsv("a\n1\n");
  const std::optional<PlainCsvFile> file = ScanPlainCsvFile(path);
  ASSERT_TRUE(file.has_value());
  CsvColumnKinds kinds;
  absl::StatusOr<bool> result = ForEachCsvSegment(
      path, *file, kinds, [](const TypedTable&, size_t) { return absl::DataLossError("stop"); });
  EXPECT_EQ(result.status(), absl::DataLossError("stop"));
}

}  // namespace
}  // namespace mlebench
