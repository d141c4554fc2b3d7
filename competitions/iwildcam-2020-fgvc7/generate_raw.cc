// Synthetic raw download of iwildcam-2020-fgvc7, in Kaggle's layout:
// iwildcam2020_train_annotations.json ({"annotations", "images",
// "categories", "info"}: one annotation per image with count, image_id, id
// and category_id; images with Kaggle's fields, ids in Kaggle's uuid-like
// form, an integer camera `location`), iwildcam2020_test_information.json
// ({"images", "categories", "info"}), iwildcam2020_megadetector_results.json
// (one detection list per image), train/<id>.jpg, test/<id>.jpg and
// sample_submission.csv (Id, Category).
//
// Images are 32x32 RGB JPEGs: a location-specific background (each camera
// sees its own scene) with, unless the category is "empty", an animal blob
// whose colour and size identify its species. Locations see different mixes
// of species, so both the image and the location carry signal.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "pycompat/python_json.h"
#include "synthetic/csv_text.h"
#include "synthetic/jpeg_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kSize = 32;
constexpr int kNumTrain = 220;
constexpr int kNumTest = 40;
constexpr int kTrainLocations = 24;
constexpr int kJpegQuality = 85;

struct Species {
  int id;
  const char* name;
  std::array<double, 3> rgb;
  double radius;
};

// Kaggle's category ids are sparse in 0..675.
const std::array<Species, 6> kSpecies = {{
    {0, "empty", {0, 0, 0}, 0},
    {72, "tayassu pecari", {60, 45, 40}, 6},
    {101, "dasyprocta punctata", {180, 110, 50}, 4},
    {372, "meleagris ocellata", {40, 60, 140}, 5},
    {111, "puma concolor", {200, 170, 120}, 8},
    {8, "bos taurus", {230, 230, 230}, 9},
}};

std::string Uuid(SyntheticRng& rng) {
  return absl::StrCat(rng.Hex(8), "-21bc-11ea-a13a-", rng.Hex(12));
}

std::vector<uint8_t> DrawImage(SyntheticRng& rng, const std::array<double, 3>& scene,
                               const Species& species) {
  std::vector<double> pixels(kSize * kSize * 3);
  for (int i = 0; i < kSize * kSize; ++i) {
    for (int c = 0; c < 3; ++c) pixels[i * 3 + c] = scene[c];
  }
  if (species.radius > 0) {
    const double cx = rng.Uniform(8, 24), cy = rng.Uniform(10, 22);
    const double r = species.radius * rng.Uniform(0.8, 1.2);
    for (int y = 0; y < kSize; ++y) {
      for (int x = 0; x < kSize; ++x) {
        const double dx = (x - cx) / (1.4 * r), dy = (y - cy) / r;
        if (dx * dx + dy * dy > 1) continue;
        for (int c = 0; c < 3; ++c) pixels[(y * kSize + x) * 3 + c] = species.rgb[c];
      }
    }
  }
  std::vector<uint8_t> bytes(pixels.size());
  for (size_t i = 0; i < pixels.size(); ++i) {
    const double noisy = pixels[i] + 16.0 * (rng.Uniform() + rng.Uniform() - 1.0);
    bytes[i] = static_cast<uint8_t>(std::clamp(std::round(noisy), 0.0, 255.0));
  }
  return bytes;
}

struct Picture {
  std::string id;
  int location;
  size_t species;
  JsonValue record;
};

absl::StatusOr<std::vector<Picture>> MakeImages(SyntheticRng& rng, int count,
                                                const std::vector<int>& locations,
                                                const std::vector<std::array<double, 3>>& scenes,
                                                const std::vector<std::vector<double>>& mixes,
                                                const fs::path& folder) {
  std::vector<Picture> pictures;
  for (int i = 0; i < count; ++i) {
    const size_t where = rng.UniformInt(locations.size());
    const size_t species = rng.Categorical(mixes[where]);
    Picture p{Uuid(rng), locations[where], species, JsonValue::Object()};
    const int frames = static_cast<int>(rng.UniformInt(1, 3));
    p.record.Set("seq_num_frames", JsonValue::Int(frames));
    p.record.Set("location", JsonValue::Int(p.location));
    p.record.Set("datetime",
                 JsonValue::String(absl::StrFormat("2013-%02d-%02d %02d:%02d:00.000",
                                                   rng.UniformInt(1, 12), rng.UniformInt(1, 28),
                                                   rng.UniformInt(0, 23), rng.UniformInt(0, 59))));
    p.record.Set("id", JsonValue::String(p.id));
    p.record.Set("frame_num", JsonValue::Int(rng.UniformInt(1, frames)));
    p.record.Set("seq_id", JsonValue::String(Uuid(rng)));
    p.record.Set("width", JsonValue::Int(2048));
    p.record.Set("height", JsonValue::Int(1536));
    p.record.Set("file_name", JsonValue::String(p.id + ".jpg"));
    ASSIGN_OR_RETURN(std::string jpeg,
                     (EncodeJpeg({kSize, kSize, DrawImage(rng, scenes[where], kSpecies[species])},
                                 kJpegQuality)));
    RETURN_IF_ERROR(WriteStringToFile(folder / (p.id + ".jpg"), jpeg));
    pictures.push_back(std::move(p));
  }
  return pictures;
}

JsonValue Info() {
  JsonValue info = JsonValue::Object();
  info.Set("version", JsonValue::String("synthetic"));
  info.Set("description", JsonValue::String("Synthetic camera trap images"));
  info.Set("year", JsonValue::Int(2020));
  return info;
}

absl::Status WriteJson(const fs::path& path, const JsonValue& value) {
  ASSIGN_OR_RETURN(std::string text, DumpJson(value));
  return WriteStringToFile(path, text);
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  std::error_code error;
  fs::create_directories(raw_dir / "train", error);
  fs::create_directories(raw_dir / "test", error);
  if (error) return absl::InternalError("cannot create train/ and test/");

  // Train and test cameras are different places, as on Kaggle.
  std::vector<int> train_locations, test_locations;
  std::vector<std::array<double, 3>> train_scenes, test_scenes;
  std::vector<std::vector<double>> train_mixes, test_mixes;
  for (int i = 0; i < kTrainLocations + 6; ++i) {
    const int location = static_cast<int>(rng.UniformInt(0, 9)) + 10 * i;
    const std::array<double, 3> scene = {rng.Uniform(60, 120), rng.Uniform(80, 140),
                                         rng.Uniform(40, 90)};
    std::vector<double> mix(kSpecies.size());
    for (double& w : mix) w = rng.Bernoulli(0.6) ? rng.Uniform(0.5, 2) : 0.05;
    mix[0] += 1.0;  // empty frames everywhere
    (i < kTrainLocations ? train_locations : test_locations).push_back(location);
    (i < kTrainLocations ? train_scenes : test_scenes).push_back(scene);
    (i < kTrainLocations ? train_mixes : test_mixes).push_back(mix);
  }
  ASSIGN_OR_RETURN(
      std::vector<Picture> train,
      MakeImages(rng, kNumTrain, train_locations, train_scenes, train_mixes, raw_dir / "train"));
  ASSIGN_OR_RETURN(std::vector<Picture> test, MakeImages(rng, kNumTest, test_locations, test_scenes,
                                                         test_mixes, raw_dir / "test"));

  std::vector<int> counts(kSpecies.size());
  JsonValue annotations = JsonValue::Array();
  JsonValue train_images = JsonValue::Array();
  for (const Picture& p : train) {
    ++counts[p.species];
    JsonValue a = JsonValue::Object();
    a.Set("count", JsonValue::Int(kSpecies[p.species].radius > 0 ? rng.UniformInt(1, 3) : 0));
    a.Set("image_id", JsonValue::String(p.id));
    a.Set("id", JsonValue::String(Uuid(rng)));
    a.Set("category_id", JsonValue::Int(kSpecies[p.species].id));
    annotations.items.push_back(std::move(a));
    train_images.items.push_back(p.record);
  }
  JsonValue train_categories = JsonValue::Array();
  JsonValue test_categories = JsonValue::Array();
  for (size_t s = 0; s < kSpecies.size(); ++s) {
    JsonValue c = JsonValue::Object();
    c.Set("count", JsonValue::Int(counts[s]));
    c.Set("id", JsonValue::Int(kSpecies[s].id));
    c.Set("name", JsonValue::String(kSpecies[s].name));
    train_categories.items.push_back(c);
    JsonValue t = JsonValue::Object();
    t.Set("id", JsonValue::Int(kSpecies[s].id));
    t.Set("name", JsonValue::String(kSpecies[s].name));
    test_categories.items.push_back(std::move(t));
  }
  JsonValue train_json = JsonValue::Object();
  train_json.Set("annotations", std::move(annotations));
  train_json.Set("images", std::move(train_images));
  train_json.Set("categories", std::move(train_categories));
  train_json.Set("info", Info());
  JsonValue test_images = JsonValue::Array();
  for (const Picture& p : test) test_images.items.push_back(p.record);
  JsonValue test_json = JsonValue::Object();
  test_json.Set("images", std::move(test_images));
  test_json.Set("categories", std::move(test_categories));
  test_json.Set("info", Info());

  // MegaDetector output: one box around the animal, a low-confidence one
  // for empty frames.
  JsonValue detections = JsonValue::Array();
  for (const auto* pictures : {&train, &test}) {
    for (const Picture& p : *pictures) {
      const bool animal = kSpecies[p.species].radius > 0;
      const double conf = animal ? rng.Uniform(0.8, 1.0) : rng.Uniform(0.0, 0.2);
      JsonValue box = JsonValue::Object();
      box.Set("category", JsonValue::String("1"));
      box.Set("bbox", JsonValue::Array({JsonValue::Float(0.25), JsonValue::Float(0.3),
                                        JsonValue::Float(0.5), JsonValue::Float(0.4)}));
      box.Set("conf", JsonValue::Float(conf));
      JsonValue image = JsonValue::Object();
      image.Set("detections", JsonValue::Array({box}));
      image.Set("id", JsonValue::String(p.id));
      image.Set("max_detection_conf", JsonValue::Float(conf));
      detections.items.push_back(std::move(image));
    }
  }
  JsonValue detection_categories = JsonValue::Object();
  detection_categories.Set("1", JsonValue::String("animal"));
  JsonValue megadetector = JsonValue::Object();
  megadetector.Set("info", Info());
  megadetector.Set("images", std::move(detections));
  megadetector.Set("detection_categories", std::move(detection_categories));

  RETURN_IF_ERROR(WriteJson(raw_dir / "iwildcam2020_train_annotations.json", train_json));
  RETURN_IF_ERROR(WriteJson(raw_dir / "iwildcam2020_test_information.json", test_json));
  RETURN_IF_ERROR(WriteJson(raw_dir / "iwildcam2020_megadetector_results.json", megadetector));
  CsvTextBuilder sample;
  sample.Row({"Id", "Category"});
  for (const Picture& p : test) sample.String(p.id).Int(0).EndRow();
  return WriteStringToFile(raw_dir / "sample_submission.csv", sample.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
