// Synthetic raw download of imet-2020-fgvc7, in the Kaggle layout that
// upstream's prepare.py reads: train.csv (id: 16 hex digits; attribute_ids:
// space-separated attribute numbers in ascending order), labels.csv
// (attribute_id, attribute_name: "culture::..." then "tag::..." names) and
// train/<id>.png. Kaggle's download also holds test/ and
// sample_submission.csv, which upstream never reads; they are left out.
//
// Each artwork has one culture and one to three tags. Images are 32x32 RGB
// PNGs: the culture sets the background's hue, and each tag paints its own
// coloured square at its own place on a 4x4 grid (faded or shifted at
// random), so pixel statistics predict the attributes well but not
// perfectly.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "synthetic/csv_text.h"
#include "synthetic/png_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kSize = 32;
constexpr int kNumImages = 300;

const std::vector<std::string> kCultures = {"american", "british", "egyptian", "french",
                                            "japanese"};
const std::vector<std::string> kTags = {"men",     "women",    "flowers", "horses",
                                        "landscapes", "portraits", "birds",  "boats",
                                        "trees",   "dogs",     "inscriptions", "saints",
                                        "animals", "houses",   "mountains", "crosses"};
// Background colours of the cultures, and the colour of each tag's square.
const std::vector<std::array<double, 3>> kCultureColors = {
    {170, 140, 100}, {90, 90, 140}, {200, 180, 90}, {120, 160, 120}, {180, 90, 90}};

std::vector<uint8_t> DrawArtwork(SyntheticRng& rng, int culture, const std::vector<int>& tags) {
  std::vector<double> pixels(kSize * kSize * 3);
  const std::array<double, 3>& base = kCultureColors[culture];
  for (int i = 0; i < kSize * kSize; ++i) {
    for (int c = 0; c < 3; ++c) pixels[i * 3 + c] = base[c];
  }
  for (int tag : tags) {
    const int cell_x = (tag % 4) * 8 + static_cast<int>(rng.UniformInt(-1, 1));
    const int cell_y = (tag / 4) * 8 + static_cast<int>(rng.UniformInt(-1, 1));
    const double strength = rng.Uniform(0.5, 1.0);
    const std::array<double, 3> color = {(tag * 67) % 256 * 1.0, (tag * 151 + 40) % 256 * 1.0,
                                         (tag * 29 + 200) % 256 * 1.0};
    for (int y = std::max(cell_y + 1, 0); y < std::min(cell_y + 7, kSize); ++y) {
      for (int x = std::max(cell_x + 1, 0); x < std::min(cell_x + 7, kSize); ++x) {
        for (int c = 0; c < 3; ++c) {
          double& p = pixels[(y * kSize + x) * 3 + c];
          p = (1 - strength) * p + strength * color[c];
        }
      }
    }
  }
  const double light = rng.Uniform(0.8, 1.15);
  std::vector<uint8_t> bytes(pixels.size());
  for (size_t i = 0; i < pixels.size(); ++i) {
    const double v = light * pixels[i] + 18.0 * (rng.Uniform() + rng.Uniform() - 1.0);
    bytes[i] = static_cast<uint8_t>(std::clamp(std::round(v), 0.0, 255.0));
  }
  return bytes;
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  fs::create_directories(raw_dir / "train");
  CsvTextBuilder labels;
  labels.Row({"attribute_id", "attribute_name"});
  for (size_t i = 0; i < kCultures.size(); ++i) {
    labels.Int(static_cast<int64_t>(i)).String("culture::" + kCultures[i]).EndRow();
  }
  for (size_t i = 0; i < kTags.size(); ++i) {
    labels.Int(static_cast<int64_t>(kCultures.size() + i)).String("tag::" + kTags[i]).EndRow();
  }
  CsvTextBuilder train;
  train.Row({"id", "attribute_ids"});
  for (int i = 0; i < kNumImages; ++i) {
    const std::string id = rng.Hex(16);
    const int culture = static_cast<int>(rng.UniformInt(kCultures.size()));
    std::set<int> tags;
    for (int n = static_cast<int>(rng.UniformInt(1, 3)); n > 0; --n) {
      tags.insert(static_cast<int>(rng.UniformInt(kTags.size())));
    }
    std::vector<int> attribute_ids = {culture};
    for (int tag : tags) attribute_ids.push_back(static_cast<int>(kCultures.size()) + tag);
    train.Row({id, absl::StrJoin(attribute_ids, " ")});
    ASSIGN_OR_RETURN(
        std::string png,
        (EncodePng({kSize, kSize, PngColor::kRgb,
                    DrawArtwork(rng, culture, std::vector<int>(tags.begin(), tags.end()))})));
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train" / (id + ".png"), png));
  }
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "labels.csv", labels.text()));
  return WriteStringToFile(raw_dir / "train.csv", train.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
