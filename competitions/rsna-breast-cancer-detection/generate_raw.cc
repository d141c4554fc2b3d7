// Synthetic raw download of rsna-breast-cancer-detection: train.csv with
// Kaggle's 14 columns (one row per mammogram: patient, image, laterality L/R,
// view CC/MLO, age, cancer and the other labels, machine), the images as
// train_images/<patient_id>/<image_id>.dcm (DICOM Part 10, 32x32 8-bit, MG),
// and Kaggle's tiny public test: test.csv, sample_submission.csv and
// test_images/. Each breast has two or three views sharing its cancer label;
// in a cancerous breast every view shows a bright mass, so a breast's mean
// intensity predicts the label well but not perfectly.
#include <algorithm>
#include <cmath>
#include <cstdint>
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

constexpr int kSize = 32;
constexpr int kNumPatients = 120;
constexpr double kCancerRate = 0.25;  // per breast; Kaggle's is ~2%, too rare for tiny data
constexpr char kMammographyStorage[] = "1.2.840.10008.5.1.4.1.1.1.2";
const std::vector<int64_t> kMachines = {21, 29, 48, 49, 93, 170, 190, 197, 210, 216};
const std::vector<std::string> kDensities = {"A", "B", "C", "D"};

std::string RandomUid(SyntheticRng& rng) { return absl::StrCat("2.25.", rng.Next()); }

std::vector<uint8_t> DrawMammogram(SyntheticRng& rng, bool left, bool cancer) {
  const double tissue = rng.Uniform(70, 120);
  const double mass = cancer ? rng.Uniform(200, 250) : rng.Uniform(100, 150);
  const double radius = cancer ? rng.Uniform(3.5, 6.0) : rng.Uniform(1.0, 3.0);
  const double cx = rng.Uniform(8, kSize - 8), cy = rng.Uniform(8, kSize - 8);
  std::vector<uint8_t> pixels(kSize * kSize);
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x) {
      // The breast fills the half of the frame at its side; air elsewhere.
      const double from_edge = left ? x : kSize - 1 - x;
      const double breast = from_edge < kSize * 0.7 ? 1.0 : 0.0;
      const double d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
      const double spot = std::exp(-d2 / (2 * radius * radius));
      const double value =
          breast * (tissue + (mass - tissue) * spot) + rng.Normal(0, 10) + 5;
      pixels[y * kSize + x] = static_cast<uint8_t>(std::clamp(std::round(value), 0.0, 255.0));
    }
  }
  return pixels;
}

struct Image {
  int64_t patient_id;
  int64_t image_id;
  std::string laterality;
  std::string view;
};

absl::Status WriteImage(SyntheticRng& rng, const fs::path& dir, const Image& image,
                        const std::string& study_uid, bool cancer) {
  DicomImage dicom;
  dicom.sop_class_uid = kMammographyStorage;
  dicom.sop_instance_uid = RandomUid(rng);
  dicom.study_instance_uid = study_uid;
  dicom.series_instance_uid = RandomUid(rng);
  dicom.modality = "MG";
  dicom.patient_id = absl::StrCat(image.patient_id);
  dicom.series_description = absl::StrCat(image.laterality, " ", image.view);
  dicom.rows = kSize;
  dicom.columns = kSize;
  dicom.pixels = DrawMammogram(rng, image.laterality == "L", cancer);
  ASSIGN_OR_RETURN(std::string bytes, EncodeDicom(dicom));
  const fs::path patient_dir = dir / absl::StrCat(image.patient_id);
  std::error_code error;
  fs::create_directories(patient_dir, error);
  if (error) return absl::InternalError(absl::StrCat("cannot create ", patient_dir.string()));
  return WriteStringToFile(patient_dir / absl::StrCat(image.image_id, ".dcm"), bytes);
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng rng = root.Fork(1), images_rng = root.Fork(2);
  std::set<int64_t> used_image_ids;
  auto new_image_id = [&]() {
    int64_t id;
    do {
      id = rng.UniformInt(int64_t{10'000'000}, int64_t{2'147'000'000});
    } while (!used_image_ids.insert(id).second);
    return id;
  };

  CsvTextBuilder train;
  train.Row({"site_id", "patient_id", "image_id", "laterality", "view", "age", "cancer", "biopsy",
             "invasive", "BIRADS", "implant", "density", "machine_id", "difficult_negative_case"});
  int64_t patient_id = 10000;
  for (int p = 0; p < kNumPatients; ++p) {
    patient_id += rng.UniformInt(int64_t{1}, int64_t{400});
    const int64_t site = rng.Bernoulli(0.5) ? 1 : 2;
    const bool has_age = rng.Bernoulli(0.95);
    const double age = std::round(rng.Uniform(38, 85));
    const int64_t machine = rng.Choice(kMachines);
    const int64_t implant = rng.Bernoulli(0.03) ? 1 : 0;
    const bool has_density = rng.Bernoulli(0.6);
    const std::string density = rng.Choice(kDensities);
    const std::string study_uid = RandomUid(rng);
    for (const char* side : {"L", "R"}) {
      const bool cancer = rng.Bernoulli(kCancerRate);
      const bool biopsy = cancer || rng.Bernoulli(0.05);
      const bool invasive = cancer && rng.Bernoulli(0.7);
      std::vector<std::string> views = {"CC", "MLO"};
      if (rng.Bernoulli(0.15)) views.push_back(rng.Bernoulli(0.5) ? "MLO" : "CC");
      for (const std::string& view : views) {
        const Image image{patient_id, new_image_id(), side, view};
        train.Int(site).Int(patient_id).Int(image.image_id).String(side).String(view);
        if (has_age) {
          train.Float(age);
        } else {
          train.Missing();
        }
        train.Int(cancer).Int(biopsy).Int(invasive);
        if (cancer) {
          train.Missing();  // Kaggle leaves BIRADS blank for most cancers
        } else if (rng.Bernoulli(0.5)) {
          train.Float(rng.Bernoulli(0.8) ? 1.0 : 0.0);
        } else {
          train.Missing();
        }
        train.Int(implant);
        if (has_density) {
          train.String(density);
        } else {
          train.Missing();
        }
        train.Int(machine).Bool(biopsy && !cancer).EndRow();
        RETURN_IF_ERROR(WriteImage(images_rng, raw_dir / "train_images", image, study_uid, cancer));
      }
    }
  }

  // Kaggle's public test: one patient, both breasts, CC and MLO.
  CsvTextBuilder test, sample;
  test.Row({"site_id", "patient_id", "image_id", "laterality", "view", "age", "implant",
            "machine_id", "prediction_id"});
  sample.Row({"prediction_id", "cancer"});
  const int64_t test_patient = patient_id + 17;
  const std::string study_uid = RandomUid(rng);
  for (const char* side : {"L", "R"}) {
    const bool cancer = rng.Bernoulli(kCancerRate);
    for (const char* view : {"CC", "MLO"}) {
      const Image image{test_patient, new_image_id(), side, view};
      test.Int(2).Int(test_patient).Int(image.image_id).String(side).String(view).Int(81).Int(0)
          .Int(21).String(absl::StrCat(test_patient, "_", side)).EndRow();
      RETURN_IF_ERROR(WriteImage(images_rng, raw_dir / "test_images", image, study_uid, cancer));
    }
    sample.String(absl::StrCat(test_patient, "_", side)).Float(0.021).EndRow();
  }
  for (const auto& [name, text] :
       {std::pair<const char*, const std::string*>{"train.csv", &train.text()},
        {"test.csv", &test.text()},
        {"sample_submission.csv", &sample.text()}}) {
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / name, *text));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
