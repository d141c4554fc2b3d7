// Synthetic raw download of aerial-cactus-identification: train.csv
// (id = "<32 hex digits>.jpg", has_cactus 0/1), train.zip holding
// train/<id>.jpg, test.zip holding test/<id>.jpg (unlabelled, as on Kaggle)
// and sample_submission.csv (the test ids, has_cactus = 0.5). Images are
// 32x32 RGB JPEGs of textured sand with brownish shrubs; about three in four
// also hold one to three dark green, roughly vertical columns (the cacti), so
// colour alone separates the classes well but not perfectly.
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
#include "formats/zip_archive.h"
#include "synthetic/csv_text.h"
#include "synthetic/jpeg_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

constexpr int kSize = 32;
constexpr int kNumTrain = 1500;
constexpr int kNumTest = 400;
constexpr double kCactusRate = 0.75;  // as in Kaggle's train.csv
constexpr int kJpegQuality = 85;

// A float RGB canvas, clamped to bytes at the end.
class Canvas {
 public:
  Canvas() : pixels_(kSize * kSize * 3, 0.0) {}

  void Fill(double r, double g, double b) {
    for (int i = 0; i < kSize * kSize; ++i) Set(i, r, g, b);
  }
  // Paints the pixels within `radius` of the segment (x0,y0)-(x1,y1), blending
  // `color` in with weight `alpha`.
  void Stroke(double x0, double y0, double x1, double y1, double radius, const double color[3],
              double alpha) {
    const double dx = x1 - x0, dy = y1 - y0;
    const double length_sq = std::max(dx * dx + dy * dy, 1e-9);
    // Only the segment's bounding box, grown by the radius, can be painted.
    const int x_lo = std::max(0, static_cast<int>(std::floor(std::min(x0, x1) - radius)));
    const int x_hi = std::min(kSize - 1, static_cast<int>(std::ceil(std::max(x0, x1) + radius)));
    const int y_lo = std::max(0, static_cast<int>(std::floor(std::min(y0, y1) - radius)));
    const int y_hi = std::min(kSize - 1, static_cast<int>(std::ceil(std::max(y0, y1) + radius)));
    for (int y = y_lo; y <= y_hi; ++y) {
      for (int x = x_lo; x <= x_hi; ++x) {
        const double t = std::clamp(((x - x0) * dx + (y - y0) * dy) / length_sq, 0.0, 1.0);
        const double ex = x - (x0 + t * dx), ey = y - (y0 + t * dy);
        if (ex * ex + ey * ey > radius * radius) continue;
        double* p = &pixels_[(y * kSize + x) * 3];
        for (int c = 0; c < 3; ++c) p[c] = (1 - alpha) * p[c] + alpha * color[c];
      }
    }
  }
  // Sensor noise: triangular on [-amplitude, amplitude] (cheaper than normal
  // noise and just as good for JPEG texture).
  void AddNoise(SyntheticRng& rng, double amplitude) {
    for (double& v : pixels_) v += amplitude * (rng.Uniform() + rng.Uniform() - 1.0);
  }
  RgbImage ToImage() const {
    RgbImage image{kSize, kSize, std::vector<uint8_t>(pixels_.size())};
    for (size_t i = 0; i < pixels_.size(); ++i) {
      image.pixels[i] = static_cast<uint8_t>(std::clamp(std::round(pixels_[i]), 0.0, 255.0));
    }
    return image;
  }

 private:
  void Set(int i, double r, double g, double b) {
    pixels_[i * 3] = r;
    pixels_[i * 3 + 1] = g;
    pixels_[i * 3 + 2] = b;
  }
  std::vector<double> pixels_;
};

RgbImage DrawScene(SyntheticRng& rng, bool has_cactus) {
  Canvas canvas;
  // Sand: one tone per image, lit differently from image to image.
  const double light = rng.Uniform(150, 215);
  canvas.Fill(light, light * rng.Uniform(0.86, 0.885), light * rng.Uniform(0.62, 0.76));
  // Shrubs and stones: brownish or grey blobs, in every image.
  const int shrubs = static_cast<int>(rng.UniformInt(1, 5));
  for (int i = 0; i < shrubs; ++i) {
    const double shade = rng.Uniform(70, 140);
    const double color[3] = {shade, shade * rng.Uniform(0.78, 0.92), shade * rng.Uniform(0.6, 0.8)};
    const double x = rng.Uniform(0, kSize), y = rng.Uniform(0, kSize);
    canvas.Stroke(x, y, x + rng.Normal(0, 2), y + rng.Normal(0, 2), rng.Uniform(1.0, 3.5), color,
                  rng.Uniform(0.4, 0.9));
  }
  if (has_cactus) {
    const int cacti = 1 + static_cast<int>(rng.Categorical({6, 3, 1}));
    for (int i = 0; i < cacti; ++i) {
      const double green = rng.Uniform(85, 140);
      const double color[3] = {green * rng.Uniform(0.45, 0.7), green,
                               green * rng.Uniform(0.4, 0.7)};
      const double x = rng.Uniform(3, kSize - 3), y = rng.Uniform(4, kSize - 4);
      const double length = rng.Uniform(10, 30), tilt = rng.Normal(0, 0.25);
      canvas.Stroke(x, y - length / 2, x + tilt * length, y + length / 2, rng.Uniform(1.3, 2.8),
                    color, rng.Uniform(0.6, 0.95));
    }
  }
  canvas.AddNoise(rng, 16.0);
  return canvas.ToImage();
}

struct ImageSet {
  std::vector<std::string> ids;  // sorted
  std::vector<bool> has_cactus;
  std::vector<ZipEntry> entries;  // "<dir>/" then "<dir>/<id>" in id order
};

absl::StatusOr<ImageSet> MakeImages(SyntheticRng& rng, std::set<std::string>& used_ids, int count,
                                    const std::string& dir) {
  ImageSet set;
  std::vector<std::pair<std::string, bool>> labelled;
  while (static_cast<int>(labelled.size()) < count) {
    std::string id = rng.Hex(32) + ".jpg";
    if (!used_ids.insert(id).second) continue;
    labelled.emplace_back(std::move(id), rng.Bernoulli(kCactusRate));
  }
  std::sort(labelled.begin(), labelled.end());
  set.entries.push_back(ZipEntry::Directory(dir + "/"));
  for (const auto& [id, has_cactus] : labelled) {
    ASSIGN_OR_RETURN(std::string jpeg, EncodeJpeg(DrawScene(rng, has_cactus), kJpegQuality));
    set.entries.push_back(ZipEntry::FromBytes(absl::StrCat(dir, "/", id), std::move(jpeg)));
    set.ids.push_back(id);
    set.has_cactus.push_back(has_cactus);
  }
  return set;
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng train_rng = root.Fork(1), test_rng = root.Fork(2);
  std::set<std::string> used_ids;
  ASSIGN_OR_RETURN(ImageSet train, MakeImages(train_rng, used_ids, kNumTrain, "train"));
  ASSIGN_OR_RETURN(ImageSet test, MakeImages(test_rng, used_ids, kNumTest, "test"));

  CsvTextBuilder labels, sample;
  labels.Row({"id", "has_cactus"});
  for (size_t i = 0; i < train.ids.size(); ++i) {
    labels.String(train.ids[i]).Int(train.has_cactus[i] ? 1 : 0).EndRow();
  }
  sample.Row({"id", "has_cactus"});
  for (const std::string& id : test.ids) sample.String(id).Float(0.5).EndRow();

  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train.csv", labels.text()));
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "sample_submission.csv", sample.text()));
  RETURN_IF_ERROR(WriteZip(raw_dir / "train.zip", train.entries));
  return WriteZip(raw_dir / "test.zip", test.entries);
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
