// Synthetic raw download of google-research-identify-contrails-reduce-global-
// warming, in Kaggle's layout: train_metadata.json and validation_metadata.json
// (lists of records with a string "record_id" and projection fields), and per
// record train/<id>/ or validation/<id>/ holding band_08.npy .. band_16.npy
// (float32, height x width x time), human_pixel_masks.npy (int32,
// height x width x 1) and, for train records only, human_individual_masks.npy
// (int32, height x width x 1 x annotators). Images are 16 x 16 with 3 time
// steps (Kaggle: 256 x 256 with 8), the labelled frame being the middle one.
//
// Signal: each record may hold one straight contrail (a thin line); on the
// labelled frame its pixels are colder in band_15 than in band_14 by about 3
// kelvin, against noise of 0.5, so thresholding band_14 - band_15 clearly
// beats the sample submission's fixed runs.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "formats/npy.h"
#include "pycompat/python_json.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kSize = 16;
constexpr int kTimes = 3;
constexpr int kLabelledTime = 1;
constexpr int kAnnotators = 3;
constexpr int kNumTrain = 24;
constexpr int kNumValidation = 4;

void AppendInt32(std::string& data, int32_t value) {
  data.append(reinterpret_cast<const char*>(&value), sizeof value);
}

void AppendFloat(std::string& data, double value) {
  const float f = static_cast<float>(value);
  data.append(reinterpret_cast<const char*>(&f), sizeof f);
}

// One record: a contrail mask (row-major, or all zeros) and its files.
absl::Status WriteRecord(SyntheticRng& rng, const fs::path& dir, bool with_individual_masks) {
  std::vector<uint8_t> mask(kSize * kSize, 0);
  if (rng.Bernoulli(0.75)) {
    // A line through a random point at a random angle, one or two pixels wide.
    const double row0 = rng.Uniform(2, kSize - 2), col0 = rng.Uniform(2, kSize - 2);
    const double angle = rng.Uniform(0, M_PI);
    const double half_width = rng.Uniform(0.5, 1.0);
    for (int r = 0; r < kSize; ++r) {
      for (int c = 0; c < kSize; ++c) {
        const double distance =
            std::abs((r - row0) * std::cos(angle) - (c - col0) * std::sin(angle));
        if (distance < half_width) mask[r * kSize + c] = 1;
      }
    }
  }
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) return absl::InternalError(absl::StrCat("cannot create ", dir.string()));
  for (int band = 8; band <= 16; ++band) {
    NpyArray array{"<f4", false, {kSize, kSize, kTimes}, ""};
    const double base = 230 + 5 * band;
    for (int r = 0; r < kSize; ++r) {
      for (int c = 0; c < kSize; ++c) {
        for (int t = 0; t < kTimes; ++t) {
          double value = base + rng.Normal(0, 0.5);
          if (band == 15 && mask[r * kSize + c] && t == kLabelledTime) value -= 3.0;
          AppendFloat(array.data, value);
        }
      }
    }
    RETURN_IF_ERROR(WriteNpyFile(array, dir / absl::StrFormat("band_%02d.npy", band)));
  }
  NpyArray pixel_masks{"<i4", false, {kSize, kSize, 1}, ""};
  NpyArray individual{"<i4", false, {kSize, kSize, 1, kAnnotators}, ""};
  for (int i = 0; i < kSize * kSize; ++i) {
    AppendInt32(pixel_masks.data, mask[i]);
    for (int a = 0; a < kAnnotators; ++a) {
      // Annotators mostly agree with the aggregate.
      AppendInt32(individual.data, rng.Bernoulli(0.9) ? mask[i] : 0);
    }
  }
  RETURN_IF_ERROR(WriteNpyFile(pixel_masks, dir / "human_pixel_masks.npy"));
  if (with_individual_masks) {
    return WriteNpyFile(individual, dir / "human_individual_masks.npy");
  }
  return absl::OkStatus();
}

JsonValue Metadata(SyntheticRng& rng, const std::string& id) {
  JsonValue record = JsonValue::Object();
  record.Set("row_min", JsonValue::Float(rng.Uniform(-3e6, 3e6)));
  record.Set("row_size", JsonValue::Float(2000.0));
  record.Set("col_min", JsonValue::Float(rng.Uniform(-3e6, 3e6)));
  record.Set("col_size", JsonValue::Float(2000.0));
  record.Set("timestamp", JsonValue::Float(1.5e9 + std::floor(rng.Uniform(0, 1e8))));
  record.Set("record_id", JsonValue::String(id));
  record.Set("projection_wkt", JsonValue::String("PROJCS[\"synthetic\"]"));
  return record;
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  for (const auto& [split, count] :
       {std::pair<std::string, int>{"train", kNumTrain}, {"validation", kNumValidation}}) {
    JsonValue metadata = JsonValue::Array();
    for (int i = 0; i < count; ++i) {
      // Kaggle's ids are 19-digit decimal strings.
      const std::string id = absl::StrCat(rng.UniformInt(int64_t{1'000'000'000'000'000'000},
                                                         int64_t{8'999'999'999'999'999'999}));
      metadata.items.push_back(Metadata(rng, id));
      RETURN_IF_ERROR(WriteRecord(rng, raw_dir / split / id, split == "train"));
    }
    ASSIGN_OR_RETURN(std::string json, DumpJson(metadata));
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / (split + "_metadata.json"), json));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{
    .id = MLEBENCH_COMPETITION_ID,
    .generate = &Generate,
});

}  // namespace
}  // namespace mlebench
