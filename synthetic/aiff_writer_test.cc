#include "synthetic/aiff_writer.h"

#include <filesystem>
#include <string>
#include <vector>

#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

// Python's aifc module reads the header and the samples back.
constexpr char kCheckScript[] = R"py(
import sys, warnings
warnings.simplefilter("ignore", DeprecationWarning)
import aifc
import numpy as np
path, rate, expected = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with aifc.open(path, "rb") as f:
    assert f.getnchannels() == 1 and f.getsampwidth() == 2, (f.getnchannels(), f.getsampwidth())
    assert f.getframerate() == rate, f.getframerate()
    frames = f.readframes(f.getnframes())
ours = np.frombuffer(frames, ">i2")
theirs = np.frombuffer(open(expected, "rb").read(), "<i2")
assert len(ours) == len(theirs) and (ours == theirs).all(), (len(ours), len(theirs))
)py";

TEST(AiffWriterTest, PythonAifcReadsItBack) {
  const std::filesystem::path dir = testing::NewTempDir("aiff");
  SyntheticRng rng(3);
  for (const auto& [count, rate] :
       {std::pair{0, 2000u}, {1, 1u}, {1000, 2000u}, {4000, 44100u}, {17, 96000u}}) {
    std::vector<int16_t> samples(count);
    for (int16_t& s : samples) s = static_cast<int16_t>(rng.UniformInt(-32768, 32767));
    absl::StatusOr<std::string> aiff = EncodeAiffMono16(samples, rate);
    ASSERT_TRUE(aiff.ok()) << aiff.status();
    EXPECT_EQ(aiff->size(), 54u + 2 * count);
    ASSERT_TRUE(WriteStringToFile(dir / "clip.aif", *aiff).ok());
    ASSERT_TRUE(WriteStringToFile(
                    dir / "expected.bin",
                    std::string(reinterpret_cast<const char*>(samples.data()), 2 * samples.size()))
                    .ok());
    const testing::CommandResult result = testing::RunPython(
        kCheckScript,
        {(dir / "clip.aif").string(), std::to_string(rate), (dir / "expected.bin").string()});
    EXPECT_EQ(result.exit_code, 0) << count << " samples at " << rate << "\n" << result.output;
  }
}

TEST(AiffWriterTest, HeaderBytes) {
  const std::string aiff = *EncodeAiffMono16({1, -1}, 2000);
  EXPECT_EQ(aiff.substr(0, 4), "FORM");
  EXPECT_EQ(aiff.substr(8, 8), "AIFFCOMM");
  // 2000 = 0x7d0: exponent 16383 + 10 = 0x4009, significand 0xfa00...
  EXPECT_EQ(aiff.substr(28, 10), std::string("\x40\x09\xfa\x00\x00\x00\x00\x00\x00\x00", 10));
  EXPECT_EQ(aiff.substr(aiff.size() - 4), std::string("\x00\x01\xff\xff", 4));
  EXPECT_FALSE(EncodeAiffMono16({1}, 0).ok());
}

}  // namespace
}  // namespace mlebench
