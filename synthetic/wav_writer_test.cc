#include "synthetic/wav_writer.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

TEST(WavWriterTest, HeaderIsCanonical) {
  absl::StatusOr<std::string> wav = EncodeWav16({1, -2, 0x1234}, 16000);
  ASSERT_TRUE(wav.ok()) << wav.status();
  const std::string expected = std::string("RIFF\x2a\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0", 24) +
                               std::string("\x80\x3e\0\0\0\x7d\0\0\x02\0\x10\0data\x06\0\0\0", 20) +
                               std::string("\x01\0\xfe\xff\x34\x12", 6);
  EXPECT_EQ(*wav, expected);
}

TEST(WavWriterTest, EmptyAndStereo) {
  absl::StatusOr<std::string> empty = EncodeWav16({}, 8000);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->size(), 44u);
  absl::StatusOr<std::string> stereo = EncodeWav16({1, 2, 3, 4}, 44100, 2);
  ASSERT_TRUE(stereo.ok());
  EXPECT_EQ(stereo->size(), 52u);
  EXPECT_EQ(stereo->substr(22, 2), std::string("\x02\0", 2));
  EXPECT_EQ(stereo->substr(32, 2), std::string("\x04\0", 2));  // block align
}

TEST(WavWriterTest, RejectsBadParameters) {
  EXPECT_THAT(EncodeWav16({1}, 0).status().message(), HasSubstr("sample rate"));
  EXPECT_THAT(EncodeWav16({1}, -5).status().message(), HasSubstr("sample rate"));
  EXPECT_THAT(EncodeWav16({1}, 16000, 0).status().message(), HasSubstr("channel count"));
  EXPECT_THAT(EncodeWav16({1}, 16000, 70000).status().message(), HasSubstr("channel count"));
  EXPECT_THAT(EncodeWav16({1, 2, 3}, 16000, 2).status().message(), HasSubstr("frames"));
  EXPECT_THAT(EncodeWav16({1}, 2'000'000'000, 2).status().message(), HasSubstr("sample rate"));
}

// Python's wave module (and numpy) read back exactly what was written.
constexpr char kReadBack[] = R"py(
import sys, wave
import numpy as np
for path in sys.argv[1:]:
    rate, channels, expected = path.rsplit("/", 1)[1].split(".")[0].split("_")[1:4]
    with wave.open(path, "rb") as w:
        assert w.getframerate() == int(rate), w.getframerate()
        assert w.getnchannels() == int(channels)
        assert w.getsampwidth() == 2 and w.getcomptype() == "NONE"
        data = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    want = np.fromfile(path.replace(".wav", ".raw"), dtype="<i2")
    assert data.shape[0] == int(expected) and (data == want).all(), path
print("ok")
)py";

TEST(WavWriterTest, PythonWaveReadsWhatWeWrite) {
  const fs::path dir = testing::NewTempDir("wav_writer");
  SyntheticRng rng(7);
  std::vector<std::string> args;
  int index = 0;
  for (const auto& [rate, channels, frames] :
       std::vector<std::tuple<int, int, int>>{{16000, 1, 16000}, {8000, 2, 3}, {44100, 1, 0},
                                              {22050, 3, 101}}) {
    std::vector<int16_t> samples(frames * channels);
    std::string raw;
    for (int16_t& s : samples) {
      s = static_cast<int16_t>(rng.UniformInt(-32768, 32767));
      raw.push_back(static_cast<char>(s & 0xff));
      raw.push_back(static_cast<char>((static_cast<uint16_t>(s) >> 8) & 0xff));
    }
    absl::StatusOr<std::string> wav = EncodeWav16(samples, rate, channels);
    ASSERT_TRUE(wav.ok()) << wav.status();
    const std::string stem = "f" + std::to_string(index++) + "_" + std::to_string(rate) + "_" +
                             std::to_string(channels) + "_" + std::to_string(samples.size());
    ASSERT_TRUE(WriteStringToFile(dir / (stem + ".wav"), *wav).ok());
    ASSERT_TRUE(WriteStringToFile(dir / (stem + ".raw"), raw).ok());
    args.push_back((dir / (stem + ".wav")).string());
  }
  const testing::CommandResult result = testing::RunPython(kReadBack, args);
  EXPECT_EQ(result.exit_code, 0) << result.output;
}

}  // namespace
}  // namespace mlebench
