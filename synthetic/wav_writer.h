#ifndef MLEBENCH_SYNTHETIC_WAV_WRITER_H_
#define MLEBENCH_SYNTHETIC_WAV_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// The bytes of a canonical 44-byte-header RIFF/WAVE file of 16-bit signed
// little-endian PCM: "RIFF" size "WAVE", a 16-byte "fmt " chunk (format 1),
// then one "data" chunk holding `samples` (interleaved by channel when
// `channels` > 1), as Python's `wave` module writes them. InvalidArgumentError
// for a sample rate or channel count out of range, a sample count that is not
// a multiple of `channels`, or data too large for RIFF's 32-bit sizes.
absl::StatusOr<std::string> EncodeWav16(const std::vector<int16_t>& samples, int sample_rate,
                                        int channels = 1);

}  // namespace mlebench

#endif  // MLEBENCH_SYNTHETIC_WAV_WRITER_H_
