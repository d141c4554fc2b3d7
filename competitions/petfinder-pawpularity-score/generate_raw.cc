// Synthetic raw download of petfinder-pawpularity-score, in the Kaggle
// layout that upstream's prepare.py reads: train.csv (Id, 32 lowercase hex
// digits; twelve 0/1 photo-metadata columns in Kaggle's order; Pawpularity,
// an integer in [1, 100], last) and train/<Id>.jpg. Kaggle's test/,
// test.csv and sample_submission.csv are never read upstream and are left
// out.
//
// Images are 32x32 RGB photos of a "pet" (a furry ellipse with two eyes) on
// a cluttered background. Pawpularity grows with how much of the frame the
// pet fills and drops for blurry photos, plus noise, so the pet's size in
// the image (and the Near/Blur metadata) predicts it well but not
// perfectly; the other metadata columns are weakly related or random, as on
// Kaggle.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
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
constexpr int kNumImages = 500;
constexpr int kJpegQuality = 85;

// Kaggle's metadata columns, in order.
enum Meta { kFocus, kEyes, kFace, kNear, kAction, kAccessory, kGroup, kCollage, kHuman,
            kOcclusion, kInfo, kBlur, kNumMeta };
constexpr std::array<const char*, kNumMeta> kMetaNames = {
    "Subject Focus", "Eyes", "Face", "Near", "Action", "Accessory",
    "Group", "Collage", "Human", "Occlusion", "Info", "Blur"};

using Rgb = std::array<double, 3>;

std::vector<uint8_t> DrawPet(SyntheticRng& rng, double prominence, bool blur) {
  std::vector<Rgb> pixels(kSize * kSize);
  // Greyish rooms and lawns, never fur-coloured.
  const double grey = rng.Uniform(50, 200);
  const Rgb background = {grey + rng.Uniform(-15, 10), grey + rng.Uniform(-10, 20),
                          grey + rng.Uniform(-10, 20)};
  for (Rgb& p : pixels) p = background;
  // Clutter: a few random rectangles.
  for (int k = static_cast<int>(rng.UniformInt(1, 4)); k > 0; --k) {
    const Rgb c = {rng.Uniform(0, 255), rng.Uniform(0, 255), rng.Uniform(0, 255)};
    const int x0 = static_cast<int>(rng.UniformInt(0, 27)), y0 = static_cast<int>(rng.UniformInt(0, 27));
    const int w = static_cast<int>(rng.UniformInt(2, 6)), h = static_cast<int>(rng.UniformInt(2, 6));
    for (int y = y0; y < std::min(kSize, y0 + h); ++y) {
      for (int x = x0; x < std::min(kSize, x0 + w); ++x) pixels[y * kSize + x] = c;
    }
  }
  const double shade = rng.Uniform(0.65, 1.0);
  const Rgb fur = {230 * shade, 170 * shade, 110 * shade};
  const double r = 4 + 11 * prominence;
  const double cx = 16 + rng.Normal(0, 2), cy = 16 + rng.Normal(0, 2);
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x) {
      const double ex = (x - cx) / r, ey = (y - cy) / (r * 0.85);
      if (ex * ex + ey * ey <= 1) pixels[y * kSize + x] = fur;
    }
  }
  for (double side : {-0.35, 0.35}) {
    const int ex = static_cast<int>(std::lround(cx + side * r)), ey = static_cast<int>(std::lround(cy - 0.2 * r));
    if (ex >= 0 && ey >= 0 && ex < kSize && ey < kSize) pixels[ey * kSize + ex] = {10, 10, 10};
  }
  if (blur) {
    std::vector<Rgb> blurred = pixels;
    for (int y = 0; y < kSize; ++y) {
      for (int x = 0; x < kSize; ++x) {
        Rgb sum = {0, 0, 0};
        int n = 0;
        for (int dy = -1; dy <= 1; ++dy) {
          for (int dx = -1; dx <= 1; ++dx) {
            const int yy = y + dy, xx = x + dx;
            if (yy < 0 || xx < 0 || yy >= kSize || xx >= kSize) continue;
            for (int c = 0; c < 3; ++c) sum[c] += pixels[yy * kSize + xx][c];
            ++n;
          }
        }
        for (int c = 0; c < 3; ++c) blurred[y * kSize + x][c] = sum[c] / n;
      }
    }
    pixels = blurred;
  }
  std::vector<uint8_t> bytes(pixels.size() * 3);
  for (size_t i = 0; i < pixels.size(); ++i) {
    for (int c = 0; c < 3; ++c) {
      const double v = pixels[i][c] + 10.0 * (rng.Uniform() + rng.Uniform() - 1.0);
      bytes[i * 3 + c] = static_cast<uint8_t>(std::clamp(std::round(v), 0.0, 255.0));
    }
  }
  return bytes;
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  fs::create_directories(raw_dir / "train");
  CsvTextBuilder csv;
  csv.String("Id");
  for (const char* name : kMetaNames) csv.String(name);
  csv.String("Pawpularity").EndRow();
  for (int i = 0; i < kNumImages; ++i) {
    const std::string id = rng.Hex(32);
    const double prominence = rng.Uniform();
    std::array<int, kNumMeta> meta{};
    meta[kFocus] = rng.Bernoulli(0.03);
    meta[kEyes] = rng.Bernoulli(0.77);
    meta[kFace] = rng.Bernoulli(0.9);
    meta[kNear] = prominence > 0.5 ? rng.Bernoulli(0.95) : rng.Bernoulli(0.4);
    meta[kAction] = rng.Bernoulli(0.01);
    meta[kAccessory] = rng.Bernoulli(0.07);
    meta[kGroup] = rng.Bernoulli(0.13);
    meta[kCollage] = rng.Bernoulli(0.05);
    meta[kHuman] = rng.Bernoulli(0.17);
    meta[kOcclusion] = rng.Bernoulli(0.17);
    meta[kInfo] = rng.Bernoulli(0.06);
    meta[kBlur] = rng.Bernoulli(0.07);
    const double score = 12 + 60 * prominence - 10 * meta[kBlur] + rng.Normal(0, 6);
    const int pawpularity = static_cast<int>(std::clamp(std::round(score), 1.0, 100.0));
    csv.String(id);
    for (int m : meta) csv.Int(m);
    csv.Int(pawpularity).EndRow();
    ASSIGN_OR_RETURN(
        std::string jpeg,
        (EncodeJpeg({kSize, kSize, DrawPet(rng, prominence, meta[kBlur] == 1)}, kJpegQuality)));
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train" / (id + ".jpg"), jpeg));
  }
  return WriteStringToFile(raw_dir / "train.csv", csv.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
