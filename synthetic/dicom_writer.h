#ifndef MLEBENCH_SYNTHETIC_DICOM_WRITER_H_
#define MLEBENCH_SYNTHETIC_DICOM_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// One 8-bit greyscale (MONOCHROME2) image and the identifying attributes a
// DICOM reader such as pydicom expects to find.
struct DicomImage {
  // Storage class; the default is MR Image Storage.
  std::string sop_class_uid = "1.2.840.10008.5.1.4.1.1.4";
  std::string sop_instance_uid;     // required, a UID: digits and dots
  std::string study_instance_uid;   // required, a UID
  std::string series_instance_uid;  // required, a UID
  std::string modality = "MR";      // CS, e.g. "MR", "OT"
  std::string patient_id;           // LO; may be empty
  std::string series_description;   // LO; may be empty
  int instance_number = 1;          // IS
  int rows = 0;                     // at least 1, at most 65535
  int columns = 0;                  // at least 1, at most 65535
  std::vector<uint8_t> pixels;      // rows * columns bytes, row-major
};

// Encodes `image` as a DICOM Part 10 file: a 128-byte zero preamble, "DICM",
// the file meta group (0002,xxxx) with its group length, meta version,
// storage class and instance UIDs, transfer syntax Explicit VR Little Endian
// (1.2.840.10008.1.2.1) and an implementation class UID, then the data set in
// that transfer syntax, tags ascending: SOP class/instance, modality, patient
// ID, study/series UIDs, series description, instance number, the image pixel
// module (1 sample, MONOCHROME2, 8 bits allocated/stored, high bit 7,
// unsigned) and uncompressed OB pixel data. Values are padded to even length
// as the standard says (UIDs with NUL, text with spaces, OB with a zero byte).
// Deterministic: no dates or times. InvalidArgumentError for a missing or
// malformed UID (more than 64 characters or not digits and dots), text
// holding a backslash or control character or over 64 characters, sizes out
// of range, or a pixel count that is not rows * columns.
absl::StatusOr<std::string> EncodeDicom(const DicomImage& image);

}  // namespace mlebench

#endif  // MLEBENCH_SYNTHETIC_DICOM_WRITER_H_
