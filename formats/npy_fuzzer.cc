// Fuzzes the .npy reader (npy.h) as preparers call it: ParseNpy and
// ReadNpyFile agree (the file's errors name it); an array read is written back by SerializeNpy into
// bytes that parse to the same array; TakeNpyRows of a few rows either fails
// cleanly or gives rows of the right size.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/testing/fuzz_support.h"
#include "formats/npy.h"

namespace {

std::string Render(const absl::StatusOr<mlebench::NpyArray>& array) {
  if (!array.ok()) return array.status().ToString();
  return absl::StrCat(array->descr, "|", array->fortran_order, "|",
                      absl::StrJoin(array->shape, ","), "|", array->data.size(), ":",
                      array->data);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  using namespace mlebench;
  const std::string_view data(reinterpret_cast<const char*>(bytes), size);
  const absl::StatusOr<NpyArray> parsed = ParseNpy(data);
  const std::string rendered = Render(parsed);

  const std::filesystem::path path = fuzz::ScratchDir() / "input.npy";
  fuzz::WriteFileOrDie(path, data);
  const absl::StatusOr<NpyArray> read = ReadNpyFile(path);
  if (!parsed.ok() || !read.ok()) {
    fuzz::CheckSameError(parsed.status(), read.status(), "ParseNpy and ReadNpyFile");
    return 0;
  }
  const std::string from_file = Render(read);
  fuzz::CheckSame(rendered == from_file, "ParseNpy and ReadNpyFile", rendered, from_file);

  const absl::StatusOr<std::string> written = SerializeNpy(*parsed);
  fuzz::Check(written.ok(), "SerializeNpy refused an array ParseNpy returned");
  const std::string again = Render(ParseNpy(*written));
  fuzz::CheckSame(rendered == again, "an array read and its SerializeNpy read back", rendered,
                  again);

  const std::vector<int64_t> rows = {0, -1, 0, 2};
  const absl::StatusOr<NpyArray> taken = TakeNpyRows(*parsed, rows);
  if (taken.ok()) {
    const absl::StatusOr<int64_t> item = NpyItemSize(taken->descr);
    fuzz::Check(item.ok(), "TakeNpyRows gave an unsupported descr");
    int64_t elements = 1;
    for (int64_t n : taken->shape) elements *= n;
    fuzz::Check(taken->shape.size() == parsed->shape.size() && taken->shape[0] == 4 &&
                    static_cast<int64_t>(taken->data.size()) == elements * *item,
                "TakeNpyRows gave an array of the wrong shape or size");
  }
  return 0;
}
