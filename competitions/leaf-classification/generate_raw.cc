// Synthetic raw download of leaf-classification: train.csv.zip holding
// train.csv (id, species, margin1-64, shape1-64, texture1-64), test.csv.zip
// holding test.csv (the same without species), sample_submission.csv.zip
// holding sample_submission.csv (id and 1/99 for each of the 99 species) and
// images.zip holding images/<id>.jpg for every leaf, labelled or not. As on
// Kaggle, ids 1..N are dealt at random between train and test (each file
// sorted by id), every species has the same number of leaves, margin and
// texture are 64-bin histograms (multiples of 1/1024, six decimals, "0" for
// an empty bin) and shape is a smooth 64-point profile of the outline's
// distance from the centre. Images are white leaf silhouettes on black,
// of varying size. Each species has its own margin and texture histograms
// and outline harmonics (the same harmonics draw the image and the shape
// profile), and leaves vary around them, so a linear model on the features
// tells most species apart.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "competitions/leaf-classification/classes.h"
#include "formats/zip_archive.h"
#include "synthetic/csv_text.h"
#include "synthetic/jpeg_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

using leaf_classification::Classes;

constexpr int kTrainPerSpecies = 6;
constexpr int kTestPerSpecies = 4;
constexpr int kBins = 64;
constexpr int kHarmonics = 6;
constexpr int kJpegQuality = 90;

struct Species {
  std::vector<double> margin, texture;   // histogram prototypes, summing to 1
  std::vector<double> amplitude, phase;  // outline harmonics 1..kHarmonics
  double elongation;                     // height / width of the outline
};

// Log-normal bin weights, normalised: `spread` makes them sparser.
std::vector<double> Histogram(SyntheticRng& rng, double spread) {
  std::vector<double> weights(kBins);
  double total = 0;
  for (double& w : weights) total += w = std::exp(rng.Normal(0, spread));
  for (double& w : weights) w /= total;
  return weights;
}

Species MakeSpecies(SyntheticRng& rng) {
  Species s;
  s.margin = Histogram(rng, 1.0);
  s.texture = Histogram(rng, 1.6);
  for (int k = 1; k <= kHarmonics; ++k) {
    // Lower harmonics (overall shape) stronger than higher ones (lobes, teeth).
    s.amplitude.push_back(rng.Uniform(0.0, 0.28) / std::sqrt(k));
    s.phase.push_back(rng.Uniform(0, 2 * std::numbers::pi));
  }
  s.elongation = rng.Uniform(1.0, 2.2);
  return s;
}

struct Leaf {
  int64_t id;
  int species;
  std::vector<double> margin, shape, texture;
  std::vector<double> amplitude, phase;
  double elongation, size, rotation;
};

// One leaf's histogram: the prototype with multiplicative noise, counted
// out of 1024 like Kaggle's features.
std::vector<double> NoisyHistogram(SyntheticRng& rng, const std::vector<double>& prototype) {
  std::vector<double> weights(kBins);
  double total = 0;
  for (int b = 0; b < kBins; ++b) total += weights[b] = prototype[b] * std::exp(rng.Normal(0, 0.3));
  for (double& w : weights) w = std::round(w / total * 1024) / 1024;
  return weights;
}

// The outline's distance from the centre at angle `theta`, before scaling.
double Radius(const Leaf& leaf, double theta) {
  double r = 1.0;
  for (int k = 0; k < kHarmonics; ++k) {
    r += leaf.amplitude[k] * std::cos((k + 1) * theta + leaf.phase[k]);
  }
  return std::max(r, 0.15);
}

Leaf MakeLeaf(SyntheticRng& rng, int64_t id, int species_index, const Species& species) {
  Leaf leaf{id, species_index};
  leaf.margin = NoisyHistogram(rng, species.margin);
  leaf.texture = NoisyHistogram(rng, species.texture);
  for (int k = 0; k < kHarmonics; ++k) {
    leaf.amplitude.push_back(species.amplitude[k] * std::exp(rng.Normal(0, 0.15)));
    leaf.phase.push_back(species.phase[k] + rng.Normal(0, 0.1));
  }
  leaf.elongation = species.elongation * std::exp(rng.Normal(0, 0.05));
  leaf.size = rng.Uniform(11, 26);
  leaf.rotation = rng.Normal(0, 0.15);
  // The centroid-distance profile, normalised like Kaggle's (values near
  // 1/1600), with measurement noise.
  for (int i = 0; i < kBins; ++i) {
    const double r = Radius(leaf, 2 * std::numbers::pi * i / kBins);
    leaf.shape.push_back(r * 0.0006 * std::exp(rng.Normal(0, 0.02)));
  }
  return leaf;
}

// A white silhouette on black: the outline stretched by the elongation and
// rotated a little, in a box that fits it with a margin.
absl::StatusOr<std::string> DrawLeaf(const Leaf& leaf) {
  // The outline sampled at many angles (cheaper than the harmonics per pixel).
  constexpr int kAngles = 1024;
  std::vector<double> outline(kAngles);
  double r_min = 1e9, r_max = 0;
  for (int i = 0; i < kAngles; ++i) {
    outline[i] = Radius(leaf, 2 * std::numbers::pi * i / kAngles);
    r_min = std::min(r_min, outline[i]);
    r_max = std::max(r_max, outline[i]);
  }
  const double half_width = leaf.size * 1.6, half_height = leaf.size * 1.6 * leaf.elongation;
  const int width = static_cast<int>(std::ceil(2 * half_width)) + 4;
  const int height = static_cast<int>(std::ceil(2 * half_height)) + 4;
  RgbImage image{width, height, std::vector<uint8_t>(static_cast<size_t>(width) * height * 3, 0)};
  const double c = std::cos(leaf.rotation), s = std::sin(leaf.rotation);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const double dx = x - width / 2.0, dy = y - height / 2.0;
      const double u = (c * dx + s * dy) / leaf.size;
      const double v = (-s * dx + c * dy) / (leaf.size * leaf.elongation);
      const double d2 = u * u + v * v;
      if (d2 > r_max * r_max) continue;
      bool inside = d2 <= r_min * r_min;
      if (!inside) {
        const double angle = std::atan2(v, u);  // (-pi, pi]
        const int i =
            static_cast<int>(std::lround((angle < 0 ? angle + 2 * std::numbers::pi : angle) /
                                         (2 * std::numbers::pi) * kAngles)) %
            kAngles;
        inside = d2 <= outline[i] * outline[i];
      }
      if (inside) {
        uint8_t* p = &image.pixels[(static_cast<size_t>(y) * width + x) * 3];
        p[0] = p[1] = p[2] = 255;
      }
    }
  }
  return EncodeJpeg(image, kJpegQuality);
}

// Kaggle's spelling of a histogram bin.
std::string BinText(double v) { return v == 0.0 ? "0" : absl::StrFormat("%.6f", v); }

// Kaggle's spelling of a shape value: eight decimals, trailing zeros dropped.
std::string ShapeText(double v) {
  std::string text = absl::StrFormat("%.8f", v);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

std::vector<std::string> FeatureNames() {
  std::vector<std::string> names;
  for (const char* group : {"margin", "shape", "texture"}) {
    for (int i = 1; i <= kBins; ++i) names.push_back(absl::StrCat(group, i));
  }
  return names;
}

void AppendFeatures(CsvTextBuilder& csv, const Leaf& leaf) {
  for (double v : leaf.margin) csv.String(BinText(v));
  for (double v : leaf.shape) csv.String(ShapeText(v));
  for (double v : leaf.texture) csv.String(BinText(v));
}

void Header(CsvTextBuilder& csv, std::vector<std::string> first) {
  for (const std::string& name : first) csv.String(name);
  for (const std::string& name : FeatureNames()) csv.String(name);
  csv.EndRow();
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng species_rng = root.Fork(1), deal_rng = root.Fork(2), leaf_rng = root.Fork(3);
  const int num_species = static_cast<int>(Classes().size());
  std::vector<Species> species;
  for (int i = 0; i < num_species; ++i) species.push_back(MakeSpecies(species_rng));

  // Deal ids 1..N: species labels in random order, the first block to train.
  const int per_species = kTrainPerSpecies + kTestPerSpecies;
  const int num_train = num_species * kTrainPerSpecies;
  std::vector<int> train_labels, test_labels;
  for (int i = 0; i < num_species; ++i) {
    for (int j = 0; j < kTrainPerSpecies; ++j) train_labels.push_back(i);
    for (int j = 0; j < kTestPerSpecies; ++j) test_labels.push_back(i);
  }
  std::vector<int64_t> ids(num_species * per_species);
  for (size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int64_t>(i) + 1;
  deal_rng.Shuffle(ids);
  deal_rng.Shuffle(train_labels);
  deal_rng.Shuffle(test_labels);
  std::vector<int> label_of_id(ids.size() + 1);
  std::vector<bool> is_train(ids.size() + 1, false);
  for (size_t i = 0; i < ids.size(); ++i) {
    const bool train = static_cast<int>(i) < num_train;
    is_train[ids[i]] = train;
    label_of_id[ids[i]] = train ? train_labels[i] : test_labels[i - num_train];
  }

  CsvTextBuilder train, test, sample;
  Header(train, {"id", "species"});
  Header(test, {"id"});
  sample.String("id");
  for (const std::string& name : Classes()) sample.String(name);
  sample.EndRow();
  std::vector<ZipEntry> images = {ZipEntry::Directory("images/")};
  for (int64_t id = 1; id <= static_cast<int64_t>(ids.size()); ++id) {
    const int label = label_of_id[id];
    const Leaf leaf = MakeLeaf(leaf_rng, id, label, species[label]);
    if (is_train[id]) {
      train.Int(id).String(Classes()[label]);
      AppendFeatures(train, leaf);
      train.EndRow();
    } else {
      test.Int(id);
      AppendFeatures(test, leaf);
      test.EndRow();
      sample.Int(id);
      for (int i = 0; i < num_species; ++i) sample.Float(1.0 / num_species);
      sample.EndRow();
    }
    ASSIGN_OR_RETURN(std::string jpeg, DrawLeaf(leaf));
    images.push_back(ZipEntry::FromBytes(absl::StrCat("images/", id, ".jpg"), std::move(jpeg)));
  }

  for (const auto& [name, text] :
       {std::pair{"train.csv", &train.text()}, std::pair{"test.csv", &test.text()},
        std::pair{"sample_submission.csv", &sample.text()}}) {
    RETURN_IF_ERROR(
        WriteZip(raw_dir / absl::StrCat(name, ".zip"), {ZipEntry::FromBytes(name, *text)}));
  }
  return WriteZip(raw_dir / "images.zip", images);
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
