// Fuzzes the BSON reader (bson.h) as the preparers call it:
// DecodeBsonSequence on the bytes, and BsonFileReader over the same bytes in
// a file, give the same documents or both fail; every document decoded
// re-encodes to exactly its bytes in the input; every element's accessors
// (Integer, Binary, Document, recursively) fail cleanly or succeed.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "base/testing/fuzz_support.h"
#include "formats/bson.h"

namespace {

void Walk(const mlebench::BsonDocument& document, int depth) {
  mlebench::fuzz::Check(depth < 1000, "documents nested deeper than 1000");
  for (const mlebench::BsonElement& element : document.elements) {
    (void)element.Integer();
    (void)element.Binary();
    const absl::StatusOr<mlebench::BsonDocument> inner = element.Document();
    if (inner.ok()) Walk(*inner, depth + 1);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  using namespace mlebench;
  const std::string_view data(reinterpret_cast<const char*>(bytes), size);
  const absl::StatusOr<std::vector<BsonDocument>> documents = DecodeBsonSequence(data);
  (void)DecodeBson(data);

  std::string encoded;
  if (documents.ok()) {
    for (const BsonDocument& document : *documents) {
      encoded += EncodeBson(document);
      Walk(document, 0);
    }
    fuzz::CheckSame(encoded == data, "the input and its documents re-encoded", data, encoded);
  }

  const std::filesystem::path path = fuzz::ScratchDir() / "input.bson";
  fuzz::WriteFileOrDie(path, data);
  absl::StatusOr<BsonFileReader> reader = BsonFileReader::Open(path);
  fuzz::Check(reader.ok(), "BsonFileReader::Open failed on a file just written");
  std::string streamed;
  bool stream_ok = true;
  for (;;) {
    absl::StatusOr<std::optional<BsonDocument>> next = reader->Next();
    if (!next.ok()) {
      stream_ok = false;
      break;
    }
    if (!next->has_value()) break;
    streamed += EncodeBson(**next);
  }
  fuzz::Check(stream_ok == documents.ok(),
              "DecodeBsonSequence and BsonFileReader disagree on whether the file is valid");
  if (stream_ok) {
    fuzz::CheckSame(streamed == encoded, "DecodeBsonSequence and BsonFileReader", encoded,
                    streamed);
  }
  return 0;
}
