// Synthetic raw download for iwildcam-2019-fgvc6, in Kaggle's layout:
//   train.csv         category_id, date_captured, file_name, frame_num, id,
//                     location, rights_holder, seq_id, seq_num_frames,
//                     width, height (one row per labelled camera-trap frame)
//   train_images.zip  <id>.jpg for every train.csv row, flat
//   test.csv          the same columns without category_id
//   test_images.zip   <id>.jpg for every test.csv row
//   sample_submission.csv  Id, Predicted
// Frames come in sequences of three from 24 camera locations; the animal
// category sets the colour and size of a blob on a location-tinted
// background (category 0, "empty", has no blob), so it is learnable.

#include <algorithm>
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
#include "formats/zip_archive.h"
#include "synthetic/csv_text.h"
#include "synthetic/jpeg_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kSize = 32;
constexpr int kLocations = 24;
constexpr int kTrainSequences = 70;  // of 3 frames
constexpr int kTestSequences = 5;
// A few of Kaggle's category ids (0 is "empty").
constexpr int64_t kCategories[] = {0, 1, 10, 11, 13, 19};
constexpr double kCategoryWeights[] = {4, 2, 1, 1, 1, 2};

struct Rgb {
  double r, g, b;
};

std::string Uuid(SyntheticRng& rng) {
  return absl::StrCat(rng.Hex(8), "-", rng.Hex(4), "-11e8-", rng.Hex(4), "-", rng.Hex(12));
}

absl::StatusOr<std::string> Frame(SyntheticRng& rng, const Rgb& background, size_t category) {
  RgbImage image{kSize, kSize, std::vector<uint8_t>(kSize * kSize * 3)};
  // Category k > 0: a blob of a fixed colour and radius 4 + k.
  const Rgb blob = {60.0 + 35 * category, 230.0 - 30 * category, 40.0 + 40 * (category % 3)};
  const double radius = 4 + static_cast<double>(category);
  const double cx = rng.Uniform(12, 20), cy = rng.Uniform(12, 20);
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x) {
      const bool inside = category > 0 && (x - cx) * (x - cx) + (y - cy) * (y - cy) < radius * radius;
      const Rgb& c = inside ? blob : background;
      const double v[3] = {c.r, c.g, c.b};
      for (int k = 0; k < 3; ++k) {
        image.pixels[(y * kSize + x) * 3 + k] =
            static_cast<uint8_t>(std::clamp(v[k] + rng.Normal(0, 10), 0.0, 255.0));
      }
    }
  }
  return EncodeJpeg(image, 90);
}

struct Rows {
  CsvTextBuilder csv;
  std::vector<ZipEntry> images;
};

absl::Status AddSequences(SyntheticRng& rng, int count, bool labelled,
                          const std::vector<Rgb>& backgrounds, Rows& rows,
                          std::string* sample) {
  const std::vector<double> weights(std::begin(kCategoryWeights), std::end(kCategoryWeights));
  for (int s = 0; s < count; ++s) {
    const int location = static_cast<int>(rng.UniformInt(uint64_t{kLocations}));
    const size_t category = rng.Categorical(weights);
    const std::string seq_id = Uuid(rng);
    const std::string day = absl::StrFormat("2012-%02d-%02d %02d:%02d:", 1 + rng.UniformInt(uint64_t{12}),
                                            1 + rng.UniformInt(uint64_t{28}),
                                            rng.UniformInt(uint64_t{24}), rng.UniformInt(uint64_t{60}));
    for (int frame = 1; frame <= 3; ++frame) {
      const std::string id = Uuid(rng);
      ASSIGN_OR_RETURN(std::string jpeg, Frame(rng, backgrounds[location], category));
      rows.images.push_back(ZipEntry::FromBytes(id + ".jpg", jpeg));
      if (labelled) rows.csv.Int(kCategories[category]);
      rows.csv.String(absl::StrFormat("%s%02d", day, 10 * frame))
          .String(id + ".jpg")
          .Int(frame)
          .String(id)
          .Int(100 + 7 * location)
          .String(location % 2 == 0 ? "Justin Brown" : "Erin Boydston")
          .String(seq_id)
          .Int(3)
          .Int(1024)
          .Int(747)
          .EndRow();
      if (sample != nullptr) absl::StrAppend(sample, id, ",0\n");
    }
  }
  return absl::OkStatus();
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<Rgb> backgrounds;
  for (int i = 0; i < kLocations; ++i) {
    backgrounds.push_back({rng.Uniform(60, 140), rng.Uniform(60, 140), rng.Uniform(60, 140)});
  }
  Rows train, test;
  train.csv.Row({"category_id", "date_captured", "file_name", "frame_num", "id", "location",
                 "rights_holder", "seq_id", "seq_num_frames", "width", "height"});
  test.csv.Row({"date_captured", "file_name", "frame_num", "id", "location", "rights_holder",
                "seq_id", "seq_num_frames", "width", "height"});
  std::string sample = "Id,Predicted\n";
  RETURN_IF_ERROR(AddSequences(rng, kTrainSequences, true, backgrounds, train, nullptr));
  RETURN_IF_ERROR(AddSequences(rng, kTestSequences, false, backgrounds, test, &sample));
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train.csv", train.csv.text()));
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "test.csv", test.csv.text()));
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "sample_submission.csv", sample));
  RETURN_IF_ERROR(WriteZip(raw_dir / "train_images.zip", train.images));
  return WriteZip(raw_dir / "test_images.zip", test.images);
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
