// Synthetic raw download of ml2021spring-hw2, in Kaggle's layout:
// timit_11/timit_11/train_11.npy (float32 frames x 429 features: 11
// consecutive frames of 39 MFCC-like coefficients), train_label_11.npy (the
// phoneme class of each frame's centre, 0..38, stored as '<U2' text as on
// Kaggle) and test_11.npy (unlabelled frames). Kaggle's sample submission
// is not written: upstream's prepare.py does not read it.
//
// Each class has a prototype of 39 coefficients; a frame window holds the
// prototype scaled by the window position's closeness to the centre frame,
// plus unit Gaussian noise, so a nearest-centroid model does far better
// than always predicting class 0. Classes are unevenly frequent, as
// phonemes are.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "formats/npy.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kClasses = 39;
constexpr int kCoefficients = 39;
constexpr int kFrames = 11;
constexpr int kFeatures = kCoefficients * kFrames;  // 429
constexpr int kNumTrain = 500;
constexpr int kNumTest = 180;  // Kaggle's test fraction is about 0.268

void AppendFloat(std::string& data, double value) {
  const float f = static_cast<float>(value);
  data.append(reinterpret_cast<const char*>(&f), sizeof f);
}

// '<U2': two UCS-4 little-endian code units, NUL-padded.
void AppendLabel(std::string& data, int label) {
  const std::string text = std::to_string(label);
  for (size_t k = 0; k < 2; ++k) {
    data.push_back(k < text.size() ? text[k] : '\0');
    data.append(3, '\0');
  }
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<std::vector<double>> prototypes(kClasses, std::vector<double>(kCoefficients));
  for (auto& prototype : prototypes) {
    for (double& value : prototype) value = rng.Normal(0.0, 1.0);
  }
  std::vector<double> frequencies(kClasses);
  for (double& f : frequencies) f = rng.Uniform(0.3, 1.0);

  auto frames = [&](int rows, std::string* labels) {
    NpyArray features{"<f4", false, {rows, kFeatures}, ""};
    features.data.reserve(static_cast<size_t>(rows) * kFeatures * 4);
    for (int row = 0; row < rows; ++row) {
      const int label = static_cast<int>(rng.Categorical(frequencies));
      if (labels != nullptr) AppendLabel(*labels, label);
      for (int frame = 0; frame < kFrames; ++frame) {
        const double weight = std::exp(-std::abs(frame - kFrames / 2) / 2.0);
        for (int k = 0; k < kCoefficients; ++k) {
          AppendFloat(features.data, weight * prototypes[label][k] + rng.Normal(0.0, 1.0));
        }
      }
    }
    return features;
  };

  NpyArray labels{"<U2", false, {kNumTrain}, ""};
  const NpyArray train = frames(kNumTrain, &labels.data);
  const NpyArray test = frames(kNumTest, nullptr);

  const fs::path dir = raw_dir / "timit_11" / "timit_11";
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) return absl::InternalError("cannot create timit_11/timit_11");
  RETURN_IF_ERROR(WriteNpyFile(train, dir / "train_11.npy"));
  RETURN_IF_ERROR(WriteNpyFile(labels, dir / "train_label_11.npy"));
  return WriteNpyFile(test, dir / "test_11.npy");
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
