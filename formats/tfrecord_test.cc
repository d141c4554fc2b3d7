#include "formats/tfrecord.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

TEST(TfRecordTest, Crc32cMatchesKnownValues) {
  EXPECT_EQ(Crc32c(""), 0u);
  EXPECT_EQ(Crc32c("123456789"), 0xE3069283u);            // the standard check value
  EXPECT_EQ(Crc32c(std::string(32, '\0')), 0x8A9136AAu);  // RFC 3720 B.4
  EXPECT_EQ(Crc32c(std::string(32, '\xFF')), 0x62A8AB43u);
  const uint32_t crc = Crc32c("123456789");
  EXPECT_EQ(MaskedCrc32c("123456789"), ((crc >> 15) | (crc << 17)) + 0xA282EAD8u);
}

TEST(TfRecordTest, FramesRecords) {
  const std::string bytes = WriteTfRecords({"ab", ""});
  ASSERT_EQ(bytes.size(), 16u + 2 + 16u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x02\0\0\0\0\0\0\0", 8));
  EXPECT_EQ(bytes.substr(12, 2), "ab");
  absl::StatusOr<std::vector<std::string>> records = ReadTfRecords(bytes);
  ASSERT_TRUE(records.ok()) << records.status();
  EXPECT_EQ(*records, (std::vector<std::string>{"ab", ""}));
  EXPECT_TRUE(ReadTfRecords("")->empty());
}

TEST(TfRecordTest, RejectsDamagedFrames) {
  const std::string bytes = WriteTfRecords({"payload", "second"});
  for (size_t cut = 1; cut < bytes.size(); ++cut) {
    if (cut == 8 + 4 + 7 + 4) continue;  // a whole first record
    EXPECT_EQ(ReadTfRecords(bytes.substr(0, cut)).status().code(), absl::StatusCode::kDataLoss)
        << cut;
  }
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string flipped = bytes;
    flipped[i] ^= 0x04;
    EXPECT_FALSE(ReadTfRecords(flipped).ok()) << i;
  }
  // A huge length with a valid CRC.
  std::string huge(8, '\xFF');
  const uint32_t crc = MaskedCrc32c(huge);
  for (int i = 0; i < 4; ++i) huge.push_back(static_cast<char>(crc >> (8 * i)));
  EXPECT_EQ(ReadTfRecords(huge).status().code(), absl::StatusCode::kDataLoss);
}

TEST(TfRecordTest, ReadsTheFirstBytesValue) {
  const std::string example = SerializeExample({
      {"image", std::vector<std::string>{"\xFF\xD8jpeg"}},
      {"image_name", std::vector<std::string>{"123.jpg", "other"}},
      {"target", std::vector<int64_t>{3}},
      {"weights", std::vector<float>{0.5f, -1.0f}},
  });
  EXPECT_EQ(*ExampleFirstBytesValue(example, "image_name"), "123.jpg");
  // Absent, not bytes, empty, or not UTF-8: Python raises.
  EXPECT_FALSE(ExampleFirstBytesValue(example, "missing").ok());
  EXPECT_FALSE(ExampleFirstBytesValue(example, "target").ok());
  EXPECT_FALSE(ExampleFirstBytesValue(example, "image").ok());
  EXPECT_FALSE(
      ExampleFirstBytesValue(SerializeExample({{"id", std::vector<std::string>{}}}), "id").ok());
  EXPECT_TRUE(ExampleFirstBytesValue("", "id").status().message().find("IndexError") !=
              std::string::npos);
}

TEST(TfRecordTest, SerializesTheWireFormat) {
  // Example{features{feature{key:"t" value{int64_list{value:[1, 300]}}}}}
  const std::string expected("\x0a\x0e\x0a\x0c\x0a\x01t\x12\x07\x1a\x05\x0a\x03\x01\xac\x02", 16);
  EXPECT_EQ(SerializeExample({{"t", std::vector<int64_t>{1, 300}}}), expected);
}

TEST(TfRecordTest, RejectsMalformedExamples) {
  const std::string example = SerializeExample({{"id", std::vector<std::string>{"x"}}});
  for (size_t cut = 1; cut < example.size(); ++cut) {
    EXPECT_FALSE(ExampleFirstBytesValue(example.substr(0, cut), "id").ok()) << cut;
  }
  EXPECT_FALSE(ExampleFirstBytesValue("\x0b", "id").ok());      // group never ended
  EXPECT_FALSE(ExampleFirstBytesValue("\x0c", "id").ok());      // stray end-group
  EXPECT_FALSE(ExampleFirstBytesValue("\x0e\x00", "id").ok());  // wire type 6
  EXPECT_TRUE(ExampleFirstBytesValue(example + std::string("\x13\x14", 2), "id").ok());  // a group
  EXPECT_TRUE(ExampleFirstBytesValue(std::string("\x08\x05", 2) + example, "id").ok());  // unknown
}

}  // namespace
}  // namespace mlebench
