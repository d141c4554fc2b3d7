// Synthetic raw download of dogs-vs-cats-redux-kernels-edition, in Kaggle's
// layout: train.zip holding train/cat.<n>.jpg and train/dog.<n>.jpg (the
// label is in the name), test.zip holding test/<n>.jpg (n = 1, 2, ...,
// unlabelled) and sample_submission.csv (id = n, label = 0.5). The sizes
// of the sets vary with the seed. Images are 32x32 RGB JPEGs of an animal on
// a background: cats are upright ellipses with two pointed ears and mostly
// grey or orange fur; dogs are wide ellipses with floppy ears and mostly
// brown or black fur. Colours overlap between the classes; shape and colour
// together separate them well but not perfectly.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
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
constexpr int kJpegQuality = 85;

using Rgb = std::array<double, 3>;

Rgb FurColor(SyntheticRng& rng, bool dog) {
  // Cats: grey, orange; dogs: brown, black; a few of the other class's.
  static const std::array<Rgb, 4> kFur = {Rgb{150, 150, 155}, Rgb{215, 140, 60},
                                          Rgb{130, 85, 45}, Rgb{45, 40, 40}};
  size_t kind = rng.UniformInt(uint64_t{2}) + (dog ? 2 : 0);
  if (rng.Bernoulli(0.2)) kind = rng.UniformInt(uint64_t{4});
  Rgb fur = kFur[kind];
  for (double& c : fur) c = std::clamp(c + rng.Normal(0, 18), 0.0, 255.0);
  return fur;
}

RgbImage DrawAnimal(SyntheticRng& rng, bool dog) {
  Rgb background;
  for (double& c : background) c = rng.Uniform(60, 230);
  const Rgb fur = FurColor(rng, dog);
  const double cx = rng.Uniform(13, 19), cy = rng.Uniform(14, 20);
  // Body: wide for dogs, tall for cats, with some overlap.
  const double rx = dog ? rng.Uniform(8, 12) : rng.Uniform(5.5, 8.5);
  const double ry = dog ? rng.Uniform(5.5, 8.5) : rng.Uniform(8, 11);
  RgbImage image{kSize, kSize, std::vector<uint8_t>(kSize * kSize * 3)};
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x) {
      const double ex = (x - cx) / rx, ey = (y - cy) / ry;
      bool on_animal = ex * ex + ey * ey <= 1.0;
      const double top = cy - ry;
      if (!dog) {
        // Two pointed ears above the body: triangles narrowing upwards.
        for (double side : {-1.0, 1.0}) {
          const double ear_x = cx + side * rx * 0.6, height = top - y;
          if (height >= -1 && height <= 5 && std::fabs(x - ear_x) <= (5 - height) * 0.45) {
            on_animal = true;
          }
        }
      } else {
        // Floppy ears hanging at the sides of the body's upper half.
        for (double side : {-1.0, 1.0}) {
          const double ear_x = cx + side * (rx + 1.0);
          if (std::fabs(x - ear_x) <= 1.6 && y >= top + 1 && y <= cy + 1) on_animal = true;
        }
      }
      const Rgb& color = on_animal ? fur : background;
      for (int c = 0; c < 3; ++c) {
        const double noise = 16.0 * (rng.Uniform() + rng.Uniform() - 1.0);
        image.pixels[(y * kSize + x) * 3 + c] =
            static_cast<uint8_t>(std::clamp(std::round(color[c] + noise), 0.0, 255.0));
      }
    }
  }
  return image;
}

absl::StatusOr<std::string> Jpeg(SyntheticRng& rng, bool dog) {
  return EncodeJpeg(DrawAnimal(rng, dog), kJpegQuality);
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng size_rng = root.Fork(1), train_rng = root.Fork(2), test_rng = root.Fork(3);
  const int64_t num_cats = size_rng.UniformInt(int64_t{240}, int64_t{260});
  const int64_t num_dogs = size_rng.UniformInt(int64_t{240}, int64_t{260});
  const int64_t num_test = size_rng.UniformInt(int64_t{90}, int64_t{110});

  // Kaggle's archive lists cats, then dogs, each by number.
  std::vector<ZipEntry> train = {ZipEntry::Directory("train/")};
  for (const auto& [animal, count] : {std::pair{"cat", num_cats}, std::pair{"dog", num_dogs}}) {
    for (int64_t n = 0; n < count; ++n) {
      ASSIGN_OR_RETURN(std::string jpeg, Jpeg(train_rng, std::string_view(animal) == "dog"));
      train.push_back(
          ZipEntry::FromBytes(absl::StrCat("train/", animal, ".", n, ".jpg"), std::move(jpeg)));
    }
  }
  std::vector<ZipEntry> test = {ZipEntry::Directory("test/")};
  CsvTextBuilder sample;
  sample.Row({"id", "label"});
  for (int64_t id = 1; id <= num_test; ++id) {
    ASSIGN_OR_RETURN(std::string jpeg, Jpeg(test_rng, test_rng.Bernoulli(0.5)));
    test.push_back(ZipEntry::FromBytes(absl::StrCat("test/", id, ".jpg"), std::move(jpeg)));
    sample.Int(id).Float(0.5).EndRow();
  }

  RETURN_IF_ERROR(WriteZip(raw_dir / "train.zip", train));
  RETURN_IF_ERROR(WriteZip(raw_dir / "test.zip", test));
  return WriteStringToFile(raw_dir / "sample_submission.csv", sample.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
