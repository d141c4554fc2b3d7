// Synthetic raw download of rsna-2022-cervical-spine-fracture-detection:
//   train.csv  StudyInstanceUID,patient_overall,C1..C7 (0/1; patient_overall
//       is 1 when any vertebra is fractured)
//   train_bounding_boxes.csv  StudyInstanceUID,x,y,width,height,slice_number
//       for some fractured studies (several slices each)
//   train_images/<StudyInstanceUID>/<n>.dcm  3 CT slices per study (DICOM
//       Part 10, 16x16 8-bit)
//   segmentations/<StudyInstanceUID>.nii  a 16x16x3 uint8 NIfTI-1 volume for
//       some studies (some of them also boxed)
//   test.csv, sample_submission.csv  Kaggle's three public test rows.
// Each slice shows the seven vertebrae as horizontal bands top to bottom; a
// fractured vertebra's band is brighter, so band intensities predict labels.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "synthetic/csv_text.h"
#include "synthetic/dicom_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kSize = 16;
constexpr int kSlices = 3;
constexpr int kNumStudies = 60;
constexpr char kCtStorage[] = "1.2.840.10008.5.1.4.1.1.2";

std::string RandomUid(SyntheticRng& rng) { return absl::StrCat("2.25.", rng.Next()); }

// A minimal single-file NIfTI-1 volume (348-byte header, empty extension
// flag, uint8 voxels): the segmentation masks' format.
std::string EncodeNifti(const std::vector<uint8_t>& voxels) {
  std::string header(352, '\0');
  auto put16 = [&](size_t at, int16_t v) { std::memcpy(&header[at], &v, 2); };
  auto put32 = [&](size_t at, int32_t v) { std::memcpy(&header[at], &v, 4); };
  auto putf = [&](size_t at, float v) { std::memcpy(&header[at], &v, 4); };
  put32(0, 348);
  const int16_t dims[8] = {3, kSize, kSize, kSlices, 1, 1, 1, 1};
  for (int i = 0; i < 8; ++i) put16(40 + 2 * i, dims[i]);
  put16(70, 2);  // DT_UNSIGNED_CHAR
  put16(72, 8);
  for (int i = 0; i < 8; ++i) putf(76 + 4 * i, 1.0f);
  putf(108, 352.0f);
  std::memcpy(&header[344], "n+1\0", 4);
  return header + std::string(voxels.begin(), voxels.end());
}

struct Study {
  std::string uid;
  std::vector<int> fractured;  // C1..C7
};

absl::Status WriteStudy(SyntheticRng& rng, const fs::path& raw, const Study& study, bool segmented) {
  const std::string series_uid = RandomUid(rng);
  std::vector<uint8_t> mask;
  for (int n = 1; n <= kSlices; ++n) {
    DicomImage image;
    image.sop_class_uid = kCtStorage;
    image.modality = "CT";
    image.sop_instance_uid = RandomUid(rng);
    image.study_instance_uid = study.uid;
    image.series_instance_uid = series_uid;
    image.patient_id = study.uid.substr(study.uid.rfind('.') + 1);
    image.instance_number = n;
    image.rows = kSize;
    image.columns = kSize;
    for (int y = 0; y < kSize; ++y) {
      const int vertebra = std::min(6, y * 7 / kSize);
      const double level = study.fractured[vertebra] ? rng.Uniform(150, 210) : rng.Uniform(90, 150);
      for (int x = 0; x < kSize; ++x) {
        const double value = (x >= 4 && x < 12 ? level : 30.0) + rng.Normal(0, 12);
        image.pixels.push_back(static_cast<uint8_t>(std::clamp(std::round(value), 0.0, 255.0)));
        mask.push_back(x >= 4 && x < 12 ? static_cast<uint8_t>(vertebra + 1) : 0);
      }
    }
    ASSIGN_OR_RETURN(std::string bytes, EncodeDicom(image));
    const fs::path dir = raw / "train_images" / study.uid;
    std::error_code error;
    fs::create_directories(dir, error);
    if (error) return absl::InternalError(absl::StrCat("cannot create ", dir.string()));
    RETURN_IF_ERROR(WriteStringToFile(dir / absl::StrCat(n, ".dcm"), bytes));
  }
  if (!segmented) return absl::OkStatus();
  std::error_code error;
  fs::create_directories(raw / "segmentations", error);
  return WriteStringToFile(raw / "segmentations" / (study.uid + ".nii"), EncodeNifti(mask));
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng = SyntheticRng(seed).Fork(1);
  std::vector<Study> studies;
  std::set<int64_t> numbers;
  while (studies.size() < kNumStudies) {
    const int64_t number = rng.UniformInt(int64_t{1000}, int64_t{32999});
    if (!numbers.insert(number).second) continue;
    Study study{absl::StrCat("1.2.826.0.1.3680043.", number), {}};
    const bool patient = rng.Bernoulli(0.5);
    for (int v = 0; v < 7; ++v) study.fractured.push_back(patient && rng.Bernoulli(0.35) ? 1 : 0);
    if (patient && std::count(study.fractured.begin(), study.fractured.end(), 1) == 0) {
      study.fractured[rng.UniformInt(uint64_t{7})] = 1;
    }
    studies.push_back(std::move(study));
  }
  CsvTextBuilder train, boxes;
  train.Row({"StudyInstanceUID", "patient_overall", "C1", "C2", "C3", "C4", "C5", "C6", "C7"});
  boxes.Row({"StudyInstanceUID", "x", "y", "width", "height", "slice_number"});
  int boxed = 0;
  for (size_t i = 0; i < studies.size(); ++i) {
    const Study& study = studies[i];
    const bool any = std::count(study.fractured.begin(), study.fractured.end(), 1) > 0;
    train.String(study.uid).Int(any ? 1 : 0);
    for (int f : study.fractured) train.Int(f);
    train.EndRow();
    // Boxes for fractured studies, segmentations for every third study:
    // both for some.
    const bool has_boxes = any && boxed < 20 && rng.Bernoulli(0.8);
    if (has_boxes) {
      ++boxed;
      for (int n = 1; n <= 2; ++n) {
        boxes.String(study.uid)
            .Float(std::round(rng.Uniform(100, 200) * 100) / 100)
            .Float(std::round(rng.Uniform(100, 200) * 100) / 100)
            .Float(std::round(rng.Uniform(20, 60) * 100) / 100)
            .Float(std::round(rng.Uniform(20, 60) * 100) / 100)
            .Int(n)
            .EndRow();
      }
    }
    RETURN_IF_ERROR(WriteStudy(rng, raw_dir, study, i % 3 == 0));
  }
  CsvTextBuilder test, sample;
  test.Row({"row_id", "StudyInstanceUID", "prediction_type"});
  sample.Row({"row_id", "fractured"});
  for (const char* type : {"C1", "C2", "C3"}) {
    const std::string uid = "1.2.826.0.1.3680043.10197";
    test.String(absl::StrCat(uid, "_", type)).String(uid).String(type).EndRow();
    sample.String(absl::StrCat(uid, "_", type)).Float(0.5).EndRow();
  }
  for (const auto& [name, builder] : {std::pair<const char*, CsvTextBuilder*>{"train.csv", &train},
                                      {"train_bounding_boxes.csv", &boxes},
                                      {"test.csv", &test},
                                      {"sample_submission.csv", &sample}}) {
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / name, builder->text()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{
    .id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
