// Fuzzes the TFRecord reader (tfrecord.h) as preparers call it:
// ReadTfRecords on the bytes; records read are framed again by
// WriteTfRecords into exactly the input; ExampleFirstBytesValue on every
// record (the feature named by the first byte's choice) fails cleanly or
// gives valid UTF-8.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "base/testing/fuzz_support.h"
#include "base/utf8.h"
#include "formats/tfrecord.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  using namespace mlebench;
  const std::string_view data(reinterpret_cast<const char*>(bytes), size);
  const absl::StatusOr<std::vector<std::string>> records = ReadTfRecords(data);
  if (!records.ok()) {
    // The payloads alone, as an Example, must not crash either.
    (void)ExampleFirstBytesValue(data, "image_name");
    return 0;
  }
  const std::string framed = WriteTfRecords(*records);
  fuzz::CheckSame(framed == data, "the input and its records framed again", data, framed);
  for (const std::string& record : *records) {
    for (std::string_view name : {"image_name", "target", ""}) {
      const absl::StatusOr<std::string> value = ExampleFirstBytesValue(record, name);
      if (value.ok()) fuzz::Check(IsValidUtf8(*value), "a value that is not UTF-8");
    }
  }
  return 0;
}
