// Synthetic raw download of whale-categorization-playground as upstream's
// prepare.py reads it: train.csv (Image = "<8 hex digits>.jpg", Id =
// "w_<7 hex digits>" or "new_whale") and train/<Image>. Photos are 32x32
// RGB JPEGs of a dark tail fluke on a sea-coloured background; each whale's
// fluke carries its own 4x4 pattern of pale patches, so photos of one whale
// look alike (up to lighting, a small shift and noise) and nearest-centroid
// matching on the pixels identifies known whales. "new_whale" photos each
// get a pattern of their own, as unidentified whales do. Kaggle's mix:
// whales with several photos, many with one, and a share of new_whale.

#include <algorithm>
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
#include "synthetic/jpeg_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kSize = 32;
constexpr int kRepeatedWhales = 50;  // 2 to 6 photos each
constexpr int kSingleWhales = 40;    // one photo each
constexpr int kNewWhalePhotos = 40;

using Pattern = std::vector<bool>;  // 16 cells of the fluke, row-major

Pattern RandomPattern(SyntheticRng& rng) {
  Pattern pattern(16);
  for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = rng.Bernoulli(0.5);
  return pattern;
}

RgbImage DrawFluke(SyntheticRng& rng, const Pattern& pattern) {
  const double light = rng.Uniform(0.85, 1.15);
  const int dx = static_cast<int>(rng.UniformInt(-1, 1));
  const int dy = static_cast<int>(rng.UniformInt(-1, 1));
  RgbImage image{kSize, kSize, std::vector<uint8_t>(kSize * kSize * 3)};
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x) {
      // Sea everywhere; the fluke fills rows 4..27 and columns 2..29.
      double rgb[3] = {60, 110, 150};
      const int fx = x - 2 - dx, fy = y - 4 - dy;
      if (fx >= 0 && fx < 28 && fy >= 0 && fy < 24) {
        const bool pale = pattern[(fy / 6) * 4 + fx / 7];
        const double shade = pale ? 215 : 45;
        rgb[0] = rgb[1] = rgb[2] = shade;
      }
      for (int c = 0; c < 3; ++c) {
        const double value = rgb[c] * light + 12.0 * (rng.Uniform() + rng.Uniform() - 1.0);
        image.pixels[(y * kSize + x) * 3 + c] =
            static_cast<uint8_t>(std::clamp(std::round(value), 0.0, 255.0));
      }
    }
  }
  return image;
}

struct Photo {
  std::string image;
  std::string whale;
  Pattern pattern;
};

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<Photo> photos;
  std::set<std::string> whales = {"w_1287fbc", "w_98baff9", "w_7554f44", "w_1eafe46"};
  auto new_whale_id = [&] {
    std::string id;
    do id = "w_" + rng.Hex(7); while (!whales.insert(id).second);
    return id;
  };
  for (int w = 0; w < kRepeatedWhales; ++w) {
    const std::string id = new_whale_id();
    const Pattern pattern = RandomPattern(rng);
    const int count = static_cast<int>(rng.UniformInt(2, 6));
    for (int i = 0; i < count; ++i) photos.push_back({"", id, pattern});
  }
  for (int w = 0; w < kSingleWhales; ++w) photos.push_back({"", new_whale_id(), RandomPattern(rng)});
  for (int i = 0; i < kNewWhalePhotos; ++i) photos.push_back({"", "new_whale", RandomPattern(rng)});
  std::set<std::string> names;
  for (Photo& photo : photos) {
    do photo.image = rng.Hex(8) + ".jpg"; while (!names.insert(photo.image).second);
  }
  // Kaggle's file lists photos by file name.
  std::sort(photos.begin(), photos.end(),
            [](const Photo& a, const Photo& b) { return a.image < b.image; });

  const fs::path train_dir = raw_dir / "train";
  std::error_code error;
  fs::create_directories(train_dir, error);
  if (error) return absl::InternalError(absl::StrCat("cannot create ", train_dir.string()));
  CsvTextBuilder csv;
  csv.Row({"Image", "Id"});
  for (const Photo& photo : photos) {
    ASSIGN_OR_RETURN(std::string jpeg, EncodeJpeg(DrawFluke(rng, photo.pattern), 85));
    RETURN_IF_ERROR(WriteStringToFile(train_dir / photo.image, jpeg));
    csv.String(photo.image).String(photo.whale).EndRow();
  }
  return WriteStringToFile(raw_dir / "train.csv", csv.text());
}

MLEBENCH_REGISTER_SYNTHETIC(
    SyntheticDataset{.id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
