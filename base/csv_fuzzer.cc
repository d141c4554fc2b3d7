// Fuzzes the CSV reader (csv.h) through every entry point graders and
// preparers use, and checks that they agree:
//  - ReadCsvString (cells) and ReadTypedCsvString (typed columns) give the
//    same status and, through TypedTable::ToTable(), the same table;
//  - ReadCsvFile and ReadTypedCsvFile on the same bytes in a file give what
//    the string readers give;
//  - where the input can take the regular-file fast path (no quote, no
//    "\r"), the typed read equals the read of the same lines ended by "\r\n",
//    which always takes the general path.
// The first byte picks the options (separator, a string column, a cell
// limit); the rest is the file.

#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <variant>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "base/csv.h"
#include "base/table.h"
#include "base/typed_table.h"

namespace mlebench {
namespace {

std::string RenderCell(const Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return "NA";
  if (const auto* b = std::get_if<bool>(&cell)) return *b ? "b:1" : "b:0";
  if (const auto* i = std::get_if<int64_t>(&cell)) return absl::StrCat("i:", *i);
  if (const auto* d = std::get_if<double>(&cell)) {
    // Bit for bit: NaN equals NaN, 0.0 differs from -0.0.
    uint64_t bits;
    std::memcpy(&bits, d, sizeof bits);
    return absl::StrCat("f:", bits);
  }
  return absl::StrCat("s:", std::get<std::string>(cell).size(), ":", std::get<std::string>(cell));
}

// Everything a reader's result says: status, or names, dtypes and cells.
std::string Render(const absl::StatusOr<Table>& table) {
  if (!table.ok()) return table.status().ToString();
  std::string out;
  for (const Column& column : table->columns()) {
    absl::StrAppend(&out, "[", column.name, "|", std::string(DtypeName(column.dtype)), "]");
    for (const Cell& cell : column.cells) absl::StrAppend(&out, RenderCell(cell), ";");
    out += "\n";
  }
  return out;
}

absl::StatusOr<Table> AsTable(const absl::StatusOr<TypedTable>& typed) {
  if (!typed.ok()) return typed.status();
  return typed->ToTable();
}

void Check(bool ok, const char* what, const std::string& a, const std::string& b) {
  if (ok) return;
  std::fprintf(stderr, "csv_fuzzer: %s differ:\n--- first\n%s\n--- second\n%s\n", what,
               a.substr(0, 4000).c_str(), b.substr(0, 4000).c_str());
  std::abort();
}

std::string* temp_path = nullptr;

}  // namespace
}  // namespace mlebench

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* dir = std::getenv("TEST_TMPDIR");
  std::string pattern = absl::StrCat(dir != nullptr ? dir : "/tmp", "/csv_fuzzer_XXXXXX");
  if (mkdtemp(pattern.data()) == nullptr) {
    std::perror("csv_fuzzer: mkdtemp");
    std::abort();
  }
  mlebench::temp_path = new std::string(pattern + "/input.csv");
  return 0;
}

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

  // Named as the file is, so that error messages agree too.
  const std::string& path = *temp_path;
  const absl::StatusOr<Table> cells = ReadCsvString(data, path, options);
  const std::string rendered = Render(cells);
  const absl::StatusOr<TypedTable> typed = ReadTypedCsvString(data, path, options);
  const std::string typed_rendered = Render(AsTable(typed));
  Check(rendered == typed_rendered, "ReadCsvString and ReadTypedCsvString", rendered,
        typed_rendered);

  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
  }
  const std::string from_file = Render(ReadCsvFile(path, options));
  Check(rendered == from_file, "ReadCsvString and ReadCsvFile", rendered, from_file);
  const std::string typed_from_file = Render(AsTable(ReadTypedCsvFile(path, options)));
  Check(rendered == typed_from_file, "ReadCsvString and ReadTypedCsvFile", rendered,
        typed_from_file);

  if (data.find('"') == std::string::npos && data.find('\r') == std::string::npos) {
    const std::string crlf = absl::StrReplaceAll(data, {{"\n", "\r\n"}});
    const std::string general = Render(AsTable(ReadTypedCsvString(crlf, path, options)));
    Check(typed_rendered == general, "the regular path and the general path (\"\\r\\n\")",
          typed_rendered, general);
  }
  return 0;
}
