// Synthetic raw download of tgs-salt-identification-challenge, in Kaggle's
// layout: competition_data.zip holding competition_data/train.csv (id = ten
// hex digits, rle_mask = the salt mask run-length encoded down the columns,
// empty for no salt), competition_data/train/{images,masks}/<id>.png and
// competition_data/test/images/<id>.png; and depths.csv (id, z) for every
// train and test id. Images are 101 x 101 gray PNGs of layered, noisy
// sediment; about two in three hold a salt body, brighter and smoother than
// the sediment around it, bounded by a wavy curve, so thresholding the pixel
// values recovers most of the mask. Masks are 0/255 gray PNGs.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "formats/zip_archive.h"
#include "grading/metrics/vision/run_length_encoding.h"
#include "synthetic/csv_text.h"
#include "synthetic/png_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

constexpr int kSize = 101;
constexpr int kNumTrain = 60;
constexpr int kNumTest = 12;
constexpr double kSaltRate = 0.65;

struct Scene {
  std::vector<uint8_t> image;  // row-major gray
  std::vector<uint8_t> mask;   // row-major, 0 or 1
};

Scene DrawScene(SyntheticRng& rng, bool has_salt) {
  Scene scene{std::vector<uint8_t>(kSize * kSize), std::vector<uint8_t>(kSize * kSize, 0)};
  // The salt lies below (or above) a wavy boundary at a random height.
  const bool below = rng.Bernoulli(0.7);
  const double level = rng.Uniform(-10, kSize + 10);
  const double amplitude = rng.Uniform(2, 18), wavelength = rng.Uniform(25, 120);
  const double phase = rng.Uniform(0, 6.283), slope = rng.Normal(0, 0.3);
  // Sediment: horizontal layers plus strong noise.
  const double layer_period = rng.Uniform(5, 15), base = rng.Uniform(80, 110);
  const double salt_level = rng.Uniform(155, 185);
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x) {
      const double boundary =
          level + slope * (x - kSize / 2.0) + amplitude * std::sin(6.283 * x / wavelength + phase);
      const bool salt = has_salt && (below ? y > boundary : y < boundary);
      double value = salt ? salt_level + rng.Normal(0, 10)
                          : base + 20 * std::sin(6.283 * y / layer_period) + rng.Normal(0, 18);
      scene.image[y * kSize + x] = static_cast<uint8_t>(std::clamp(std::round(value), 0.0, 255.0));
      scene.mask[y * kSize + x] = salt ? 1 : 0;
    }
  }
  return scene;
}

absl::StatusOr<std::string> Png(const std::vector<uint8_t>& pixels) {
  return EncodePng(PngImage{kSize, kSize, PngColor::kGray, pixels});
}

std::vector<std::string> NewIds(SyntheticRng& rng, std::set<std::string>& used, int count) {
  std::vector<std::string> ids;
  while (static_cast<int>(ids.size()) < count) {
    std::string id = rng.Hex(10);
    if (used.insert(id).second) ids.push_back(std::move(id));
  }
  return ids;
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng id_rng = root.Fork(0), train_rng = root.Fork(1), test_rng = root.Fork(2),
               depth_rng = root.Fork(3);
  std::set<std::string> used;
  const std::vector<std::string> train_ids = NewIds(id_rng, used, kNumTrain);
  const std::vector<std::string> test_ids = NewIds(id_rng, used, kNumTest);

  const std::string dir = "competition_data/";
  std::vector<ZipEntry> entries = {ZipEntry::Directory(dir)};
  CsvTextBuilder train_csv;
  train_csv.Row({"id", "rle_mask"});
  std::vector<ZipEntry> images = {ZipEntry::Directory(dir + "train/"),
                                  ZipEntry::Directory(dir + "train/images/")};
  std::vector<ZipEntry> masks = {ZipEntry::Directory(dir + "train/masks/")};
  for (const std::string& id : train_ids) {
    const Scene scene = DrawScene(train_rng, train_rng.Bernoulli(kSaltRate));
    ASSIGN_OR_RETURN(std::string rle,
                     EncodeRle(scene.mask, kSize, kSize, PixelOrder::kColumnMajor));
    train_csv.String(id).String(rle).EndRow();
    ASSIGN_OR_RETURN(std::string image, Png(scene.image));
    std::vector<uint8_t> mask_pixels(scene.mask);
    for (uint8_t& v : mask_pixels) v *= 255;
    ASSIGN_OR_RETURN(std::string mask, Png(mask_pixels));
    images.push_back(ZipEntry::FromBytes(absl::StrCat(dir, "train/images/", id, ".png"), image));
    masks.push_back(ZipEntry::FromBytes(absl::StrCat(dir, "train/masks/", id, ".png"), mask));
  }
  entries.push_back(ZipEntry::FromBytes(dir + "train.csv", train_csv.text()));
  entries.insert(entries.end(), images.begin(), images.end());
  entries.insert(entries.end(), masks.begin(), masks.end());
  entries.push_back(ZipEntry::Directory(dir + "test/"));
  entries.push_back(ZipEntry::Directory(dir + "test/images/"));
  for (const std::string& id : test_ids) {
    ASSIGN_OR_RETURN(std::string image,
                     Png(DrawScene(test_rng, test_rng.Bernoulli(kSaltRate)).image));
    entries.push_back(ZipEntry::FromBytes(absl::StrCat(dir, "test/images/", id, ".png"), image));
  }

  // Kaggle's depths.csv lists train and test ids together, unsorted.
  std::vector<std::string> depth_ids = train_ids;
  depth_ids.insert(depth_ids.end(), test_ids.begin(), test_ids.end());
  CsvTextBuilder depths;
  depths.Row({"id", "z"});
  for (const std::string& id : depth_ids) {
    depths.String(id).Int(depth_rng.UniformInt(int64_t{51}, int64_t{959})).EndRow();
  }
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "depths.csv", depths.text()));
  return WriteZip(raw_dir / "competition_data.zip", entries);
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
