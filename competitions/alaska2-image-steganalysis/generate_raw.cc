// Synthetic raw download of alaska2-image-steganalysis as upstream's
// prepare.py reads it: Cover/<nnnnn>.jpg and, under the same names,
// JMiPOD/, JUNIWARD/ and UERD/ versions with a hidden message. Upstream
// holds out exactly 5000 covers, so there are 5040 (the fewest that leave a
// useful train set), each a tiny 8x8 JPEG to keep the download small. Covers
// are smooth colour gradients; each algorithm adds its own faint +-noise
// pattern before compression, so high-frequency energy separates stego from
// cover images.

#include <algorithm>
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
#include "synthetic/jpeg_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kNumCovers = 5040;
constexpr int kSize = 8;
constexpr int kQuality = 95;
const char* const kAlgorithms[] = {"JMiPOD", "JUNIWARD", "UERD"};

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  for (const char* folder : {"Cover", "JMiPOD", "JUNIWARD", "UERD"}) {
    std::error_code error;
    fs::create_directories(raw_dir / folder, error);
    if (error) return absl::InternalError(absl::StrCat("cannot create ", folder));
  }
  for (int n = 1; n <= kNumCovers; ++n) {
    RgbImage cover{kSize, kSize, std::vector<uint8_t>(kSize * kSize * 3)};
    double base[3], slope_x[3], slope_y[3];
    for (int c = 0; c < 3; ++c) {
      base[c] = rng.Uniform(60, 190);
      slope_x[c] = rng.Uniform(-4, 4);
      slope_y[c] = rng.Uniform(-4, 4);
    }
    for (int y = 0; y < kSize; ++y) {
      for (int x = 0; x < kSize; ++x) {
        for (int c = 0; c < 3; ++c) {
          cover.pixels[(y * kSize + x) * 3 + c] = static_cast<uint8_t>(
              std::clamp(std::round(base[c] + slope_x[c] * x + slope_y[c] * y), 0.0, 255.0));
        }
      }
    }
    const std::string name = absl::StrFormat("%05d.jpg", n);
    ASSIGN_OR_RETURN(std::string jpeg, EncodeJpeg(cover, kQuality));
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / "Cover" / name, jpeg));
    for (int a = 0; a < 3; ++a) {
      RgbImage stego = cover;
      for (size_t i = 0; i < stego.pixels.size(); ++i) {
        // Each algorithm changes a different share of the pixels.
        if (!rng.Bernoulli(0.4 + 0.2 * a)) continue;
        const int delta = rng.Bernoulli(0.5) ? 10 : -10;
        stego.pixels[i] = static_cast<uint8_t>(std::clamp(stego.pixels[i] + delta, 0, 255));
      }
      ASSIGN_OR_RETURN(std::string stego_jpeg, EncodeJpeg(stego, kQuality));
      RETURN_IF_ERROR(WriteStringToFile(raw_dir / kAlgorithms[a] / name, stego_jpeg));
    }
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
