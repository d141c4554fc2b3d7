// Synthetic raw download of osic-pulmonary-fibrosis-progression, in the
// Kaggle layout that upstream's prepare.py reads:
//  - train.csv: Patient ("ID" + 23 digits), Weeks (an integer, weeks since
//    the baseline CT scan, from -5), FVC (ml, integer), Percent (FVC as a
//    percentage of a typical person's, float), Age (integer), Sex
//    ("Male"/"Female") and SmokingStatus ("Ex-smoker", "Never smoked",
//    "Currently smokes"); each patient's visits are rows in week order;
//  - train/<Patient>/<n>.dcm: the patient's CT slices. Ours are tiny 8x8
//    16-bit DICOM Part 10 files (preamble, "DICM", Explicit VR Little Endian
//    meta header, image size and pixel data): upstream only copies them.
// Kaggle's test.csv, test/ and sample_submission.csv are never read
// upstream and are left out.
//
// Signal: each patient's FVC declines linearly from a baseline set by sex,
// age and smoking, at a rate that grows with age and smoking, plus noise:
// a patient's earliest visit and the number of weeks since predict later
// FVCs well.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kNumPatients = 80;
constexpr const char* kSmoking[] = {"Ex-smoker", "Never smoked", "Currently smokes"};

void AppendU16(std::string& out, uint16_t v) {
  out.push_back(static_cast<char>(v & 0xFF));
  out.push_back(static_cast<char>(v >> 8));
}
void AppendU32(std::string& out, uint32_t v) {
  AppendU16(out, static_cast<uint16_t>(v & 0xFFFF));
  AppendU16(out, static_cast<uint16_t>(v >> 16));
}
// An Explicit VR Little Endian element with a short (2-byte) length.
void ShortElement(std::string& out, uint16_t group, uint16_t element, const char* vr,
                  const std::string& value) {
  AppendU16(out, group);
  AppendU16(out, element);
  out.append(vr, 2);
  AppendU16(out, static_cast<uint16_t>(value.size()));
  out += value;
}
std::string U16Value(uint16_t v) {
  std::string s;
  AppendU16(s, v);
  return s;
}

// A minimal 8x8 MONOCHROME2 slice.
std::string DicomSlice(SyntheticRng& rng) {
  std::string meta;
  ShortElement(meta, 0x0002, 0x0010, "UI", std::string("1.2.840.10008.1.2.1\0", 20));
  std::string out(128, '\0');
  out += "DICM";
  ShortElement(out, 0x0002, 0x0000, "UL", [&] {
    std::string v;
    AppendU32(v, static_cast<uint32_t>(meta.size()));
    return v;
  }());
  out += meta;
  ShortElement(out, 0x0028, 0x0002, "US", U16Value(1));
  ShortElement(out, 0x0028, 0x0004, "CS", "MONOCHROME2 ");
  ShortElement(out, 0x0028, 0x0010, "US", U16Value(8));
  ShortElement(out, 0x0028, 0x0011, "US", U16Value(8));
  ShortElement(out, 0x0028, 0x0100, "US", U16Value(16));
  ShortElement(out, 0x0028, 0x0101, "US", U16Value(16));
  ShortElement(out, 0x0028, 0x0102, "US", U16Value(15));
  ShortElement(out, 0x0028, 0x0103, "US", U16Value(0));
  // Pixel data: OW has a 4-byte length after two reserved bytes.
  AppendU16(out, 0x7FE0);
  AppendU16(out, 0x0010);
  out += "OW";
  AppendU16(out, 0);
  AppendU32(out, 8 * 8 * 2);
  for (int i = 0; i < 64; ++i) AppendU16(out, static_cast<uint16_t>(rng.UniformInt(int64_t{0}, int64_t{2000})));
  return out;
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  fs::create_directories(raw_dir / "train");
  CsvTextBuilder csv;
  csv.Row({"Patient", "Weeks", "FVC", "Percent", "Age", "Sex", "SmokingStatus"});
  std::set<std::string> used;
  for (int p = 0; p < kNumPatients; ++p) {
    std::string patient;
    do {
      patient = "ID";
      for (int d = 0; d < 23; ++d) patient += static_cast<char>('0' + rng.UniformInt(10));
    } while (!used.insert(patient).second);
    const bool male = rng.Bernoulli(0.78);
    const int64_t age = rng.UniformInt(int64_t{49}, int64_t{88});
    const int smoking = rng.Bernoulli(0.67) ? 0 : (rng.Bernoulli(0.85) ? 1 : 2);
    const double typical = (male ? 4200.0 : 3000.0) - 22.0 * (age - 50);
    const double baseline = typical * rng.Uniform(0.45, 0.95) - (smoking == 2 ? 150 : 0);
    const double decline = 2.0 + 0.15 * (age - 50) + (smoking == 0 ? 2.0 : 0.0) + rng.Normal(0, 1.0);
    int64_t week = rng.UniformInt(int64_t{-5}, int64_t{5});
    const int visits = static_cast<int>(rng.UniformInt(int64_t{6}, int64_t{10}));
    for (int v = 0; v < visits; ++v) {
      const double fvc = std::round(baseline - decline * week + rng.Normal(0, 60));
      const double percent = fvc / typical * 100.0;
      csv.String(patient).Int(week).Int(static_cast<int64_t>(fvc)).Float(percent).Int(age);
      csv.String(male ? "Male" : "Female").String(kSmoking[smoking]).EndRow();
      week += rng.UniformInt(int64_t{1}, int64_t{14});
    }
    const fs::path dir = raw_dir / "train" / patient;
    fs::create_directories(dir);
    const int slices = static_cast<int>(rng.UniformInt(int64_t{2}, int64_t{4}));
    for (int s = 1; s <= slices; ++s) {
      RETURN_IF_ERROR(WriteStringToFile(dir / absl::StrCat(s, ".dcm"), DicomSlice(rng)));
    }
  }
  return WriteStringToFile(raw_dir / "train.csv", csv.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
