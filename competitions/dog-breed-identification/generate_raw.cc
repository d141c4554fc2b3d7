// Synthetic raw download of dog-breed-identification, as the extracted Kaggle
// archive that upstream's prepare.py reads: labels.csv (id = 32 hex digits,
// breed = one of the 120 breeds), train/<id>.jpg for every labelled dog,
// test/<id>.jpg (unlabelled) and sample_submission.csv (the test ids and a
// uniform 1/120 for each breed). Images are 32x32 RGB JPEGs: an elliptic
// "dog" on a background; each breed has its own coat and background colours
// (fixed for all seeds), varied per image by lighting and noise, so colour
// statistics identify the breed far better than chance.
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
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "competitions/dog-breed-identification/classes.h"
#include "synthetic/csv_text.h"
#include "synthetic/jpeg_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using dog_breed_identification::Breeds;

constexpr int kSize = 32;
constexpr int kMinPerBreed = 3;  // every breed appears at least this often in train
constexpr int kNumTrain = 600;
constexpr int kNumTest = 100;
constexpr int kJpegQuality = 85;

using Rgb = std::array<double, 3>;

// Coat and background colour of each breed, from a fixed stream so that the
// breeds look the same whatever the seed.
struct BreedLook {
  Rgb coat;
  Rgb background;
};
const std::vector<BreedLook>& Looks() {
  static const auto* looks = [] {
    auto* result = new std::vector<BreedLook>;
    SyntheticRng rng(0x0d09b2eed);
    for (size_t i = 0; i < Breeds().size(); ++i) {
      BreedLook look;
      for (double& c : look.coat) c = rng.Uniform(20, 235);
      for (double& c : look.background) c = rng.Uniform(20, 235);
      result->push_back(look);
    }
    return result;
  }();
  return *looks;
}

RgbImage DrawDog(SyntheticRng& rng, size_t breed) {
  const BreedLook& look = Looks()[breed];
  const double light = rng.Uniform(0.9, 1.1);
  const double cx = rng.Uniform(12, 20), cy = rng.Uniform(12, 20);
  const double rx = rng.Uniform(7, 11), ry = rng.Uniform(5, 9);
  RgbImage image{kSize, kSize, std::vector<uint8_t>(kSize * kSize * 3)};
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x) {
      const double ex = (x - cx) / rx, ey = (y - cy) / ry;
      const Rgb& color = ex * ex + ey * ey <= 1.0 ? look.coat : look.background;
      for (int c = 0; c < 3; ++c) {
        const double noise = 14.0 * (rng.Uniform() + rng.Uniform() - 1.0);
        image.pixels[(y * kSize + x) * 3 + c] =
            static_cast<uint8_t>(std::clamp(std::round(color[c] * light + noise), 0.0, 255.0));
      }
    }
  }
  return image;
}

// 32 hex digits that pandas keeps as text (not all digits, not a float
// literal such as "123e45").
std::string NewId(SyntheticRng& rng, std::set<std::string>& used) {
  while (true) {
    std::string id = rng.Hex(32);
    if (id.find_first_of("abcdf") == std::string::npos) continue;
    if (used.insert(id).second) return id;
  }
}

// Writes <dir>/<id>.jpg for each id, with the breed's image.
absl::Status WriteImages(SyntheticRng& rng, const fs::path& dir,
                         const std::vector<std::string>& ids, const std::vector<size_t>& breeds) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) return absl::InternalError(absl::StrCat("cannot create ", dir.string()));
  for (size_t i = 0; i < ids.size(); ++i) {
    ASSIGN_OR_RETURN(std::string jpeg, EncodeJpeg(DrawDog(rng, breeds[i]), kJpegQuality));
    RETURN_IF_ERROR(WriteStringToFile(dir / (ids[i] + ".jpg"), jpeg));
  }
  return absl::OkStatus();
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng label_rng = root.Fork(1), train_rng = root.Fork(2), test_rng = root.Fork(3);
  // The ids (file names) are the same for every seed, so that seeds differ
  // in content only.
  SyntheticRng id_rng(0x1d5);
  std::set<std::string> used;

  // Labels: every breed a few times, the rest at random; rows sorted by id
  // as in Kaggle's labels.csv.
  std::vector<size_t> breeds;
  for (int i = 0; i < kNumTrain; ++i) {
    breeds.push_back(i < kMinPerBreed * static_cast<int>(Breeds().size())
                         ? i % Breeds().size()
                         : label_rng.UniformInt(Breeds().size()));
  }
  std::vector<std::pair<std::string, size_t>> labelled;
  for (size_t breed : breeds) labelled.emplace_back(NewId(id_rng, used), breed);
  std::sort(labelled.begin(), labelled.end());
  std::vector<std::string> train_ids;
  breeds.clear();
  for (const auto& [id, breed] : labelled) {
    train_ids.push_back(id);
    breeds.push_back(breed);
  }
  std::vector<std::string> test_ids;
  std::vector<size_t> test_breeds;
  for (int i = 0; i < kNumTest; ++i) {
    test_ids.push_back(NewId(id_rng, used));
    test_breeds.push_back(label_rng.UniformInt(Breeds().size()));
  }
  std::sort(test_ids.begin(), test_ids.end());

  CsvTextBuilder labels, sample;
  labels.Row({"id", "breed"});
  for (size_t i = 0; i < train_ids.size(); ++i) {
    labels.String(train_ids[i]).String(Breeds()[breeds[i]]).EndRow();
  }
  sample.String("id");
  for (const std::string& breed : Breeds()) sample.String(breed);
  sample.EndRow();
  // Kaggle's sample lists the test ids sorted; ours lists them in a
  // seed-dependent order, so that this file too changes with the seed (ids
  // and values cannot: file names are fixed, and upstream never reads it).
  std::vector<std::string> sample_ids = test_ids;
  label_rng.Shuffle(sample_ids);
  for (const std::string& id : sample_ids) {
    sample.String(id);
    for (size_t b = 0; b < Breeds().size(); ++b) sample.Float(1.0 / Breeds().size());
    sample.EndRow();
  }

  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "labels.csv", labels.text()));
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "sample_submission.csv", sample.text()));
  RETURN_IF_ERROR(WriteImages(train_rng, raw_dir / "train", train_ids, breeds));
  return WriteImages(test_rng, raw_dir / "test", test_ids, test_breeds);
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
