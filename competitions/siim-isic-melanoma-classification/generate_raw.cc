// Synthetic raw download of siim-isic-melanoma-classification, in Kaggle's
// layout: train.csv (image_name "ISIC_<7 digits>", patient_id "IP_<7
// digits>", sex, age_approx, anatom_site_general_challenge, diagnosis,
// benign_malignant, target), test.csv (the first five of those columns),
// sample_submission.csv (image_name, target = 0); each image as a DICOM file
// (train/<name>.dcm, test/<name>.dcm; 8-bit greyscale here, where Kaggle's
// hold the colour photograph) and a JPEG (jpeg/train/<name>.jpg,
// jpeg/test/<name>.jpg); and TFRecord shards of tf.train.Examples (image
// JPEG bytes, image_name, and for train target) named as on Kaggle:
// tfrecords/train00-2071.tfrec .. train15-2061.tfrec (the counts in the
// names are Kaggle's; upstream's prepare.py names two of them verbatim) and
// test00..test03-<count>.tfrec. Images are 32x32 photographs of skin with
// one lesion; melanomas are darker, larger and more irregular, so the mean
// darkness of the image separates the classes well but not perfectly. Some
// metadata is missing, as in Kaggle's file.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "formats/tfrecord.h"
#include "synthetic/csv_text.h"
#include "synthetic/dicom_writer.h"
#include "synthetic/jpeg_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kSize = 32;
constexpr int kTrainShards = 16;
constexpr int kPerTrainShard = 20;
constexpr int kTestShards = 4;
constexpr int kPerTestShard = 10;
constexpr double kMelanomaRate = 0.2;  // Kaggle's is under 2%: too few to learn from here
constexpr int kJpegQuality = 85;

const std::vector<std::string> kSites = {"torso", "lower extremity", "upper extremity",
                                         "head/neck", "palms/soles", "oral/genital"};
const std::vector<std::string> kBenignDiagnoses = {"unknown", "unknown", "unknown", "nevus",
                                                   "seborrheic keratosis", "lentigo NOS"};

struct Lesion {
  std::string name;
  bool melanoma = false;
  RgbImage image;
};

RgbImage DrawLesion(SyntheticRng& rng, bool melanoma) {
  RgbImage image{kSize, kSize, std::vector<uint8_t>(kSize * kSize * 3)};
  const double skin = rng.Uniform(170, 230);
  const double skin_rgb[3] = {skin, skin * rng.Uniform(0.72, 0.82), skin * rng.Uniform(0.6, 0.72)};
  const double darkness = melanoma ? rng.Uniform(0.45, 0.75) : rng.Uniform(0.2, 0.5);
  const double radius = melanoma ? rng.Uniform(7, 11) : rng.Uniform(4, 8);
  const double wobble = melanoma ? rng.Uniform(0.2, 0.4) : rng.Uniform(0.0, 0.15);
  const double phase = rng.Uniform(0, 6.283);
  const double cx = rng.Uniform(12, 20), cy = rng.Uniform(12, 20);
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x) {
      const double angle = std::atan2(y - cy, x - cx);
      const double edge = radius * (1 + wobble * std::sin(3 * angle + phase));
      const double d = std::hypot(x - cx, y - cy);
      const double inside = std::clamp((edge - d) / 1.5 + 0.5, 0.0, 1.0);
      for (int c = 0; c < 3; ++c) {
        const double lesion = skin_rgb[c] * (1 - darkness) * (c == 0 ? 0.9 : 0.7);
        const double value = skin_rgb[c] * (1 - inside) + lesion * inside + rng.Normal(0, 6);
        image.pixels[(y * kSize + x) * 3 + c] =
            static_cast<uint8_t>(std::clamp(std::round(value), 0.0, 255.0));
      }
    }
  }
  return image;
}

DicomImage ToDicom(SyntheticRng& rng, const Lesion& lesion, const std::string& patient) {
  DicomImage dicom;
  dicom.sop_class_uid = "1.2.840.10008.5.1.4.1.1.7";  // Secondary Capture
  dicom.sop_instance_uid = absl::StrCat("2.25.", rng.Next());
  dicom.study_instance_uid = absl::StrCat("2.25.", rng.Next());
  dicom.series_instance_uid = absl::StrCat("2.25.", rng.Next());
  dicom.modality = "OT";
  dicom.patient_id = patient;
  dicom.rows = kSize;
  dicom.columns = kSize;
  for (int i = 0; i < kSize * kSize; ++i) {
    const uint8_t* p = &lesion.image.pixels[i * 3];
    dicom.pixels.push_back(static_cast<uint8_t>((299 * p[0] + 587 * p[1] + 114 * p[2]) / 1000));
  }
  return dicom;
}

absl::Status MakeDirs(const fs::path& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) return absl::InternalError(absl::StrCat("cannot create ", dir.string()));
  return absl::OkStatus();
}

// Writes one split's images, CSV rows and shards.
absl::Status WriteSplit(SyntheticRng& rng, const fs::path& raw, bool train, int shards,
                        int per_shard, std::map<int, bool>& used_numbers, CsvTextBuilder& csv,
                        CsvTextBuilder* sample) {
  const std::string split = train ? "train" : "test";
  for (const fs::path& dir : {raw / split, raw / "jpeg" / split, raw / "tfrecords"}) {
    RETURN_IF_ERROR(MakeDirs(dir));
  }
  // Rows of train.csv are sorted by name, shards hold a shuffled mix.
  std::vector<Lesion> lesions;
  while (static_cast<int>(lesions.size()) < shards * per_shard) {
    const int number = static_cast<int>(rng.UniformInt(int64_t{0}, int64_t{9999999}));
    if (!used_numbers.emplace(number, true).second) continue;
    Lesion lesion;
    lesion.name = absl::StrFormat("ISIC_%07d", number);
    lesion.melanoma = rng.Bernoulli(kMelanomaRate);
    lesion.image = DrawLesion(rng, lesion.melanoma);
    lesions.push_back(std::move(lesion));
  }
  std::vector<size_t> shard_order(lesions.size());
  for (size_t i = 0; i < shard_order.size(); ++i) shard_order[i] = i;
  rng.Shuffle(shard_order);
  std::sort(lesions.begin(), lesions.end(),
            [](const Lesion& a, const Lesion& b) { return a.name < b.name; });

  std::vector<std::string> jpegs(lesions.size());
  for (size_t i = 0; i < lesions.size(); ++i) {
    const Lesion& lesion = lesions[i];
    const std::string patient = absl::StrFormat("IP_%07d", rng.UniformInt(int64_t{0}, int64_t{9999999}));
    ASSIGN_OR_RETURN(std::string jpeg, EncodeJpeg(lesion.image, kJpegQuality));
    jpegs[i] = jpeg;
    ASSIGN_OR_RETURN(std::string dicom, EncodeDicom(ToDicom(rng, lesion, patient)));
    RETURN_IF_ERROR(WriteStringToFile(raw / split / (lesion.name + ".dcm"), dicom));
    RETURN_IF_ERROR(WriteStringToFile(raw / "jpeg" / split / (lesion.name + ".jpg"), jpeg));
    csv.String(lesion.name).String(patient);
    if (rng.Bernoulli(0.03)) {
      csv.Missing();
    } else {
      csv.String(rng.Bernoulli(0.5) ? "male" : "female");
    }
    if (rng.Bernoulli(0.03)) {
      csv.Missing();
    } else {
      csv.Float(5.0 * static_cast<double>(rng.UniformInt(int64_t{2}, int64_t{18})));
    }
    if (rng.Bernoulli(0.05)) {
      csv.Missing();
    } else {
      csv.String(rng.Choice(kSites));
    }
    if (train) {
      csv.String(lesion.melanoma ? "melanoma" : rng.Choice(kBenignDiagnoses))
          .String(lesion.melanoma ? "malignant" : "benign")
          .Int(lesion.melanoma ? 1 : 0);
    }
    csv.EndRow();
    if (sample != nullptr) sample->String(lesion.name).Int(0).EndRow();
  }
  // After sorting, shard_order[k] indexes the sorted list: a fixed shuffle.
  for (int s = 0; s < shards; ++s) {
    std::vector<std::string> records;
    for (int k = s * per_shard; k < (s + 1) * per_shard; ++k) {
      const Lesion& lesion = lesions[shard_order[k]];
      std::map<std::string, ExampleFeature> features = {
          {"image", std::vector<std::string>{jpegs[shard_order[k]]}},
          {"image_name", std::vector<std::string>{lesion.name}}};
      if (train) features["target"] = std::vector<int64_t>{lesion.melanoma ? 1 : 0};
      records.push_back(SerializeExample(features));
    }
    const std::string file =
        train ? absl::StrFormat("train%02d-%d.tfrec", s, s == kTrainShards - 1 ? 2061 : 2071)
              : absl::StrFormat("test%02d-%d.tfrec", s, per_shard);
    RETURN_IF_ERROR(WriteStringToFile(raw / "tfrecords" / file, WriteTfRecords(records)));
  }
  return absl::OkStatus();
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng train_rng = root.Fork(1), test_rng = root.Fork(2);
  std::map<int, bool> used_numbers;
  CsvTextBuilder train_csv, test_csv, sample;
  train_csv.Row({"image_name", "patient_id", "sex", "age_approx", "anatom_site_general_challenge",
                 "diagnosis", "benign_malignant", "target"});
  test_csv.Row({"image_name", "patient_id", "sex", "age_approx", "anatom_site_general_challenge"});
  sample.Row({"image_name", "target"});
  RETURN_IF_ERROR(WriteSplit(train_rng, raw_dir, true, kTrainShards, kPerTrainShard, used_numbers,
                             train_csv, nullptr));
  RETURN_IF_ERROR(WriteSplit(test_rng, raw_dir, false, kTestShards, kPerTestShard, used_numbers,
                             test_csv, &sample));
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train.csv", train_csv.text()));
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "test.csv", test_csv.text()));
  return WriteStringToFile(raw_dir / "sample_submission.csv", sample.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
