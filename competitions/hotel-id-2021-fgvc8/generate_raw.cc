// Synthetic raw download of hotel-id-2021-fgvc8 as upstream's prepare.py
// reads it: train.csv (image = "<16 hex digits>.jpg", chain and hotel_id
// integers, timestamp "YYYY-MM-DD HH:MM:SS") and train_images/<chain>/<image>.
// 40 hotels in 8 chains, 6 to 10 photos each. Every hotel has its own wall
// colour and a darker band (a bed or a counter) at its own height, so the
// mean colour of a photo, plus the band, identifies the hotel well but not
// perfectly (lighting varies). Kaggle's file lists ce27d36c9147cc19.jpg
// twice, which upstream drops; so do these rows.

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
#include "synthetic/csv_text.h"
#include "synthetic/jpeg_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kWidth = 32;
constexpr int kHeight = 24;
constexpr int kNumChains = 8;
constexpr int kNumHotels = 40;
constexpr char kRepeatedImage[] = "ce27d36c9147cc19.jpg";

struct Hotel {
  int64_t id;
  int64_t chain;
  double wall[3];
  double band[3];
  int band_top;
};

RgbImage DrawPhoto(SyntheticRng& rng, const Hotel& hotel) {
  const double light = rng.Uniform(0.8, 1.2);
  const int top = hotel.band_top + static_cast<int>(rng.UniformInt(-2, 2));
  RgbImage image{kWidth, kHeight, std::vector<uint8_t>(kWidth * kHeight * 3)};
  for (int y = 0; y < kHeight; ++y) {
    const bool in_band = y >= top && y < top + 6;
    for (int x = 0; x < kWidth; ++x) {
      for (int c = 0; c < 3; ++c) {
        const double base = in_band ? hotel.band[c] : hotel.wall[c];
        const double value = base * light + 10.0 * (rng.Uniform() + rng.Uniform() - 1.0);
        image.pixels[(y * kWidth + x) * 3 + c] =
            static_cast<uint8_t>(std::clamp(std::round(value), 0.0, 255.0));
      }
    }
  }
  return image;
}

std::string Timestamp(SyntheticRng& rng) {
  return absl::StrFormat("%04d-%02d-%02d %02d:%02d:%02d", static_cast<int>(rng.UniformInt(2015, 2020)),
                         static_cast<int>(rng.UniformInt(1, 12)), static_cast<int>(rng.UniformInt(1, 28)),
                         static_cast<int>(rng.UniformInt(0, 23)), static_cast<int>(rng.UniformInt(0, 59)),
                         static_cast<int>(rng.UniformInt(0, 59)));
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<Hotel> hotels;
  std::set<int64_t> hotel_ids;
  while (static_cast<int>(hotels.size()) < kNumHotels) {
    Hotel hotel;
    hotel.id = rng.UniformInt(int64_t{1}, int64_t{99999});
    if (!hotel_ids.insert(hotel.id).second) continue;
    hotel.chain = static_cast<int64_t>(hotels.size()) % kNumChains;
    for (int c = 0; c < 3; ++c) {
      hotel.wall[c] = rng.Uniform(90, 230);
      hotel.band[c] = hotel.wall[c] * rng.Uniform(0.3, 0.7);
    }
    hotel.band_top = static_cast<int>(rng.UniformInt(2, kHeight - 8));
    hotels.push_back(hotel);
  }

  CsvTextBuilder csv;
  csv.Row({"image", "chain", "hotel_id", "timestamp"});
  std::set<std::string> names = {kRepeatedImage};
  const fs::path images_dir = raw_dir / "train_images";
  auto add_photo = [&](const Hotel& hotel, const std::string& name) -> absl::Status {
    const fs::path chain_dir = images_dir / absl::StrCat(hotel.chain);
    std::error_code error;
    fs::create_directories(chain_dir, error);
    if (error) return absl::InternalError(absl::StrCat("cannot create ", chain_dir.string()));
    ASSIGN_OR_RETURN(std::string jpeg, EncodeJpeg(DrawPhoto(rng, hotel), 85));
    RETURN_IF_ERROR(WriteStringToFile(chain_dir / name, jpeg));
    csv.String(name).Int(hotel.chain).Int(hotel.id).String(Timestamp(rng)).EndRow();
    return absl::OkStatus();
  };
  for (const Hotel& hotel : hotels) {
    const int photos = static_cast<int>(rng.UniformInt(6, 10));
    for (int i = 0; i < photos; ++i) {
      std::string name;
      do name = rng.Hex(16) + ".jpg"; while (!names.insert(name).second);
      RETURN_IF_ERROR(add_photo(hotel, name));
    }
  }
  // The repeated row, twice, for two photos of one hotel (the second
  // overwrites the first file, as one file name can hold one photo).
  for (int i = 0; i < 2; ++i) {
    RETURN_IF_ERROR(add_photo(hotels[3], kRepeatedImage));
  }
  return WriteStringToFile(raw_dir / "train.csv", csv.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
