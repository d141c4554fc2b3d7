// Synthetic raw download of cassava-leaf-disease-classification, in
// Kaggle's layout: train.csv (image_id "<digits>.jpg", label 0-4; rows
// sorted by image_id as Kaggle's are), train_images/<image_id>,
// train_tfrecords/ld_train<NN>-<count>.tfrec (16 files holding every train
// image once, in a shuffled order, as tf.train.Examples with features
// `image` (the JPEG bytes), `image_name` and `target`, <count> being the
// file's number of records), test_images/ and test_tfrecords/ with Kaggle's
// single public test image, sample_submission.csv (that image, label 4) and
// label_num_to_disease_map.json.
//
// Images are 32x32 RGB JPEGs of green cassava leaves. Each disease marks the
// leaf its own way: brown spots (CBB), yellow streaks (CBSD), pale patches
// (CGM), a yellow-green mosaic (CMD); healthy leaves have none. Marks vary
// in number, size and light, so simple colour statistics separate the
// classes well but not perfectly. Class frequencies are skewed towards CMD,
// less than on Kaggle.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "formats/tfrecord.h"
#include "synthetic/csv_text.h"
#include "synthetic/jpeg_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kSize = 32;
constexpr int kNumTrain = 240;
constexpr int kNumFiles = 16;
constexpr int kJpegQuality = 85;
constexpr char kTestImage[] = "2216849948.jpg";
const std::vector<double> kClassWeights = {1.0, 1.5, 1.5, 3.0, 1.5};
constexpr int kHealthy = 4;

constexpr char kDiseaseMap[] =
    "{\"0\": \"Cassava Bacterial Blight (CBB)\", \"1\": \"Cassava Brown Streak Disease (CBSD)\", "
    "\"2\": \"Cassava Green Mottle (CGM)\", \"3\": \"Cassava Mosaic Disease (CMD)\", "
    "\"4\": \"Healthy\"}";

std::vector<uint8_t> DrawLeaf(SyntheticRng& rng, int label) {
  const double light = rng.Uniform(0.9, 1.1);
  const std::array<double, 3> leaf = {rng.Uniform(45, 65), rng.Uniform(120, 140),
                                      rng.Uniform(35, 55)};
  std::vector<double> pixels(kSize * kSize * 3);
  for (int i = 0; i < kSize * kSize; ++i) {
    for (int c = 0; c < 3; ++c) pixels[i * 3 + c] = light * leaf[c];
  }
  auto paint = [&](int x, int y, const std::array<double, 3>& rgb, double mix) {
    if (x < 0 || y < 0 || x >= kSize || y >= kSize) return;
    for (int c = 0; c < 3; ++c) {
      double& p = pixels[(y * kSize + x) * 3 + c];
      p = (1 - mix) * p + mix * light * rgb[c];
    }
  };
  const int marks = static_cast<int>(rng.UniformInt(5, 9));
  for (int m = 0; m < marks && label != kHealthy; ++m) {
    const int cx = static_cast<int>(rng.UniformInt(0, kSize - 1));
    const int cy = static_cast<int>(rng.UniformInt(0, kSize - 1));
    const int r = static_cast<int>(rng.UniformInt(1, 3));
    for (int dy = -3 * r; dy <= 3 * r; ++dy) {
      for (int dx = -3 * r; dx <= 3 * r; ++dx) {
        switch (label) {
          case 0:  // round brown spots
            if (dx * dx + dy * dy <= r * r) paint(cx + dx, cy + dy, {110, 70, 30}, 0.9);
            break;
          case 1:  // thin yellow streaks
            if (dy == 0) paint(cx + dx, cy, {210, 200, 60}, 0.8);
            break;
          case 2:  // large pale patches
            if (dx * dx + dy * dy <= 4 * r * r) paint(cx + dx, cy + dy, {160, 215, 140}, 0.7);
            break;
          default:  // mosaic: a checkerboard of yellow-green cells
            if (std::abs(dx) <= 2 * r && std::abs(dy) <= 2 * r &&
                ((cx + dx) / 2 + (cy + dy) / 2) % 2 == 0) {
              paint(cx + dx, cy + dy, {180, 190, 50}, 0.7);
            }
            break;
        }
      }
    }
  }
  std::vector<uint8_t> bytes(pixels.size());
  for (size_t i = 0; i < pixels.size(); ++i) {
    const double noisy = pixels[i] + 12.0 * (rng.Uniform() + rng.Uniform() - 1.0);
    bytes[i] = static_cast<uint8_t>(std::clamp(std::round(noisy), 0.0, 255.0));
  }
  return bytes;
}

struct Image {
  std::string image_id;
  int label;
  std::string jpeg;
};

absl::StatusOr<std::string> TfRecordFile(const std::vector<const Image*>& images) {
  std::vector<std::string> records;
  for (const Image* image : images) {
    records.push_back(SerializeExample({{"image", std::vector<std::string>{image->jpeg}},
                                        {"image_name", std::vector<std::string>{image->image_id}},
                                        {"target", std::vector<int64_t>{image->label}}}));
  }
  return WriteTfRecords(records);
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<Image> images;
  std::set<std::string> ids = {kTestImage};
  while (images.size() < kNumTrain) {
    // Kaggle's ids: 6 to 10 digits, no leading zero.
    const int digits = static_cast<int>(rng.UniformInt(6, 10));
    std::string id = absl::StrCat(rng.UniformInt(1, 9));
    for (int d = 1; d < digits; ++d) absl::StrAppend(&id, rng.UniformInt(0, 9));
    id += ".jpg";
    if (!ids.insert(id).second) continue;
    const int label = static_cast<int>(rng.Categorical(kClassWeights));
    ASSIGN_OR_RETURN(std::string jpeg,
                     (EncodeJpeg({kSize, kSize, DrawLeaf(rng, label)}, kJpegQuality)));
    images.push_back({id, label, std::move(jpeg)});
  }

  for (const char* folder : {"train_images", "train_tfrecords", "test_images", "test_tfrecords"}) {
    std::error_code error;
    fs::create_directories(raw_dir / folder, error);
    if (error) return absl::InternalError(absl::StrCat("cannot create ", folder));
  }
  // The records: a shuffled order cut into kNumFiles files of varying size.
  std::vector<const Image*> order;
  for (const Image& image : images) order.push_back(&image);
  rng.Shuffle(order);
  std::vector<size_t> cuts = {0, order.size()};
  while (cuts.size() < kNumFiles + 1) {
    const size_t cut = rng.UniformInt(1, static_cast<int64_t>(order.size()) - 1);
    if (std::find(cuts.begin(), cuts.end(), cut) == cuts.end()) cuts.push_back(cut);
  }
  std::sort(cuts.begin(), cuts.end());
  for (int f = 0; f < kNumFiles; ++f) {
    const std::vector<const Image*> part(order.begin() + cuts[f], order.begin() + cuts[f + 1]);
    ASSIGN_OR_RETURN(std::string bytes, TfRecordFile(part));
    const std::string name = absl::StrFormat("ld_train%02d-%d.tfrec", f, part.size());
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train_tfrecords" / name, bytes));
  }

  std::vector<const Image*> by_id = order;
  std::sort(by_id.begin(), by_id.end(),
            [](const Image* a, const Image* b) { return a->image_id < b->image_id; });
  CsvTextBuilder train_csv;
  train_csv.Row({"image_id", "label"});
  for (const Image* image : by_id) {
    train_csv.String(image->image_id).Int(image->label).EndRow();
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train_images" / image->image_id, image->jpeg));
  }
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train.csv", train_csv.text()));

  // Kaggle's one public test image, unlabelled.
  const int test_label = static_cast<int>(rng.Categorical(kClassWeights));
  ASSIGN_OR_RETURN(std::string test_jpeg,
                   (EncodeJpeg({kSize, kSize, DrawLeaf(rng, test_label)}, kJpegQuality)));
  const Image test{kTestImage, test_label, test_jpeg};
  std::vector<std::string> test_records = {
      SerializeExample({{"image", std::vector<std::string>{test.jpeg}},
                        {"image_name", std::vector<std::string>{test.image_id}}})};
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "test_images" / kTestImage, test.jpeg));
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "test_tfrecords" / "ld_test00-1.tfrec",
                                    WriteTfRecords(test_records)));
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "sample_submission.csv",
                                    absl::StrCat("image_id,label\n", kTestImage, ",4\n")));
  return WriteStringToFile(raw_dir / "label_num_to_disease_map.json", kDiseaseMap);
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
