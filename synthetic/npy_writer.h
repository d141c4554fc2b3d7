#ifndef MLEBENCH_SYNTHETIC_NPY_WRITER_H_
#define MLEBENCH_SYNTHETIC_NPY_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// Element types of the float arrays that EncodeFloatNpy writes
// (little-endian).
enum class NpyFloatType {
  kFloat16,  // '<f2': IEEE half precision, rounded to nearest even
  kFloat32,  // '<f4'
};

// The bytes numpy.save writes for
// `np.asarray(values, np.float32).astype(type).reshape(shape)` (C order; an
// empty shape is a 0-d array of one value). The file layout is
// formats/npy.h's SerializeNpy; this adds the float conversion.
// A negative dimension or a value count that does not match the shape is
// InvalidArgumentError.
absl::StatusOr<std::string> EncodeFloatNpy(const std::vector<int64_t>& shape,
                                           const std::vector<float>& values,
                                           NpyFloatType type = NpyFloatType::kFloat32);

// IEEE 754 binary16 bits of `value`, rounded to nearest, ties to even;
// overflow gives infinity, NaN stays NaN (as numpy's float32 -> float16 cast).
uint16_t FloatToHalfBits(float value);

}  // namespace mlebench

#endif  // MLEBENCH_SYNTHETIC_NPY_WRITER_H_
