#include "synthetic/aiff_writer.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace mlebench {
namespace {

void PutBigEndian(std::string& out, uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

// A positive integer as an 80-bit IEEE 754 extended float: sign and 15-bit
// exponent (bias 16383), then a 64-bit significand with an explicit leading 1.
void PutExtended(std::string& out, uint32_t value) {
  int top_bit = 31;
  while (((value >> top_bit) & 1u) == 0) --top_bit;
  PutBigEndian(out, 16383 + top_bit, 2);
  PutBigEndian(out, static_cast<uint64_t>(value) << (63 - top_bit), 8);
}

}  // namespace

absl::StatusOr<std::string> EncodeAiffMono16(const std::vector<int16_t>& samples,
                                             uint32_t sample_rate) {
  if (sample_rate == 0) return absl::InvalidArgumentError("AIFF sample rate must be positive");
  // Chunk sizes are 32-bit; keep well inside them.
  if (samples.size() > (uint64_t{1} << 30)) return absl::InvalidArgumentError("AIFF too long");
  const uint64_t data_bytes = 2 * samples.size();
  const uint64_t comm_size = 18;
  const uint64_t ssnd_size = 8 + data_bytes;  // even: no pad byte needed
  std::string out = "FORM";
  PutBigEndian(out, 4 + (8 + comm_size) + (8 + ssnd_size), 4);
  out += "AIFF";
  out += "COMM";
  PutBigEndian(out, comm_size, 4);
  PutBigEndian(out, 1, 2);               // channels
  PutBigEndian(out, samples.size(), 4);  // sample frames
  PutBigEndian(out, 16, 2);              // bits per sample
  PutExtended(out, sample_rate);
  out += "SSND";
  PutBigEndian(out, ssnd_size, 4);
  PutBigEndian(out, 0, 4);  // offset
  PutBigEndian(out, 0, 4);  // block size
  for (int16_t s : samples) PutBigEndian(out, static_cast<uint16_t>(s), 2);
  return out;
}

}  // namespace mlebench
