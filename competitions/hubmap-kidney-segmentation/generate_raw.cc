// Synthetic raw download of hubmap-kidney-segmentation, in Kaggle's layout:
// train.csv (id = nine hex digits, encoding = the glomerulus mask run-length
// encoded down the columns, as upstream's rle_decode reads it), train/<id>.tiff
// (RGB tissue image), train/<id>.json (the glomeruli as GeoJSON polygons),
// train/<id>-anatomical-structure.json (the cortex region) and
// HuBMAP-20-dataset_information.csv (one row per image, the 15 labelled ones
// and 5 test ones as on Kaggle, with Kaggle's columns). Images are small
// (48 to 80 pixels a side) pink tissue with a few round, darker purple
// glomeruli, so colour separates the mask well.

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
#include "grading/metrics/vision/run_length_encoding.h"
#include "synthetic/csv_text.h"
#include "synthetic/jpeg_writer.h"
#include "synthetic/synthetic.h"
#include "synthetic/tiff_writer.h"

namespace mlebench {
namespace {

constexpr int kNumTrain = 15;  // Kaggle's labelled images; upstream splits 12/3
constexpr int kNumTest = 5;

struct Blob {
  double x, y, radius;
};

struct Scene {
  int width, height;
  RgbImage image;
  std::vector<uint8_t> mask;  // row-major 0/1
  std::vector<Blob> glomeruli;
};

Scene DrawScene(SyntheticRng& rng) {
  Scene scene;
  scene.width = static_cast<int>(rng.UniformInt(48, 80));
  scene.height = static_cast<int>(rng.UniformInt(48, 80));
  const int count = static_cast<int>(rng.UniformInt(2, 5));
  for (int i = 0; i < count; ++i) {
    scene.glomeruli.push_back(
        {rng.Uniform(6, scene.width - 6), rng.Uniform(6, scene.height - 6), rng.Uniform(3, 7)});
  }
  scene.image =
      RgbImage{scene.width, scene.height, std::vector<uint8_t>(scene.width * scene.height * 3)};
  scene.mask.assign(scene.width * scene.height, 0);
  for (int y = 0; y < scene.height; ++y) {
    for (int x = 0; x < scene.width; ++x) {
      bool inside = false;
      for (const Blob& b : scene.glomeruli) {
        inside |= (x - b.x) * (x - b.x) + (y - b.y) * (y - b.y) <= b.radius * b.radius;
      }
      const double r = inside ? 150 : 225, g = inside ? 90 : 170, bl = inside ? 170 : 200;
      uint8_t* p = &scene.image.pixels[(y * scene.width + x) * 3];
      for (int c = 0; c < 3; ++c) {
        const double base = c == 0 ? r : c == 1 ? g : bl;
        p[c] = static_cast<uint8_t>(std::clamp(std::round(base + rng.Normal(0, 14)), 0.0, 255.0));
      }
      scene.mask[y * scene.width + x] = inside ? 1 : 0;
    }
  }
  return scene;
}

// A square polygon around each glomerulus, in Kaggle's GeoJSON style.
std::string GlomeruliJson(const std::vector<Blob>& glomeruli) {
  std::string json = "[";
  for (size_t i = 0; i < glomeruli.size(); ++i) {
    const Blob& b = glomeruli[i];
    const int x0 = static_cast<int>(b.x - b.radius), x1 = static_cast<int>(b.x + b.radius);
    const int y0 = static_cast<int>(b.y - b.radius), y1 = static_cast<int>(b.y + b.radius);
    absl::StrAppend(&json, i == 0 ? "" : ", ",
                    "{\"type\": \"Feature\", \"id\": \"PathAnnotationObject\", \"geometry\": "
                    "{\"type\": \"Polygon\", \"coordinates\": [[[",
                    x0, ", ", y0, "], [", x1, ", ", y0, "], [", x1, ", ", y1, "], [", x0, ", ", y1,
                    "], [", x0, ", ", y0,
                    "]]]}, \"properties\": {\"classification\": {\"name\": \"glomerulus\", "
                    "\"colorRGB\": -3140401}, \"isLocked\": false, \"measurements\": []}}");
  }
  return json + "]";
}

std::string CortexJson(int width, int height) {
  return absl::StrCat(
      "[{\"type\": \"Feature\", \"id\": \"PathAnnotationObject\", \"geometry\": {\"type\": "
      "\"Polygon\", \"coordinates\": [[[0, 0], [",
      width, ", 0], [", width, ", ", height, "], [0, ", height,
      "], [0, 0]]]}, \"properties\": {\"classification\": {\"name\": \"Cortex\", \"colorRGB\": "
      "-16711936}, \"isLocked\": false, \"measurements\": []}}]");
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng id_rng = root.Fork(0), image_rng = root.Fork(1), info_rng = root.Fork(2);
  std::set<std::string> used;
  std::vector<std::string> ids;
  while (ids.size() < kNumTrain + kNumTest) {
    std::string id = id_rng.Hex(9);
    if (used.insert(id).second) ids.push_back(std::move(id));
  }
  const std::filesystem::path train_dir = raw_dir / "train";
  std::filesystem::create_directories(train_dir);
  CsvTextBuilder train_csv, info;
  train_csv.Row({"id", "encoding"});
  info.Row({"image_file", "width_pixels", "height_pixels", "anatomical_structures_segmention_file",
            "glomerulus_segmentation_file", "patient_number", "race", "ethnicity", "sex", "age",
            "weight_kilograms", "height_centimeters", "bmi_kg/m^2", "laterality", "percent_cortex",
            "percent_medulla"});
  for (size_t i = 0; i < ids.size(); ++i) {
    const std::string& id = ids[i];
    const bool labelled = i < kNumTrain;
    const Scene scene = DrawScene(image_rng);
    if (labelled) {
      ASSIGN_OR_RETURN(std::string rle,
                       EncodeRle(scene.mask, scene.height, scene.width, PixelOrder::kColumnMajor));
      train_csv.String(id).String(rle).EndRow();
      ASSIGN_OR_RETURN(std::string tiff, EncodeTiff(scene.image));
      for (const auto& [name, bytes] :
           {std::pair{id + ".tiff", tiff}, std::pair{id + ".json", GlomeruliJson(scene.glomeruli)},
            std::pair{id + "-anatomical-structure.json", CortexJson(scene.width, scene.height)}}) {
        RETURN_IF_ERROR(WriteStringToFile(train_dir / name, bytes));
      }
    }
    const double weight = std::round(info_rng.Uniform(55, 110) * 10) / 10;
    const double height_cm = std::round(info_rng.Uniform(155, 195) * 10) / 10;
    const int cortex = static_cast<int>(info_rng.UniformInt(40, 90));
    info.String(id + ".tiff")
        .Int(scene.width)
        .Int(scene.height)
        .String(id + "-anatomical-structure.json")
        .String(id + ".json")
        .Int(67000 + static_cast<int64_t>(info_rng.UniformInt(100, 999)))
        .String(info_rng.Bernoulli(0.7) ? "White" : "Black or African American")
        .String("Not Hispanic or Latino")
        .String(info_rng.Bernoulli(0.5) ? "Male" : "Female")
        .Int(info_rng.UniformInt(30, 80))
        .Float(weight)
        .Float(height_cm)
        .Float(std::round(weight / (height_cm * height_cm / 1e4) * 10) / 10)
        .String(info_rng.Bernoulli(0.5) ? "Left" : "Right")
        .Int(cortex)
        .Int(100 - cortex)
        .EndRow();
  }
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train.csv", train_csv.text()));
  return WriteStringToFile(raw_dir / "HuBMAP-20-dataset_information.csv", info.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
