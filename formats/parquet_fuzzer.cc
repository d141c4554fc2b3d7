// Fuzzes the Parquet reader (parquet.h) as preparers and graders call it:
// ParseParquet on bytes and ReadParquetFile on the same bytes in a file must
// agree (the file's errors name it); a table that was read and that the writer accepts must read back
// from SerializeParquet's bytes as the same table.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "base/testing/fuzz_support.h"
#include "formats/parquet.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  using namespace mlebench;
  const std::string_view data(reinterpret_cast<const char*>(bytes), size);
  // A small row limit, so that a footer claiming many rows is refused before
  // memory is spent (the preparers keep the default; this is about crashes).
  ParquetReadOptions options;
  options.max_rows = 1 << 16;
  const absl::StatusOr<Table> parsed = ParseParquet(data, options);
  const std::string from_bytes = fuzz::Render(parsed);

  const std::filesystem::path path = fuzz::ScratchDir() / "input.parquet";
  fuzz::WriteFileOrDie(path, data);
  const absl::StatusOr<Table> read = ReadParquetFile(path, options);
  if (parsed.ok() && read.ok()) {
    const std::string from_file = fuzz::Render(read);
    fuzz::CheckSame(from_bytes == from_file, "ParseParquet and ReadParquetFile", from_bytes,
                    from_file);
  } else {
    fuzz::CheckSameError(parsed.status(), read.status(), "ParseParquet and ReadParquetFile");
  }

  if (!parsed.ok()) return 0;
  const absl::StatusOr<std::string> written = SerializeParquet(*parsed);
  if (!written.ok()) return 0;
  const std::string again = fuzz::Render(ParseParquet(*written, options));
  fuzz::CheckSame(from_bytes == again, "a table read and its SerializeParquet read back",
                  from_bytes, again);
  return 0;
}
