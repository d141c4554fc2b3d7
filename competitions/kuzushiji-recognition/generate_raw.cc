// Synthetic raw data for kuzushiji-recognition, in the Kaggle layout that
// upstream's prepare.py reads:
//   train.csv               image_id,labels ("U+XXXX X Y W H ..." per page)
//   train_images.zip        "<image_id>.jpg" at the archive root
//   unicode_translation.csv Unicode,char
// Each page is a light 64x64 JPEG with dark rectangles at its characters'
// boxes; a character's code point fixes its rectangle's shape, so finding the
// dark blobs and reading their sizes recovers labels and centres.
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
#include "synthetic/jpeg_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

struct Glyph {
  const char* code;
  const char* text;  // UTF-8
  int width, height;
};
constexpr Glyph kGlyphs[] = {
    {"U+306F", "\xe3\x81\xaf", 6, 6},
    {"U+304C", "\xe3\x81\x8c", 11, 11},
    {"U+3044", "\xe3\x81\x84", 5, 13},
    {"U+306B", "\xe3\x81\xab", 13, 5},
};
constexpr int kSize = 64;
constexpr int kPages = 80;

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  std::string train = "image_id,labels\n";
  std::vector<ZipEntry> images;
  for (int page = 0; page < kPages; ++page) {
    // Kaggle's two id styles: "<book>_<page>_<side>" and "<book>-<page>".
    const std::string id =
        page % 3 == 0 ? absl::StrFormat("umgy%03d-%03d", 1 + page / 20, page)
                      : absl::StrFormat("%d_%05d_%d", 100241706 + 17 * (page / 10), page, 1 + page % 2);
    RgbImage image{kSize, kSize, std::vector<uint8_t>(kSize * kSize * 3, 0)};
    for (uint8_t& v : image.pixels) v = static_cast<uint8_t>(225 + rng.UniformInt(20));
    // Up to four characters, one per quadrant, so blobs never touch.
    std::vector<std::string> labels;
    for (int quadrant = 0; quadrant < 4; ++quadrant) {
      if (quadrant > 0 && rng.Bernoulli(0.35)) continue;
      const Glyph& glyph = kGlyphs[rng.UniformInt(std::size(kGlyphs))];
      const int x = (quadrant % 2) * 32 + 2 + static_cast<int>(rng.UniformInt(static_cast<uint64_t>(28 - glyph.width)));
      const int y = (quadrant / 2) * 32 + 2 + static_cast<int>(rng.UniformInt(static_cast<uint64_t>(28 - glyph.height)));
      for (int r = y; r < y + glyph.height; ++r) {
        for (int c = x; c < x + glyph.width; ++c) {
          for (int k = 0; k < 3; ++k) image.pixels[(r * kSize + c) * 3 + k] = static_cast<uint8_t>(rng.UniformInt(40));
        }
      }
      labels.push_back(absl::StrFormat("%s %d %d %d %d", glyph.code, x, y, glyph.width, glyph.height));
    }
    std::string joined;
    for (const std::string& l : labels) absl::StrAppend(&joined, joined.empty() ? "" : " ", l);
    absl::StrAppend(&train, id, ",", joined, "\n");
    ASSIGN_OR_RETURN(std::string jpeg, EncodeJpeg(image, 90));
    images.push_back(ZipEntry::FromBytes(id + ".jpg", std::move(jpeg)));
  }
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train.csv", train));
  RETURN_IF_ERROR(WriteZip(raw_dir / "train_images.zip", images));
  std::string translation = "Unicode,char\n";
  for (const Glyph& glyph : kGlyphs) absl::StrAppend(&translation, glyph.code, ",", glyph.text, "\n");
  absl::StrAppend(&translation, "U+003F,?\nU+FF2F,\xef\xbc\xaf\n");
  return WriteStringToFile(raw_dir / "unicode_translation.csv", translation);
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
