#include "synthetic/dicom_writer.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "base/files.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::HasSubstr;

DicomImage SmallImage() {
  DicomImage image;
  image.sop_instance_uid = "1.2.3.4.5";
  image.study_instance_uid = "1.2.3.4";
  image.series_instance_uid = "1.2.3.4.6";
  image.patient_id = "00012";
  image.series_description = "FLAIR";
  image.instance_number = 7;
  image.rows = 3;
  image.columns = 5;
  for (int i = 0; i < 15; ++i) image.pixels.push_back(static_cast<uint8_t>(i * 17));
  return image;
}

uint32_t ReadLittleEndian(const std::string& bytes, size_t at, int width) {
  uint32_t value = 0;
  for (int i = width - 1; i >= 0; --i) value = (value << 8) | static_cast<uint8_t>(bytes[at + i]);
  return value;
}

struct Element {
  std::string vr;
  std::string value;
};

// An independent walk over an explicit-VR little-endian file: (group,
// element) -> VR and value, failing the test on any structural error.
std::map<std::pair<uint16_t, uint16_t>, Element> Walk(const std::string& bytes) {
  std::map<std::pair<uint16_t, uint16_t>, Element> elements;
  EXPECT_EQ(bytes.substr(0, 128), std::string(128, '\0'));
  EXPECT_EQ(bytes.substr(128, 4), "DICM");
  size_t at = 132;
  std::pair<uint16_t, uint16_t> previous{0, 0};
  while (at < bytes.size()) {
    if (at + 8 > bytes.size()) {
      ADD_FAILURE() << "truncated header at " << at;
      break;
    }
    const std::pair<uint16_t, uint16_t> tag{ReadLittleEndian(bytes, at, 2),
                                            ReadLittleEndian(bytes, at + 2, 2)};
    EXPECT_TRUE(elements.empty() || previous < tag) << "tags not ascending at " << at;
    previous = tag;
    Element e;
    e.vr = bytes.substr(at + 4, 2);
    size_t length;
    if (e.vr == "OB" || e.vr == "OW" || e.vr == "SQ" || e.vr == "UN" || e.vr == "UT") {
      EXPECT_EQ(ReadLittleEndian(bytes, at + 6, 2), 0u);
      length = ReadLittleEndian(bytes, at + 8, 4);
      at += 12;
    } else {
      length = ReadLittleEndian(bytes, at + 6, 2);
      at += 8;
    }
    EXPECT_EQ(length % 2, 0u) << "odd length";
    if (at + length > bytes.size()) {
      ADD_FAILURE() << "value runs past the end";
      break;
    }
    e.value = bytes.substr(at, length);
    at += length;
    elements[tag] = e;
  }
  return elements;
}

Element Get(const std::map<std::pair<uint16_t, uint16_t>, Element>& elements, uint16_t group,
            uint16_t element) {
  auto it = elements.find({group, element});
  if (it == elements.end()) {
    ADD_FAILURE() << "no element " << group << "," << element;
    return {};
  }
  return it->second;
}

TEST(DicomWriterTest, WritesPart10WithExplicitVrLittleEndian) {
  absl::StatusOr<std::string> bytes = EncodeDicom(SmallImage());
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  auto elements = Walk(*bytes);
  // The group length counts the meta elements after it.
  size_t meta_end = 132 + 12;
  for (const auto& [tag, e] : elements) {
    if (tag.first == 2 && tag.second != 0) {
      meta_end += (e.vr == "OB" ? 12 : 8) + e.value.size();
    }
  }
  EXPECT_EQ(ReadLittleEndian(Get(elements, 2, 0).value, 0, 4), meta_end - 144);
  EXPECT_EQ(Get(elements, 2, 0).vr, "UL");
  EXPECT_EQ(Get(elements, 2, 1).value, std::string("\x00\x01", 2));
  EXPECT_EQ(Get(elements, 2, 0x10).value, std::string("1.2.840.10008.1.2.1\0", 20));
  EXPECT_EQ(Get(elements, 2, 2).value, Get(elements, 8, 0x16).value);
  EXPECT_EQ(Get(elements, 2, 3).value, std::string("1.2.3.4.5\0", 10));
  EXPECT_EQ(Get(elements, 8, 0x18).value, std::string("1.2.3.4.5\0", 10));
  EXPECT_EQ(Get(elements, 8, 0x60).value, "MR");
  EXPECT_EQ(Get(elements, 8, 0x103e).value, "FLAIR ");
  EXPECT_EQ(Get(elements, 0x10, 0x20).value, "00012 ");
  EXPECT_EQ(Get(elements, 0x20, 0x0d).value, std::string("1.2.3.4\0", 8));
  EXPECT_EQ(Get(elements, 0x20, 0x13).value, "7 ");
  EXPECT_EQ(Get(elements, 0x28, 0x04).value, "MONOCHROME2 ");
  EXPECT_EQ(ReadLittleEndian(Get(elements, 0x28, 0x10).value, 0, 2), 3u);
  EXPECT_EQ(ReadLittleEndian(Get(elements, 0x28, 0x11).value, 0, 2), 5u);
  EXPECT_EQ(ReadLittleEndian(Get(elements, 0x28, 0x100).value, 0, 2), 8u);
  EXPECT_EQ(ReadLittleEndian(Get(elements, 0x28, 0x102).value, 0, 2), 7u);
  const Element pixels = Get(elements, 0x7fe0, 0x10);
  EXPECT_EQ(pixels.vr, "OB");
  ASSERT_EQ(pixels.value.size(), 16u);  // 15 pixels and a pad byte
  for (int i = 0; i < 15; ++i) EXPECT_EQ(static_cast<uint8_t>(pixels.value[i]), i * 17);
  EXPECT_EQ(pixels.value[15], '\0');
}

TEST(DicomWriterTest, IsDeterministicAndDependsOnEveryField) {
  const std::string base = *EncodeDicom(SmallImage());
  EXPECT_EQ(*EncodeDicom(SmallImage()), base);
  DicomImage other = SmallImage();
  other.pixels[4] ^= 1;
  EXPECT_NE(*EncodeDicom(other), base);
  other = SmallImage();
  other.series_description.clear();  // optional: the element is left out
  absl::StatusOr<std::string> without = EncodeDicom(other);
  ASSERT_TRUE(without.ok());
  EXPECT_EQ(Walk(*without).count(std::make_pair(uint16_t{8}, uint16_t{0x103e})), 0u);
}

TEST(DicomWriterTest, RejectsBadInput) {
  auto expect_invalid = [](DicomImage image, const std::string& message) {
    absl::StatusOr<std::string> bytes = EncodeDicom(image);
    ASSERT_FALSE(bytes.ok());
    EXPECT_EQ(bytes.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(bytes.status().message()), HasSubstr(message));
  };
  DicomImage image = SmallImage();
  image.sop_instance_uid = "";
  expect_invalid(image, "SOP instance UID");
  image = SmallImage();
  image.study_instance_uid = "1.2.a";
  expect_invalid(image, "study instance UID");
  image = SmallImage();
  image.series_instance_uid = std::string(65, '1');
  expect_invalid(image, "series instance UID");
  image = SmallImage();
  image.series_instance_uid = "1..2";
  expect_invalid(image, "series instance UID");
  image = SmallImage();
  image.patient_id = "a\\b";
  expect_invalid(image, "patient ID");
  image = SmallImage();
  image.modality = "";
  expect_invalid(image, "modality");
  image = SmallImage();
  image.rows = 0;
  expect_invalid(image, "out of range");
  image = SmallImage();
  image.columns = 70000;
  expect_invalid(image, "out of range");
  image = SmallImage();
  image.pixels.pop_back();
  expect_invalid(image, "has 14 pixels");
  image = SmallImage();
  image.instance_number = -1;
  expect_invalid(image, "instance number");
}

// A reader written from the standard in Python (no pydicom here): walks the
// file and checks the image against the pixels it was given.
constexpr char kPythonReader[] = R"py(
import struct, sys
import numpy as np
data = open(sys.argv[1], "rb").read()
rows, cols, seed = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
assert data[:128] == bytes(128) and data[128:132] == b"DICM"
at, elements = 132, {}
while at < len(data):
    group, element, vr = struct.unpack_from("<HH2s", data, at)
    if vr in (b"OB", b"OW", b"SQ", b"UN", b"UT"):
        (length,) = struct.unpack_from("<2xI", data, at + 6); at += 12
    else:
        (length,) = struct.unpack_from("<H", data, at + 6); at += 8
    elements[(group, element)] = (vr, data[at:at + length]); at += length
assert at == len(data)
assert elements[(2, 0x10)][1].rstrip(b"\0") == b"1.2.840.10008.1.2.1"
assert struct.unpack("<H", elements[(0x28, 0x10)][1])[0] == rows
assert struct.unpack("<H", elements[(0x28, 0x11)][1])[0] == cols
pixels = np.frombuffer(elements[(0x7FE0, 0x10)][1][:rows * cols], np.uint8).reshape(rows, cols)
expected = (np.arange(rows * cols) * seed % 256).astype(np.uint8).reshape(rows, cols)
assert (pixels == expected).all()
)py";

TEST(DicomWriterTest, PythonWalkerReadsTheImage) {
  for (const auto& [rows, cols, seed] : std::vector<std::tuple<int, int, int>>{
           {1, 1, 3}, {7, 9, 5}, {64, 33, 11}}) {
    DicomImage image = SmallImage();
    image.rows = rows;
    image.columns = cols;
    image.pixels.clear();
    for (int i = 0; i < rows * cols; ++i) image.pixels.push_back(static_cast<uint8_t>(i * seed % 256));
    absl::StatusOr<std::string> bytes = EncodeDicom(image);
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    const std::filesystem::path path = testing::NewTempDir("dicom") / "image.dcm";
    ASSERT_TRUE(WriteStringToFile(path, *bytes).ok());
    testing::CommandResult result = testing::RunPython(
        kPythonReader,
        {path.string(), std::to_string(rows), std::to_string(cols), std::to_string(seed)});
    EXPECT_EQ(result.exit_code, 0) << result.output;
  }
}

}  // namespace
}  // namespace mlebench
