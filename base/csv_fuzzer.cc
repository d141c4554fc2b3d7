// Fuzzes the CSV reader (csv.h) through every entry point graders and
// preparers use, and checks that they agree:
//  - ReadCsvString (cells) and ReadTypedCsvString (typed columns) give the
//    same status and, through TypedTable::ToTable(), the same table;
//  - ReadCsvFile and ReadTypedCsvFile on the same bytes in a file give what
//    the string readers give;
//  - where the input can take the regular-file fast path (no "\r"), the
//    typed read equals the read of the same text with a blank line at its
//    end, which pandas skips and which sends the reader down its general
//    path; without quotes, also the read of the same lines ended by "\r\n";
//  - a read with CsvReadOptions::only_columns (every other column of the
//    full read, and a name the file lacks) gives the full read's status, its
//    table restricted to those columns, and its shape.
// The first byte picks the options (separator, a string column, cell and
// column limits); the rest is the file.

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "base/csv.h"
#include "base/table.h"
#include "base/testing/fuzz_support.h"
#include "base/typed_table.h"

namespace mlebench {
namespace {

absl::StatusOr<Table> AsTable(const absl::StatusOr<TypedTable>& typed) {
  if (!typed.ok()) return typed.status();
  return typed->ToTable();
}

// Checks that reading `data` with only every other column of `full` (its
// read without only_columns) gives `full` restricted to them, and its shape.
void CheckOnlyColumns(const std::string& data, const std::string& path,
                      const CsvReadOptions& options, const absl::StatusOr<TypedTable>& full) {
  CsvReadOptions some = options;
  absl::StatusOr<Table> expected = Table();
  if (full.ok()) {
    Table table = full->ToTable();
    std::vector<Column> kept;
    // A name longer than any of the file's is not one of them.
    std::string absent = "absent";
    for (size_t j = 0; j < table.num_columns(); ++j) {
      if (table.columns()[j].name.size() >= absent.size()) absent = table.columns()[j].name + "!";
      if (j % 2 != 0) continue;
      some.only_columns.push_back(table.columns()[j].name);
      kept.push_back(table.columns()[j]);
    }
    some.only_columns.push_back(absent);
    expected = Table(std::move(kept));
  } else {
    some.only_columns = {"a"};
    expected = full.status();
  }
  CsvShape shape;
  const absl::StatusOr<TypedTable> restricted = ReadTypedCsvString(data, path, some, &shape);
  const std::string want = fuzz::Render(expected);
  const std::string got = fuzz::Render(AsTable(restricted));
  fuzz::CheckSame(want == got, "a full read restricted to some columns and their read", want,
                  got);
  if (full.ok()) {
    const std::string full_shape = absl::StrCat(full->num_rows(), " x ", full->num_columns());
    const std::string read_shape = absl::StrCat(shape.rows, " x ", shape.columns);
    fuzz::CheckSame(full_shape == read_shape,
                    "a full read's shape and the restricted read's CsvShape", full_shape,
                    read_shape);
  }
}

}  // namespace
}  // namespace mlebench

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  using namespace mlebench;
  if (size == 0) return 0;
  const uint8_t selector = bytes[0];
  const std::string data(reinterpret_cast<const char*>(bytes) + 1, size - 1);

  CsvReadOptions options;
  static constexpr char kSeparators[] = {',', '\t', ';', '|'};
  options.separator = kSeparators[selector & 3];
  if (selector & 4) options.string_columns = {"a"};
  if (selector & 8) options.max_cells = 64;
  if (selector & 16) options.max_columns = 3;

  // The string readers are given the file's name, so that errors agree too.
  const std::string path = fuzz::ScratchDir() / "input.csv";
  const std::string cells = fuzz::Render(ReadCsvString(data, path, options));
  const absl::StatusOr<TypedTable> typed_table = ReadTypedCsvString(data, path, options);
  const std::string typed = fuzz::Render(AsTable(typed_table));
  fuzz::CheckSame(cells == typed, "ReadCsvString and ReadTypedCsvString", cells, typed);

  fuzz::WriteFileOrDie(path, data);
  const std::string cells_file = fuzz::Render(ReadCsvFile(path, options));
  fuzz::CheckSame(cells == cells_file, "ReadCsvString and ReadCsvFile", cells, cells_file);
  const std::string typed_file = fuzz::Render(AsTable(ReadTypedCsvFile(path, options)));
  fuzz::CheckSame(cells == typed_file, "ReadCsvString and ReadTypedCsvFile", cells, typed_file);

  if (data.find('\r') == std::string::npos) {
    const std::string blank =
        fuzz::Render(AsTable(ReadTypedCsvString(data + "\n\n", path, options)));
    fuzz::CheckSame(typed == blank, "the regular path and the general path (a blank line)", typed,
                    blank);
  }
  if (data.find('"') == std::string::npos && data.find('\r') == std::string::npos) {
    const std::string crlf = absl::StrReplaceAll(data, {{"\n", "\r\n"}});
    const std::string general = fuzz::Render(AsTable(ReadTypedCsvString(crlf, path, options)));
    fuzz::CheckSame(typed == general, "the regular path and the general path (\"\\r\\n\")", typed,
                    general);
  }
  CheckOnlyColumns(data, path, options, typed_table);
  return 0;
}
