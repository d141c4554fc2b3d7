#include "synthetic/npy_writer.h"

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>

#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

// numpy.save of the same values, cast from float32, must give the same bytes.
constexpr char kCheckScript[] = R"py(
import io, sys
import numpy as np
path, dtype, shape = sys.argv[1], sys.argv[2], tuple(int(d) for d in sys.argv[3].split(",") if d)
ours = open(path, "rb").read()
values = np.frombuffer(open(sys.argv[4], "rb").read(), "<f4")
buffer = io.BytesIO()
np.save(buffer, values.astype(dtype).reshape(shape))
theirs = buffer.getvalue()
if ours != theirs:
    print("ours  ", ours[:160]); print("theirs", theirs[:160])
    a, b = np.load(path), np.load(io.BytesIO(theirs))
    bad = np.flatnonzero(a.view(np.uint8 if a.dtype.itemsize == 1 else "<u%d" % a.dtype.itemsize).ravel()
                         != b.view("<u%d" % b.dtype.itemsize).ravel())
    print("differing elements", bad[:10], values[bad[:10]], a.ravel()[bad[:10]], b.ravel()[bad[:10]])
    sys.exit(1)
)py";

std::vector<float> RandomValues(size_t count, SyntheticRng& rng) {
  std::vector<float> values(count);
  for (float& v : values) {
    // Wide magnitudes cover half's subnormals, normals and overflow.
    v = static_cast<float>(rng.Normal() * std::pow(2.0, rng.Uniform(-30, 20)));
  }
  return values;
}

TEST(NpyWriterTest, ByteIdenticalToNumpySave) {
  const std::filesystem::path dir = testing::NewTempDir("npy");
  SyntheticRng rng(1);
  std::vector<std::vector<int64_t>> shapes = {
      {}, {0}, {1}, {5}, {6, 16, 16}, {3, 0, 2}, {123456789012, 0}, {2, 3, 4, 5, 6}};
  for (const auto& shape : shapes) {
    size_t count = 1;
    std::string shape_arg;
    for (int64_t d : shape) {
      count *= d;
      shape_arg += std::to_string(d) + ",";
    }
    std::vector<float> values = RandomValues(count, rng);
    if (count >= 6) {  // specials, exact halfway cases and the overflow edge
      values[0] = std::numeric_limits<float>::quiet_NaN();
      values[1] = -std::numeric_limits<float>::infinity();
      values[2] = 65520.0f;            // rounds up to inf in half
      values[3] = 1.0f + 1.0f / 2048;  // tie: rounds to even (1.0)
      values[4] = 1.0f + 3.0f / 2048;  // tie: rounds to even (up)
      values[5] = -0.0f;
    }
    const std::string raw(reinterpret_cast<const char*>(values.data()), 4 * values.size());
    ASSERT_TRUE(WriteStringToFile(dir / "values.bin", raw).ok());
    for (const auto& [type, dtype] :
         {std::pair{NpyFloatType::kFloat16, "<f2"}, std::pair{NpyFloatType::kFloat32, "<f4"}}) {
      absl::StatusOr<std::string> npy = EncodeFloatNpy(shape, values, type);
      ASSERT_TRUE(npy.ok()) << npy.status();
      ASSERT_TRUE(WriteStringToFile(dir / "ours.npy", *npy).ok());
      const testing::CommandResult result = testing::RunPython(
          kCheckScript,
          {(dir / "ours.npy").string(), dtype, shape_arg, (dir / "values.bin").string()});
      EXPECT_EQ(result.exit_code, 0) << dtype << " shape " << shape_arg << "\n" << result.output;
    }
  }
}

TEST(NpyWriterTest, HalfRounding) {
  EXPECT_EQ(FloatToHalfBits(1.0f), 0x3c00);
  EXPECT_EQ(FloatToHalfBits(-2.0f), 0xc000);
  EXPECT_EQ(FloatToHalfBits(65504.0f), 0x7bff);
  EXPECT_EQ(FloatToHalfBits(65520.0f), 0x7c00);
  EXPECT_EQ(FloatToHalfBits(std::pow(2.0f, -24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(FloatToHalfBits(std::pow(2.0f, -25)), 0x0000);  // tie to even: zero
  EXPECT_EQ(FloatToHalfBits(1.5f * std::pow(2.0f, -25)), 0x0001);
  EXPECT_EQ(FloatToHalfBits(std::numeric_limits<float>::quiet_NaN()) & 0x7c00, 0x7c00);
}

TEST(NpyWriterTest, RejectsShapeMismatch) {
  EXPECT_FALSE(EncodeFloatNpy({2, 3}, std::vector<float>(5)).ok());
  EXPECT_FALSE(EncodeFloatNpy({-1}, {}).ok());
  EXPECT_FALSE(EncodeFloatNpy({}, {}).ok());  // a 0-d array holds one value
}

}  // namespace
}  // namespace mlebench
