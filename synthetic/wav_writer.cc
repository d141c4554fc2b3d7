#include "synthetic/wav_writer.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace mlebench {
namespace {

constexpr uint32_t kHeaderBytes = 44;
constexpr uint16_t kPcmFormat = 1;
constexpr uint16_t kBitsPerSample = 16;

void AppendLittleEndian(std::string& out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

}  // namespace

absl::StatusOr<std::string> EncodeWav16(const std::vector<int16_t>& samples, int sample_rate,
                                        int channels) {
  if (channels < 1 || channels > 65535) {
    return absl::InvalidArgumentError(absl::StrCat("WAV channel count ", channels,
                                                   " is out of range [1, 65535]"));
  }
  // The byte rate (rate * channels * 2) must fit RIFF's 32 bits too.
  const uint64_t byte_rate = static_cast<uint64_t>(sample_rate) * channels * 2;
  if (sample_rate < 1 || byte_rate > std::numeric_limits<uint32_t>::max()) {
    return absl::InvalidArgumentError(
        absl::StrCat("WAV sample rate ", sample_rate, " is out of range"));
  }
  if (samples.size() % channels != 0) {
    return absl::InvalidArgumentError(absl::StrCat("WAV data of ", samples.size(),
                                                   " samples is not a whole number of ",
                                                   channels, "-channel frames"));
  }
  const uint64_t data_bytes = static_cast<uint64_t>(samples.size()) * 2;
  if (data_bytes + kHeaderBytes - 8 > std::numeric_limits<uint32_t>::max()) {
    return absl::InvalidArgumentError(
        absl::StrCat("WAV data of ", data_bytes, " bytes exceeds RIFF's 4 GiB limit"));
  }
  std::string out;
  out.reserve(kHeaderBytes + data_bytes);
  out += "RIFF";
  AppendLittleEndian(out, data_bytes + kHeaderBytes - 8, 4);
  out += "WAVE";
  out += "fmt ";
  AppendLittleEndian(out, 16, 4);
  AppendLittleEndian(out, kPcmFormat, 2);
  AppendLittleEndian(out, channels, 2);
  AppendLittleEndian(out, sample_rate, 4);
  AppendLittleEndian(out, byte_rate, 4);
  AppendLittleEndian(out, channels * (kBitsPerSample / 8), 2);  // block align
  AppendLittleEndian(out, kBitsPerSample, 2);
  out += "data";
  AppendLittleEndian(out, data_bytes, 4);
  for (int16_t sample : samples) AppendLittleEndian(out, static_cast<uint16_t>(sample), 2);
  return out;
}

}  // namespace mlebench
