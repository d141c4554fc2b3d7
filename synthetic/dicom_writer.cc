#include "synthetic/dicom_writer.h"

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace mlebench {
namespace {

constexpr char kExplicitVrLittleEndian[] = "1.2.840.10008.1.2.1";
// A UID under the "2.25" root (ISO/IEC 9834-8, UUID-derived), fixed for
// this writer so that its files name their producer without any date.
constexpr char kImplementationClassUid[] = "2.25.205316539215441367158357411734117185613";

void AppendLittleEndian(std::string& out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

// VRs whose explicit-VR header has two reserved bytes and a 32-bit length.
bool HasLongLength(std::string_view vr) {
  return vr == "OB" || vr == "OW" || vr == "OF" || vr == "SQ" || vr == "UT" || vr == "UN";
}

// Appends one explicit-VR little-endian element; `value` is already padded
// to even length.
void AppendElement(std::string& out, uint16_t group, uint16_t element, std::string_view vr,
                   std::string_view value) {
  AppendLittleEndian(out, group, 2);
  AppendLittleEndian(out, element, 2);
  out.append(vr);
  if (HasLongLength(vr)) {
    AppendLittleEndian(out, 0, 2);
    AppendLittleEndian(out, value.size(), 4);
  } else {
    AppendLittleEndian(out, value.size(), 2);
  }
  out.append(value);
}

std::string PadUid(std::string uid) {
  if (uid.size() % 2 != 0) uid.push_back('\0');
  return uid;
}

std::string PadText(std::string text) {
  if (text.size() % 2 != 0) text.push_back(' ');
  return text;
}

std::string UnsignedShort(int value) {
  std::string out;
  AppendLittleEndian(out, static_cast<uint16_t>(value), 2);
  return out;
}

absl::Status CheckUid(std::string_view what, const std::string& uid) {
  bool ok = !uid.empty() && uid.size() <= 64 && uid.front() != '.' && uid.back() != '.';
  for (char c : uid) ok = ok && ((c >= '0' && c <= '9') || c == '.');
  if (ok && uid.find("..") != std::string::npos) ok = false;
  if (!ok) {
    return absl::InvalidArgumentError(
        absl::StrCat("DICOM ", std::string(what), " '", uid, "' is not a UID of at most 64 "
                     "digits and dots"));
  }
  return absl::OkStatus();
}

absl::Status CheckText(std::string_view what, const std::string& text) {
  bool ok = text.size() <= 64;
  for (char c : text) ok = ok && static_cast<unsigned char>(c) >= 0x20 && c != '\\' && c != 0x7f;
  if (!ok) {
    return absl::InvalidArgumentError(absl::StrCat(
        "DICOM ", std::string(what), " '", text,
        "' must be at most 64 characters without backslashes or control characters"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::string> EncodeDicom(const DicomImage& image) {
  for (const auto& [what, uid] : {std::pair{"SOP class UID", &image.sop_class_uid},
                                  std::pair{"SOP instance UID", &image.sop_instance_uid},
                                  std::pair{"study instance UID", &image.study_instance_uid},
                                  std::pair{"series instance UID", &image.series_instance_uid}}) {
    RETURN_IF_ERROR(CheckUid(what, *uid));
  }
  for (const auto& [what, text] : {std::pair{"modality", &image.modality},
                                   std::pair{"patient ID", &image.patient_id},
                                   std::pair{"series description", &image.series_description}}) {
    RETURN_IF_ERROR(CheckText(what, *text));
  }
  if (image.modality.empty() || image.modality.size() > 16) {
    return absl::InvalidArgumentError(
        absl::StrCat("DICOM modality '", image.modality, "' must have 1 to 16 characters"));
  }
  if (image.rows < 1 || image.rows > 65535 || image.columns < 1 || image.columns > 65535) {
    return absl::InvalidArgumentError(absl::StrCat("DICOM image size ", image.rows, "x",
                                                   image.columns, " is out of range"));
  }
  if (image.pixels.size() != static_cast<size_t>(image.rows) * image.columns) {
    return absl::InvalidArgumentError(absl::StrCat("DICOM image of ", image.rows, "x",
                                                   image.columns, " has ", image.pixels.size(),
                                                   " pixels"));
  }
  if (image.instance_number < 0 || image.instance_number > 999999999) {
    return absl::InvalidArgumentError(
        absl::StrCat("DICOM instance number ", image.instance_number, " is out of range"));
  }

  std::string meta;  // the meta group after its group-length element
  AppendElement(meta, 0x0002, 0x0001, "OB", std::string("\x00\x01", 2));
  AppendElement(meta, 0x0002, 0x0002, "UI", PadUid(image.sop_class_uid));
  AppendElement(meta, 0x0002, 0x0003, "UI", PadUid(image.sop_instance_uid));
  AppendElement(meta, 0x0002, 0x0010, "UI", PadUid(kExplicitVrLittleEndian));
  AppendElement(meta, 0x0002, 0x0012, "UI", PadUid(kImplementationClassUid));

  std::string out(128, '\0');
  out.append("DICM");
  std::string group_length;
  AppendLittleEndian(group_length, meta.size(), 4);
  AppendElement(out, 0x0002, 0x0000, "UL", group_length);
  out.append(meta);

  AppendElement(out, 0x0008, 0x0016, "UI", PadUid(image.sop_class_uid));
  AppendElement(out, 0x0008, 0x0018, "UI", PadUid(image.sop_instance_uid));
  AppendElement(out, 0x0008, 0x0060, "CS", PadText(image.modality));
  if (!image.series_description.empty()) {
    AppendElement(out, 0x0008, 0x103e, "LO", PadText(image.series_description));
  }
  AppendElement(out, 0x0010, 0x0020, "LO", PadText(image.patient_id));
  AppendElement(out, 0x0020, 0x000d, "UI", PadUid(image.study_instance_uid));
  AppendElement(out, 0x0020, 0x000e, "UI", PadUid(image.series_instance_uid));
  AppendElement(out, 0x0020, 0x0013, "IS", PadText(absl::StrCat(image.instance_number)));
  AppendElement(out, 0x0028, 0x0002, "US", UnsignedShort(1));
  AppendElement(out, 0x0028, 0x0004, "CS", PadText("MONOCHROME2"));
  AppendElement(out, 0x0028, 0x0010, "US", UnsignedShort(image.rows));
  AppendElement(out, 0x0028, 0x0011, "US", UnsignedShort(image.columns));
  AppendElement(out, 0x0028, 0x0100, "US", UnsignedShort(8));
  AppendElement(out, 0x0028, 0x0101, "US", UnsignedShort(8));
  AppendElement(out, 0x0028, 0x0102, "US", UnsignedShort(7));
  AppendElement(out, 0x0028, 0x0103, "US", UnsignedShort(0));
  std::string pixel_data(image.pixels.begin(), image.pixels.end());
  if (pixel_data.size() % 2 != 0) pixel_data.push_back('\0');
  AppendElement(out, 0x7fe0, 0x0010, "OB", pixel_data);
  return out;
}

}  // namespace mlebench
