// Synthetic raw download of rsna-miccai-brain-tumor-radiogenomic-classification:
// train_labels.csv (BraTS21ID = five zero-padded digits, MGMT_value 0/1),
// sample_submission.csv (the test ids, MGMT_value = 0.5) and one folder per
// case, train/<id>/ and test/<id>/, each holding the four MRI series FLAIR,
// T1w, T1wCE and T2w as <series>/Image-<n>.dcm (DICOM Part 10, 16x16 8-bit
// slices). Every case has a bright tumour blob; in MGMT-methylated cases it
// is brighter and larger on FLAIR, so the mean FLAIR intensity separates the
// classes well but not perfectly.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
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
constexpr int kNumTrain = 120;
constexpr int kNumTest = 20;
constexpr double kMethylatedRate = 0.5;  // Kaggle's labels are about balanced
constexpr const char* kSeries[] = {"FLAIR", "T1w", "T1wCE", "T2w"};

// A UID under the "2.25" (UUID-derived) root, from the generator.
std::string RandomUid(SyntheticRng& rng) { return absl::StrCat("2.25.", rng.Next()); }

std::vector<uint8_t> DrawSlice(SyntheticRng& rng, bool flair, bool methylated, double cx, double cy,
                               double radius) {
  const double background = rng.Uniform(40, 70);
  double lesion = rng.Uniform(110, 160);
  if (flair && methylated) {
    lesion += 45;
    radius *= 1.3;
  }
  std::vector<uint8_t> pixels(kSize * kSize);
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x) {
      const double d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
      const double weight = std::exp(-d2 / (2 * radius * radius));
      const double value = background + (lesion - background) * weight + rng.Normal(0, 12);
      pixels[y * kSize + x] = static_cast<uint8_t>(std::clamp(std::round(value), 0.0, 255.0));
    }
  }
  return pixels;
}

absl::Status WriteCase(SyntheticRng& rng, const fs::path& case_dir, const std::string& id,
                       bool methylated) {
  const std::string study_uid = RandomUid(rng);
  const double cx = rng.Uniform(4, kSize - 4), cy = rng.Uniform(4, kSize - 4);
  const double radius = rng.Uniform(1.5, 3.0);
  for (const char* series : kSeries) {
    const std::string series_uid = RandomUid(rng);
    std::error_code error;
    fs::create_directories(case_dir / series, error);
    if (error) return absl::InternalError(absl::StrCat("cannot create ", case_dir.string()));
    for (int n = 1; n <= kSlices; ++n) {
      DicomImage image;
      image.sop_instance_uid = RandomUid(rng);
      image.study_instance_uid = study_uid;
      image.series_instance_uid = series_uid;
      image.patient_id = id;
      image.series_description = series;
      image.instance_number = n;
      image.rows = kSize;
      image.columns = kSize;
      image.pixels = DrawSlice(rng, std::string(series) == "FLAIR", methylated, cx, cy, radius);
      ASSIGN_OR_RETURN(std::string bytes, EncodeDicom(image));
      RETURN_IF_ERROR(
          WriteStringToFile(case_dir / series / absl::StrCat("Image-", n, ".dcm"), bytes));
    }
  }
  return absl::OkStatus();
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng ids_rng = root.Fork(1), images_rng = root.Fork(2);
  // Kaggle's ids are increasing with gaps; train and test cases interleave.
  std::vector<std::string> train_ids, test_ids;
  int next = 0;
  while (static_cast<int>(train_ids.size() + test_ids.size()) < kNumTrain + kNumTest) {
    next += 1 + static_cast<int>(ids_rng.UniformInt(3));
    const int left_train = kNumTrain - static_cast<int>(train_ids.size());
    const int left_test = kNumTest - static_cast<int>(test_ids.size());
    const bool to_test = ids_rng.UniformInt(left_train + left_test) < static_cast<uint64_t>(left_test);
    (to_test ? test_ids : train_ids).push_back(absl::StrFormat("%05d", next));
  }

  CsvTextBuilder labels, sample;
  labels.Row({"BraTS21ID", "MGMT_value"});
  for (const std::string& id : train_ids) {
    const bool methylated = ids_rng.Bernoulli(kMethylatedRate);
    labels.String(id).Int(methylated ? 1 : 0).EndRow();
    RETURN_IF_ERROR(WriteCase(images_rng, raw_dir / "train" / id, id, methylated));
  }
  sample.Row({"BraTS21ID", "MGMT_value"});
  for (const std::string& id : test_ids) {
    sample.String(id).Float(0.5).EndRow();
    const bool methylated = ids_rng.Bernoulli(kMethylatedRate);
    RETURN_IF_ERROR(WriteCase(images_rng, raw_dir / "test" / id, id, methylated));
  }
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train_labels.csv", labels.text()));
  return WriteStringToFile(raw_dir / "sample_submission.csv", sample.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{
    .id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
