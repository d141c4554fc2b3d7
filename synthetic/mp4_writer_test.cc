#include "synthetic/mp4_writer.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "base/files.h"
#include "base/testing/test_util.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

uint32_t U32(const std::string& s, size_t at) {
  return (uint32_t{static_cast<uint8_t>(s[at])} << 24) | (uint32_t{static_cast<uint8_t>(s[at + 1])} << 16) |
         (uint32_t{static_cast<uint8_t>(s[at + 2])} << 8) | uint32_t{static_cast<uint8_t>(s[at + 3])};
}

// The top-level box types, checking that the sizes tile the file exactly.
std::vector<std::string> TopLevelBoxes(const std::string& file) {
  std::vector<std::string> types;
  size_t at = 0;
  while (at < file.size()) {
    EXPECT_LE(at + 8, file.size());
    const uint32_t size = U32(file, at);
    EXPECT_GE(size, 8u);
    types.push_back(file.substr(at + 4, 4));
    at += size;
  }
  EXPECT_EQ(at, file.size());
  return types;
}

TEST(Mp4WriterTest, FtypThenMoovThenFree) {
  const std::string mp4 = EncodePlaceholderMp4(5000, "game 58168_003392 Endzone");
  EXPECT_EQ(TopLevelBoxes(mp4), (std::vector<std::string>{"ftyp", "moov", "free"}));
  EXPECT_EQ(mp4.substr(8, 4), "isom");
  // moov holds exactly one mvhd of 108 bytes, with timescale and duration.
  const size_t moov = U32(mp4, 0);
  EXPECT_EQ(U32(mp4, moov), 8u + 108u);
  EXPECT_EQ(mp4.substr(moov + 12, 4), "mvhd");
  EXPECT_EQ(U32(mp4, moov + 8 + 8 + 12), 1000u);
  EXPECT_EQ(U32(mp4, moov + 8 + 8 + 16), 5000u);
  EXPECT_NE(mp4.find("game 58168_003392 Endzone"), std::string::npos);
}

TEST(Mp4WriterTest, DeterministicAndDistinctByNote) {
  EXPECT_EQ(EncodePlaceholderMp4(10, "a"), EncodePlaceholderMp4(10, "a"));
  EXPECT_NE(EncodePlaceholderMp4(10, "a"), EncodePlaceholderMp4(10, "b"));
  EXPECT_NE(EncodePlaceholderMp4(10, "a"), EncodePlaceholderMp4(20, "a"));
  EXPECT_EQ(TopLevelBoxes(EncodePlaceholderMp4(0, "")).size(), 3u);
}

// An independent reader (Python's struct) walks the same box tree and reads
// mvhd's fields as the ISO layout defines them.
constexpr char kParseScript[] = R"py(
import struct, sys
data = open(sys.argv[1], "rb").read()
def boxes(buf):
    at, out = 0, []
    while at < len(buf):
        size, kind = struct.unpack(">I4s", buf[at:at + 8])
        assert size >= 8 and at + size <= len(buf), (at, size)
        out.append((kind.decode(), buf[at + 8:at + size]))
        at += size
    return out
top = boxes(data)
assert [k for k, _ in top] == ["ftyp", "moov", "free"], top
assert top[0][1][:4] == b"isom" and b"mp41" in top[0][1][8:]
(mvhd_kind, mvhd), = boxes(top[1][1])
assert mvhd_kind == "mvhd" and len(mvhd) == 100
version, ctime, mtime, timescale, duration, rate, volume = struct.unpack(">IIIIIIH", mvhd[:26])
assert version == 0 and ctime == mtime == 0 and timescale == 1000 and duration == 1234 and rate == 0x10000 and volume == 0x100
assert struct.unpack(">I", mvhd[96:100])[0] == 1
print("ok")
)py";

TEST(Mp4WriterTest, PythonReadsTheBoxTree) {
  const std::filesystem::path dir = testing::NewTempDir("mp4");
  ASSERT_TRUE(WriteStringToFile(dir / "v.mp4", EncodePlaceholderMp4(1234, "x")).ok());
  const testing::CommandResult result = testing::RunPython(kParseScript, {(dir / "v.mp4").string()});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("ok"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace mlebench
