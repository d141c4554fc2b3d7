// Fuzzes the JSON-lines reader (json_lines.h), as the graders whose answers
// are .jsonl call it: ReadJsonLinesString and ReadJsonLinesFile on the same
// bytes must give the same table or the same error.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/json_lines.h"
#include "base/testing/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  using namespace mlebench;
  const std::string_view data(reinterpret_cast<const char*>(bytes), size);
  const std::string path = fuzz::ScratchDir() / "input.jsonl";
  const std::string from_string = fuzz::Render(ReadJsonLinesString(data, path));
  fuzz::WriteFileOrDie(path, data);
  const std::string from_file = fuzz::Render(ReadJsonLinesFile(path));
  fuzz::CheckSame(from_string == from_file, "ReadJsonLinesString and ReadJsonLinesFile",
                  from_string, from_file);
  return 0;
}
