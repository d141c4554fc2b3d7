// Synthetic raw download of ranzcr-clip-catheter-line-classification, in the
// Kaggle layout that upstream's prepare.py reads:
// - train.csv: StudyInstanceUID ("1.2.826.0.1.3680043.8.498." and a long
//   number), eleven 0/1 label columns in Kaggle's order, then PatientID
//   (nine hex digits; a patient may have several studies);
// - train_annotations.csv: StudyInstanceUID, label (one of the label
//   columns' names) and data (the drawn tube as a list of [x, y] points,
//   in Kaggle's "[[x, y], [x, y]]" text form) for some of the tubes drawn;
// - train/<StudyInstanceUID>.jpg.
// Kaggle's test/ and sample_submission.csv are never read upstream and are
// left out.
//
// Images are 32x32 greyscale "chest X-rays" (a dark field with two lighter
// lung fields and noise). Each tube is a bright line whose tip position
// encodes its status: an endotracheal tube (ETT) down the middle, a
// nasogastric tube (NGT) down the left, a central venous catheter (CVC)
// from the top right towards the middle, a Swan-Ganz catheter as a short
// line low on the right. Tips are jittered, so position features separate
// the statuses well but not perfectly. Every graded class is common enough
// (>= 10%) that a 10% test split of 600 rows holds positives of each.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
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
constexpr int kNumImages = 600;
constexpr int kNumPatients = 420;
constexpr int kJpegQuality = 85;

enum Label {
  kEttAbnormal, kEttBorderline, kEttNormal,
  kNgtAbnormal, kNgtBorderline, kNgtIncomplete, kNgtNormal,
  kCvcAbnormal, kCvcBorderline, kCvcNormal, kSwanGanz, kNumLabels
};
constexpr std::array<const char*, kNumLabels> kLabelNames = {
    "ETT - Abnormal", "ETT - Borderline", "ETT - Normal",
    "NGT - Abnormal", "NGT - Borderline", "NGT - Incompletely Imaged", "NGT - Normal",
    "CVC - Abnormal", "CVC - Borderline", "CVC - Normal", "Swan Ganz Catheter Present"};

using Point = std::pair<double, double>;  // (x, y) in pixels

class Film {
 public:
  explicit Film(SyntheticRng& rng) : pixels_(kSize * kSize) {
    const double base = rng.Uniform(25, 45), lung = rng.Uniform(25, 40);
    for (int y = 0; y < kSize; ++y) {
      for (int x = 0; x < kSize; ++x) {
        double v = base;
        for (double cx : {9.5, 22.5}) {
          const double ex = (x - cx) / 6.5, ey = (y - 17) / 12.0;
          if (ex * ex + ey * ey <= 1) v += lung;
        }
        pixels_[y * kSize + x] = v;
      }
    }
  }
  // A bright polyline through `points`, one pixel wide.
  void Line(const std::vector<Point>& points, double brightness) {
    for (size_t i = 1; i < points.size(); ++i) {
      const auto [x0, y0] = points[i - 1];
      const auto [x1, y1] = points[i];
      const int steps = static_cast<int>(std::ceil(std::max(std::abs(x1 - x0), std::abs(y1 - y0)) * 2)) + 1;
      for (int s = 0; s <= steps; ++s) {
        const double t = static_cast<double>(s) / steps;
        const int x = static_cast<int>(std::lround(x0 + t * (x1 - x0)));
        const int y = static_cast<int>(std::lround(y0 + t * (y1 - y0)));
        if (x < 0 || y < 0 || x >= kSize || y >= kSize) continue;
        pixels_[y * kSize + x] = std::max(pixels_[y * kSize + x], brightness);
      }
    }
  }
  RgbImage ToImage(SyntheticRng& rng, double noise) const {
    RgbImage image{kSize, kSize, std::vector<uint8_t>(pixels_.size() * 3)};
    for (size_t i = 0; i < pixels_.size(); ++i) {
      const double v = pixels_[i] + noise * (rng.Uniform() + rng.Uniform() - 1.0);
      const auto byte = static_cast<uint8_t>(std::clamp(std::round(v), 0.0, 255.0));
      for (int c = 0; c < 3; ++c) image.pixels[i * 3 + c] = byte;
    }
    return image;
  }

 private:
  std::vector<double> pixels_;
};

struct Tube {
  Label label;
  std::vector<Point> points;
};

// The tubes of one study: at most one ETT, NGT and CVC (each with one
// status) and possibly a Swan-Ganz catheter.
std::vector<Tube> DrawTubes(SyntheticRng& rng) {
  std::vector<Tube> tubes;
  auto jitter = [&rng](double v) { return v + rng.Normal(0, 0.8); };
  // ETT: none, Abnormal (tip low), Borderline (middle), Normal (high).
  const size_t ett = rng.Categorical({25, 20, 20, 35});
  if (ett > 0) {
    const Label label = static_cast<Label>(kEttAbnormal + ett - 1);
    const double tip = label == kEttAbnormal ? 20 : label == kEttBorderline ? 14 : 8;
    tubes.push_back({label, {{jitter(16), 0}, {jitter(16), jitter(tip)}}});
  }
  // NGT: none, Abnormal (curls back up), Borderline (stops mid-chest),
  // Incompletely Imaged (leaves the film at the side), Normal (to the bottom).
  const size_t ngt = rng.Categorical({20, 20, 20, 20, 20});
  if (ngt > 0) {
    const Label label = static_cast<Label>(kNgtAbnormal + ngt - 1);
    const double x = jitter(11);
    std::vector<Point> points = {{x, 0}};
    switch (label) {
      case kNgtAbnormal: points.insert(points.end(), {{x, jitter(18)}, {x - 5, jitter(12)}}); break;
      case kNgtBorderline: points.push_back({x, jitter(17)}); break;
      case kNgtIncomplete: points.insert(points.end(), {{x, jitter(20)}, {0, jitter(22)}}); break;
      default: points.push_back({x, 31}); break;
    }
    tubes.push_back({label, std::move(points)});
  }
  // CVC: none, Abnormal (tip far left), Borderline (short), Normal.
  const size_t cvc = rng.Categorical({15, 20, 25, 40});
  if (cvc > 0) {
    const Label label = static_cast<Label>(kCvcAbnormal + cvc - 1);
    const Point tip = label == kCvcAbnormal ? Point{7, 20} : label == kCvcBorderline ? Point{25, 8}
                                                                                     : Point{18, 13};
    tubes.push_back({label, {{31, jitter(3)}, {jitter(tip.first), jitter(tip.second)}}});
  }
  if (rng.Bernoulli(0.1)) tubes.push_back({kSwanGanz, {{31, jitter(26)}, {jitter(22), jitter(26)}}});
  return tubes;
}

std::string PointsText(const std::vector<Point>& points) {
  // Kaggle's annotations are in the original film's pixels (about 3000
  // wide); scale up so that they look like it.
  std::string text = "[";
  for (size_t i = 0; i < points.size(); ++i) {
    absl::StrAppend(&text, i == 0 ? "" : ", ", "[", std::lround(points[i].first * 90), ", ",
                    std::lround(points[i].second * 90), "]");
  }
  return text + "]";
}

std::string DecimalDigits(SyntheticRng& rng, int n) {
  std::string digits = absl::StrCat(rng.UniformInt(1, 9));
  while (static_cast<int>(digits.size()) < n) absl::StrAppend(&digits, rng.UniformInt(0, 9));
  return digits;
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  fs::create_directories(raw_dir / "train");
  std::vector<std::string> patients;
  for (int i = 0; i < kNumPatients; ++i) patients.push_back(rng.Hex(9));
  CsvTextBuilder train;
  train.String("StudyInstanceUID");
  for (const char* name : kLabelNames) train.String(name);
  train.String("PatientID").EndRow();
  CsvTextBuilder annotations;
  annotations.Row({"StudyInstanceUID", "label", "data"});
  for (int i = 0; i < kNumImages; ++i) {
    const std::string uid =
        absl::StrCat("1.2.826.0.1.3680043.8.498.", DecimalDigits(rng, rng.UniformInt(30, 38)));
    const std::vector<Tube> tubes = DrawTubes(rng);
    std::array<int, kNumLabels> labels{};
    Film film(rng);
    for (const Tube& tube : tubes) {
      labels[tube.label] = 1;
      film.Line(tube.points, rng.Uniform(150, 220));
      if (rng.Bernoulli(0.6)) {
        annotations.String(uid).String(kLabelNames[tube.label]).String(PointsText(tube.points));
        annotations.EndRow();
      }
    }
    train.String(uid);
    for (int label : labels) train.Int(label);
    train.String(rng.Choice(patients)).EndRow();
    ASSIGN_OR_RETURN(std::string jpeg, EncodeJpeg(film.ToImage(rng, 16.0), kJpegQuality));
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train" / (uid + ".jpg"), jpeg));
  }
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train.csv", train.text()));
  return WriteStringToFile(raw_dir / "train_annotations.csv", annotations.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
