#include "synthetic/npy_writer.h"

#include <cstdint>
#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "formats/npy.h"

namespace mlebench {

uint16_t FloatToHalfBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t exponent = (bits >> 23) & 0xffu;
  uint32_t mantissa = bits & 0x7fffffu;
  if (exponent == 0xff) {  // infinity, or NaN kept quiet and non-zero
    if (mantissa == 0) return sign | 0x7c00u;
    return static_cast<uint16_t>(sign | 0x7e00u | (mantissa >> 13));
  }
  const int half_exponent = static_cast<int>(exponent) - 127 + 15;
  if (half_exponent >= 31) return sign | 0x7c00u;  // overflow
  if (half_exponent <= 0) {
    // Subnormal half (or zero): shift the full significand into place.
    if (half_exponent < -10) return sign;
    mantissa |= 0x800000u;
    const int shift = 14 - half_exponent;
    uint32_t half = mantissa >> shift;
    const uint32_t remainder = mantissa & ((1u << shift) - 1);
    const uint32_t halfway = 1u << (shift - 1);
    if (remainder > halfway || (remainder == halfway && (half & 1u))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(half_exponent) << 10) | (mantissa >> 13);
  const uint32_t remainder = mantissa & 0x1fffu;
  // A carry out of the mantissa correctly bumps the exponent (up to infinity).
  if (remainder > 0x1000u || (remainder == 0x1000u && (half & 1u))) ++half;
  return static_cast<uint16_t>(sign | half);
}

absl::StatusOr<std::string> EncodeFloatNpy(const std::vector<int64_t>& shape,
                                           const std::vector<float>& values, NpyFloatType type) {
  uint64_t count = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0) {
      return absl::InvalidArgumentError(absl::StrCat("npy dimension ", i, " is ", shape[i]));
    }
    count *= static_cast<uint64_t>(shape[i]);
  }
  if (count != values.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("npy shape holds ", count, " values, got ", values.size()));
  }
  const bool half = type == NpyFloatType::kFloat16;
  NpyArray array;
  array.descr = half ? "<f2" : "<f4";
  array.shape = shape;
  array.data.reserve(values.size() * (half ? 2 : 4));
  for (float v : values) {
    uint32_t bits;
    int bytes = 4;
    if (half) {
      bits = FloatToHalfBits(v);
      bytes = 2;
    } else {
      std::memcpy(&bits, &v, sizeof(bits));
    }
    for (int b = 0; b < bytes; ++b)
      array.data.push_back(static_cast<char>((bits >> (8 * b)) & 0xff));
  }
  return SerializeNpy(array);
}

}  // namespace mlebench
