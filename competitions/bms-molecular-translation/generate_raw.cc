// Synthetic raw download of bms-molecular-translation: train_labels.csv
// (image_id, InChI), extra_approved_InChIs.csv (InChI) and the images
// train/<c0>/<c1>/<c2>/<image_id>.png, where c0..c2 are the first three
// characters of the twelve-hex-digit id, as on Kaggle. Each image is a small
// black-on-white drawing of a straight carbon chain (a zigzag of atoms joined
// by bonds, placed at a random height, with speckle noise), and its label is
// the InChI of that chain's alkane (methane to decane), so counting the atoms
// in the drawing gives the label.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "synthetic/csv_text.h"
#include "synthetic/png_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kNumImages = 300;
constexpr int kMaxCarbons = 10;
constexpr int kWidth = 64;
constexpr int kHeight = 24;

// The standard InChI of the straight-chain alkane with `n` carbons. InChI
// numbers the two end carbons 1 and 2 and the inner ones from 3, so the chain
// reads 1-3-5-...-6-4-2.
std::string AlkaneInchi(int n) {
  if (n == 1) return "InChI=1S/CH4/h1H4";
  if (n == 2) return "InChI=1S/C2H6/c1-2/h1-2H3";
  std::vector<int> chain = {1};
  for (int i = 3; i <= n; i += 2) chain.push_back(i);
  for (int i = (n % 2 == 0 ? n : n - 1); i >= 4; i -= 2) chain.push_back(i);
  chain.push_back(2);
  const std::string inner = n == 3 ? "3" : absl::StrCat("3-", n);
  return absl::StrCat("InChI=1S/C", n, "H", 2 * n + 2, "/c", absl::StrJoin(chain, "-"), "/h", inner,
                      "H2,1-2H3");
}

// A zigzag of `n` atoms (3x3 dots) joined by one-pixel bonds.
PngImage DrawChain(SyntheticRng &rng, int n) {
  PngImage image;
  image.width = kWidth;
  image.height = kHeight;
  image.color = PngColor::kGray;
  image.pixels.assign(kWidth * kHeight, 255);
  auto dark = [&](int x, int y) {
    if (x >= 0 && x < kWidth && y >= 0 && y < kHeight) image.pixels[y * kWidth + x] = 0;
  };
  const int top = static_cast<int>(rng.UniformInt(int64_t{2}, 12));
  const int left = static_cast<int>(rng.UniformInt(int64_t{2}, 4));
  int prev_x = -1, prev_y = -1;
  for (int i = 0; i < n; ++i) {
    const int x = left + 6 * i;
    const int y = top + (i % 2 == 0 ? 0 : 6);
    for (int dx = 0; dx < 3; ++dx) {
      for (int dy = 0; dy < 3; ++dy) dark(x + dx, y + dy);
    }
    if (i > 0) {  // a bond between the dots' centres
      for (int s = 0; s <= 6; ++s) dark(prev_x + 1 + s, prev_y + 1 + (y - prev_y) * s / 6);
    }
    prev_x = x;
    prev_y = y;
  }
  for (int speck = static_cast<int>(rng.UniformInt(int64_t{0}, 4)); speck > 0; --speck) {
    dark(static_cast<int>(rng.UniformInt(uint64_t{kWidth})),
         static_cast<int>(rng.UniformInt(uint64_t{kHeight})));
  }
  return image;
}

absl::Status Generate(const fs::path &raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  CsvTextBuilder labels;
  labels.Row({"image_id", "InChI"});
  std::set<std::string> ids;
  for (int i = 0; i < kNumImages; ++i) {
    std::string id;
    do {
      id = rng.Hex(12);
    } while (!ids.insert(id).second);
    const int carbons = static_cast<int>(rng.UniformInt(int64_t{1}, kMaxCarbons));
    ASSIGN_OR_RETURN(std::string png, EncodePng(DrawChain(rng, carbons)));
    const fs::path dir = raw_dir / "train" / id.substr(0, 1) / id.substr(1, 1) / id.substr(2, 1);
    std::error_code error;
    fs::create_directories(dir, error);
    if (error) return absl::InternalError(absl::StrCat("cannot create ", dir.string()));
    RETURN_IF_ERROR(WriteStringToFile(dir / (id + ".png"), png));
    labels.String(id).String(AlkaneInchi(carbons)).EndRow();
  }
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train_labels.csv", labels.text()));
  // Kaggle's list of further valid InChI strings (no images).
  CsvTextBuilder extra;
  extra.Row({"InChI"});
  for (int n = 1; n <= 2 * kMaxCarbons; ++n) extra.String(AlkaneInchi(n)).EndRow();
  return WriteStringToFile(raw_dir / "extra_approved_InChIs.csv", extra.text());
}

}  // namespace

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace mlebench
