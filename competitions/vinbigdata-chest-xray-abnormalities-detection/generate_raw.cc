// Synthetic raw download of vinbigdata-chest-xray-abnormalities-detection:
// train.csv with Kaggle's columns (image_id, class_name, class_id, rad_id,
// x_min, y_min, x_max, y_max; one row per radiologist's finding, rows in
// shuffled order, "No finding" rows (class 14) with blank boxes), the images
// as train/<image_id>.dicom, and Kaggle's public test (test/, a sample
// submission). Upstream's prepare.py asserts the real split (13,500 train and
// 1,500 test images), so there are exactly 15,000 training images; to stay
// small each is a 4x4 8-bit DICOM (about 500 bytes: ~7.5 MB of images, ~2 MB
// of CSV, ~10 MB in all). Signal: an abnormal image is bright in the 2x2
// quadrant holding its first finding's box (coordinates on a 1024x1024
// frame); a normal image is uniformly dark.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <optional>
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

constexpr int kSize = 4;
constexpr int kNumTrainImages = 15000;  // upstream asserts 13,500 + 1,500
constexpr int kNumTestImages = 3;
constexpr int64_t kNoFinding = 14;
constexpr double kFrame = 1024;
constexpr char kCrStorage[] = "1.2.840.10008.5.1.4.1.1.1";
const std::vector<std::string> kClassNames = {
    "Aortic enlargement", "Atelectasis",        "Calcification",
    "Cardiomegaly",       "Consolidation",      "ILD",
    "Infiltration",       "Lung Opacity",       "Nodule/Mass",
    "Other lesion",       "Pleural effusion",   "Pleural thickening",
    "Pneumothorax",       "Pulmonary fibrosis", "No finding"};

struct Finding {
  int64_t class_id;
  double box[4];  // x_min, y_min, x_max, y_max
};

struct ImageTruth {
  std::string id;
  std::vector<Finding> findings;  // empty: no finding
};

ImageTruth DrawTruth(SyntheticRng& rng) {
  ImageTruth truth{.id = rng.Hex(32)};
  if (rng.Bernoulli(0.7)) return truth;
  const int count = rng.Bernoulli(0.7) ? 1 : 2;
  for (int i = 0; i < count; ++i) {
    Finding finding{.class_id = static_cast<int64_t>(rng.UniformInt(uint64_t{14}))};
    const double width = std::round(rng.Uniform(80, 400)),
                 height = std::round(rng.Uniform(80, 400));
    finding.box[0] = std::round(rng.Uniform(0, kFrame - width));
    finding.box[1] = std::round(rng.Uniform(0, kFrame - height));
    finding.box[2] = finding.box[0] + width;
    finding.box[3] = finding.box[1] + height;
    truth.findings.push_back(finding);
  }
  return truth;
}

std::vector<uint8_t> DrawPixels(SyntheticRng& rng, const ImageTruth& truth) {
  std::vector<uint8_t> pixels(kSize * kSize);
  int bright_x = -1, bright_y = -1;
  if (!truth.findings.empty()) {
    const double* box = truth.findings[0].box;
    bright_x = (box[0] + box[2]) / 2 < kFrame / 2 ? 0 : 2;
    bright_y = (box[1] + box[3]) / 2 < kFrame / 2 ? 0 : 2;
  }
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x) {
      const bool bright = x / 2 * 2 == bright_x && y / 2 * 2 == bright_y;
      const double value = (bright ? 170 : 70) + rng.Normal(0, 20);
      pixels[y * kSize + x] = static_cast<uint8_t>(std::clamp(std::round(value), 0.0, 255.0));
    }
  }
  return pixels;
}

absl::Status WriteImage(SyntheticRng& rng, const fs::path& path, const ImageTruth& truth) {
  DicomImage dicom;
  dicom.sop_class_uid = kCrStorage;
  // Short UIDs keep the 15,000 files small.
  dicom.sop_instance_uid = absl::StrCat("2.25.", rng.UniformInt(uint64_t{1'000'000'000}));
  dicom.study_instance_uid = absl::StrCat(dicom.sop_instance_uid, ".1");
  dicom.series_instance_uid = absl::StrCat(dicom.sop_instance_uid, ".2");
  dicom.modality = "DX";
  dicom.rows = kSize;
  dicom.columns = kSize;
  dicom.pixels = DrawPixels(rng, truth);
  ASSIGN_OR_RETURN(std::string bytes, EncodeDicom(dicom));
  return WriteStringToFile(path, bytes);
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng rng = root.Fork(1), images_rng = root.Fork(2);
  std::error_code error;
  for (const char* dir : {"train", "test"}) {
    fs::create_directories(raw_dir / dir, error);
    if (error) return absl::InternalError(absl::StrCat("cannot create ", dir));
  }

  // One CSV line per radiologist's finding, written in shuffled order.
  struct Line {
    std::string image_id;
    int64_t class_id;
    int rad;
    std::optional<Finding> finding;
  };
  std::vector<Line> lines;
  for (int i = 0; i < kNumTrainImages; ++i) {
    const ImageTruth truth = DrawTruth(rng);
    RETURN_IF_ERROR(
        WriteImage(images_rng, raw_dir / "train" / absl::StrCat(truth.id, ".dicom"), truth));
    if (truth.findings.empty()) {
      for (int r = 0, readers = static_cast<int>(rng.UniformInt(int64_t{1}, int64_t{2}));
           r < readers; ++r) {
        lines.push_back({truth.id, kNoFinding,
                         static_cast<int>(rng.UniformInt(int64_t{1}, int64_t{17})), std::nullopt});
      }
      continue;
    }
    for (const Finding& finding : truth.findings) {
      const int readers = static_cast<int>(rng.UniformInt(int64_t{1}, int64_t{3}));
      for (int r = 0; r < readers; ++r) {
        Finding drawn = finding;
        for (double& v : drawn.box) v = std::clamp(std::round(v + rng.Normal(0, 10)), 0.0, kFrame);
        lines.push_back({truth.id, finding.class_id,
                         static_cast<int>(rng.UniformInt(int64_t{1}, int64_t{17})), drawn});
      }
    }
  }
  for (size_t i = lines.size(); i > 1; --i) {
    std::swap(lines[i - 1], lines[rng.UniformInt(uint64_t{i})]);
  }
  CsvTextBuilder train;
  train.Row({"image_id", "class_name", "class_id", "rad_id", "x_min", "y_min", "x_max", "y_max"});
  for (const Line& line : lines) {
    train.String(line.image_id)
        .String(kClassNames[line.class_id])
        .Int(line.class_id)
        .String(absl::StrCat("R", line.rad));
    for (int k = 0; k < 4; ++k) {
      if (line.finding.has_value()) {
        train.Float(line.finding->box[k]);
      } else {
        train.Missing();
      }
    }
    train.EndRow();
  }

  // Kaggle's public test: a few images and the sample submission.
  CsvTextBuilder sample;
  sample.Row({"image_id", "PredictionString"});
  for (int i = 0; i < kNumTestImages; ++i) {
    const ImageTruth truth = DrawTruth(rng);
    RETURN_IF_ERROR(
        WriteImage(images_rng, raw_dir / "test" / absl::StrCat(truth.id, ".dicom"), truth));
    sample.String(truth.id).String("14 1 0 0 1 1").EndRow();
  }
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train.csv", train.text()));
  return WriteStringToFile(raw_dir / "sample_submission.csv", sample.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
