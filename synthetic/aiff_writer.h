#ifndef MLEBENCH_SYNTHETIC_AIFF_WRITER_H_
#define MLEBENCH_SYNTHETIC_AIFF_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// Encodes mono 16-bit PCM `samples` at `sample_rate` Hz (a positive integer)
// as a minimal AIFF file (Apple's Audio Interchange File Format 1.3): a
// "FORM"/"AIFF" container holding a COMM chunk (1 channel, the frame count,
// 16 bits, the rate as an 80-bit IEEE extended float) and an SSND chunk
// (offset 0, block size 0, big-endian samples). No other chunks, so the same
// samples give the same bytes. Python's `aifc` and libsndfile read it.
absl::StatusOr<std::string> EncodeAiffMono16(const std::vector<int16_t>& samples,
                                             uint32_t sample_rate);

}  // namespace mlebench

#endif  // MLEBENCH_SYNTHETIC_AIFF_WRITER_H_
