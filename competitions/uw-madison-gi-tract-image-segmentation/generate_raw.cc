// Synthetic raw download of uw-madison-gi-tract-image-segmentation, in
// Kaggle's layout: train.csv (id = "case<N>_day<D>_slice_<nnnn>", class one
// of large_bowel / small_bowel / stomach, three rows per slice in that order;
// segmentation = the organ's mask run-length encoded along rows as Kaggle's
// is, empty where the organ is absent) and
// train/case<N>/case<N>_day<D>/scans/slice_<nnnn>_<width>_<height>_1.50_1.50.png.
// Each case-day is a small stack of gray MRI-like slices (8-bit, where
// Kaggle's are 16-bit) in which each organ is an ellipsoid of its own
// brightness over a dark, noisy body, so thresholding intensities recovers
// the masks. One case has six days, so prepare.py moves its last two to test.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "grading/metrics/vision/run_length_encoding.h"
#include "synthetic/csv_text.h"
#include "synthetic/png_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kNumCases = 10;
constexpr int kSlicesPerDay = 8;

struct Organ {
  const char* name;
  double brightness;
};
// Kaggle's row order within a slice.
constexpr Organ kOrgans[] = {{"large_bowel", 150}, {"small_bowel", 105}, {"stomach", 205}};

// An ellipsoid: centre (slice, row, column) and radii, in pixels/slices.
struct Ellipsoid {
  double z, y, x, rz, ry, rx;
  bool Contains(int slice, int row, int column) const {
    const double dz = (slice - z) / rz, dy = (row - y) / ry, dx = (column - x) / rx;
    return dz * dz + dy * dy + dx * dx <= 1.0;
  }
};

Ellipsoid RandomEllipsoid(SyntheticRng& rng, int width, int height, double x_lo, double x_hi) {
  return Ellipsoid{rng.Uniform(1, kSlicesPerDay - 2), rng.Uniform(0.3, 0.7) * height,
                   rng.Uniform(x_lo, x_hi) * width,   rng.Uniform(1.5, 4.5),
                   rng.Uniform(0.12, 0.25) * height,  rng.Uniform(0.07, 0.12) * width};
}

// Writes one case-day's scans and appends its rows to `csv`.
absl::Status WriteDay(SyntheticRng& rng, const fs::path& day_dir, const std::string& day_id,
                      int width, int height, CsvTextBuilder& csv) {
  // Organs sit left, centre and right, so they rarely overlap; where they do,
  // the later one is drawn on top but both masks keep the pixel.
  const Ellipsoid shapes[] = {RandomEllipsoid(rng, width, height, 0.2, 0.35),
                              RandomEllipsoid(rng, width, height, 0.45, 0.55),
                              RandomEllipsoid(rng, width, height, 0.65, 0.8)};
  const fs::path scans = day_dir / "scans";
  std::error_code error;
  fs::create_directories(scans, error);
  if (error) return absl::InternalError(absl::StrCat("cannot create ", scans.string()));
  for (int slice = 0; slice < kSlicesPerDay; ++slice) {
    std::vector<uint8_t> pixels(static_cast<size_t>(width) * height);
    std::vector<std::vector<uint8_t>> masks(3, std::vector<uint8_t>(pixels.size(), 0));
    for (int row = 0; row < height; ++row) {
      for (int column = 0; column < width; ++column) {
        double value = 45 + rng.Normal(0, 12);
        for (int organ = 0; organ < 3; ++organ) {
          if (shapes[organ].Contains(slice, row, column)) {
            masks[organ][row * width + column] = 1;
            value = kOrgans[organ].brightness + rng.Normal(0, 8);
          }
        }
        pixels[row * width + column] =
            static_cast<uint8_t>(std::clamp(std::round(value), 0.0, 255.0));
      }
    }
    const std::string number = absl::StrFormat("%04d", slice + 1);
    ASSIGN_OR_RETURN(std::string png,
                     (EncodePng(PngImage{width, height, PngColor::kGray, pixels})));
    RETURN_IF_ERROR(WriteStringToFile(
        scans / absl::StrCat("slice_", number, "_", width, "_", height, "_1.50_1.50.png"), png));
    for (int organ = 0; organ < 3; ++organ) {
      ASSIGN_OR_RETURN(std::string rle,
                       EncodeRle(masks[organ], height, width, PixelOrder::kRowMajor));
      csv.String(absl::StrCat(day_id, "_slice_", number)).String(kOrgans[organ].name);
      if (rle.empty()) {
        csv.Missing();
      } else {
        csv.String(rle);
      }
      csv.EndRow();
    }
  }
  return absl::OkStatus();
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng layout = root.Fork(0);
  // Distinct case numbers, in Kaggle's unsorted file order.
  std::vector<int64_t> case_numbers;
  std::set<int64_t> used_cases;
  while (static_cast<int>(case_numbers.size()) < kNumCases) {
    const int64_t number = layout.UniformInt(int64_t{2}, int64_t{156});
    if (used_cases.insert(number).second) case_numbers.push_back(number);
  }
  CsvTextBuilder csv;
  csv.Row({"id", "class", "segmentation"});
  for (int c = 0; c < kNumCases; ++c) {
    const std::string case_id = absl::StrCat("case", case_numbers[c]);
    SyntheticRng rng = root.Fork(1 + c);
    // Most cases are square; some are wider than tall, as Kaggle's 360 x 310.
    const int width = rng.Bernoulli(0.3) ? 40 : 32;
    const int height = 32;
    const int num_days = c == 0 ? 6 : static_cast<int>(rng.UniformInt(int64_t{1}, int64_t{3}));
    std::set<int64_t> days;
    while (static_cast<int>(days.size()) < num_days)
      days.insert(rng.UniformInt(int64_t{0}, int64_t{40}));
    // Days in numeric order (prepare.py sorts them by number, not as text).
    for (int64_t day : days) {
      const std::string day_id = absl::StrCat(case_id, "_day", day);
      RETURN_IF_ERROR(
          WriteDay(rng, raw_dir / "train" / case_id / day_id, day_id, width, height, csv));
    }
  }
  return WriteStringToFile(raw_dir / "train.csv", csv.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
