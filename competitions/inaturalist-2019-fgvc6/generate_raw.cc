// Synthetic raw download for inaturalist-2019-fgvc6, in Kaggle's layout:
//   train_val2019.tar.gz  train_val2019/<kingdom>/<category id>/<32 hex>.jpg,
//                         the train and val images
//   train2019.json        annotations (category_id, id, image_id),
//                         categories (class, family, genus, id, kingdom,
//                         name, order, phylum), images (file_name, height,
//                         id, license, rights_holder, width), info, licenses
//   val2019.json          the same for the val images (one per category)
//   test2019.tar.gz       test2019/<32 hex>.jpg, unlabelled
//   test2019.json         images, info, licenses
//   kaggle_sample_submission.csv  id, predicted
// 32x32 JPEGs whose colour depends on the category, so a nearest-centroid
// model learns them. Category sizes include 1, 2, 3, 4 and 5+ images to
// reach every branch of upstream's split.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "formats/tar_archive.h"
#include "pycompat/python_json.h"
#include "synthetic/jpeg_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kSize = 32;
constexpr int64_t kCategoryIds[] = {0, 3, 17, 120, 400, 401, 655, 900, 1008, 1009};
constexpr int kCategoryCounts[] = {14, 12, 1, 3, 4, 9, 11, 2, 16, 5};
constexpr const char* kKingdoms[] = {"Plants", "Insects", "Fungi", "Birds"};
constexpr int kTestImages = 6;

struct Colour {
  double r, g, b;
};

absl::StatusOr<std::string> Photo(SyntheticRng& rng, const Colour& colour) {
  RgbImage image{kSize, kSize, std::vector<uint8_t>(kSize * kSize * 3)};
  const double light = rng.Uniform(0.8, 1.2);
  for (int i = 0; i < kSize * kSize; ++i) {
    const double c[3] = {colour.r, colour.g, colour.b};
    for (int k = 0; k < 3; ++k) {
      const double v = c[k] * light + rng.Normal(0, 15);
      image.pixels[i * 3 + k] = static_cast<uint8_t>(std::clamp(v, 0.0, 255.0));
    }
  }
  return EncodeJpeg(image, 90);
}

JsonValue Info() {
  JsonValue info = JsonValue::Object();
  info.Set("contributor", JsonValue::String("Synthetic naturalists"));
  info.Set("date_created", JsonValue::String("2019-03-01 00:00:00"));
  info.Set("description", JsonValue::String("Synthetic iNaturalist 2019"));
  info.Set("url", JsonValue::String("https://example.org/inat"));
  info.Set("version", JsonValue::String("1.0"));
  info.Set("year", JsonValue::Int(2019));
  return info;
}

JsonValue Licenses() {
  JsonValue license = JsonValue::Object();
  license.Set("id", JsonValue::Int(0));
  license.Set("name", JsonValue::String("Attribution License"));
  license.Set("url", JsonValue::String("https://example.org/license"));
  return JsonValue::Array({license});
}

JsonValue Image(int64_t id, const std::string& file_name) {
  JsonValue image = JsonValue::Object();
  image.Set("file_name", JsonValue::String(file_name));
  image.Set("height", JsonValue::Int(kSize));
  image.Set("id", JsonValue::Int(id));
  image.Set("license", JsonValue::Int(0));
  image.Set("rights_holder", JsonValue::String("Nature Lover"));
  image.Set("width", JsonValue::Int(kSize));
  return image;
}

JsonValue Annotation(int64_t id, int64_t category) {
  JsonValue annotation = JsonValue::Object();
  annotation.Set("category_id", JsonValue::Int(category));
  annotation.Set("id", JsonValue::Int(id));
  annotation.Set("image_id", JsonValue::Int(id));
  return annotation;
}

absl::Status WriteJson(const fs::path& path, const JsonValue& value) {
  ASSIGN_OR_RETURN(std::string text, DumpJson(value));
  return WriteStringToFile(path, text);
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  const size_t num_categories = std::size(kCategoryIds);
  std::vector<Colour> colours;
  JsonValue categories = JsonValue::Array();
  for (size_t c = 0; c < num_categories; ++c) {
    colours.push_back({rng.Uniform(30, 230), rng.Uniform(30, 230), rng.Uniform(30, 230)});
    JsonValue category = JsonValue::Object();
    category.Set("class", JsonValue::String(absl::StrCat("Class", c % 3)));
    category.Set("family", JsonValue::String(absl::StrCat("Family", c % 5)));
    category.Set("genus", JsonValue::String(absl::StrCat("Genus", c)));
    category.Set("id", JsonValue::Int(kCategoryIds[c]));
    category.Set("kingdom", JsonValue::String(kKingdoms[c % std::size(kKingdoms)]));
    category.Set("name", JsonValue::String(absl::StrCat("Genus", c, " species", c)));
    category.Set("order", JsonValue::String(absl::StrCat("Order", c % 4)));
    category.Set("phylum", JsonValue::String(absl::StrCat("Phylum", c % 2)));
    categories.items.push_back(std::move(category));
  }

  // Train images in a shuffled order, then one val image per category.
  std::vector<size_t> labelled;
  for (size_t c = 0; c < num_categories; ++c) {
    for (int i = 0; i < kCategoryCounts[c]; ++i) labelled.push_back(c);
  }
  for (size_t i = labelled.size(); i > 1; --i) {
    std::swap(labelled[i - 1], labelled[rng.UniformInt(uint64_t{i})]);
  }
  std::vector<TarEntry> train_val_files;
  auto add_split = [&](const std::vector<size_t>& order, int64_t first_id,
                       const fs::path& json) -> absl::Status {
    JsonValue annotations = JsonValue::Array();
    JsonValue images = JsonValue::Array();
    int64_t id = first_id;
    for (size_t c : order) {
      const std::string file_name =
          absl::StrCat("train_val2019/", kKingdoms[c % std::size(kKingdoms)], "/",
                       kCategoryIds[c], "/", rng.Hex(32), ".jpg");
      ASSIGN_OR_RETURN(std::string jpeg, Photo(rng, colours[c]));
      train_val_files.push_back({file_name, std::move(jpeg), {}});
      annotations.items.push_back(Annotation(id, kCategoryIds[c]));
      images.items.push_back(Image(id, file_name));
      ++id;
    }
    JsonValue metadata = JsonValue::Object();
    metadata.Set("info", Info());
    metadata.Set("images", std::move(images));
    metadata.Set("licenses", Licenses());
    metadata.Set("annotations", std::move(annotations));
    metadata.Set("categories", categories);
    return WriteJson(json, metadata);
  };
  RETURN_IF_ERROR(add_split(labelled, 0, raw_dir / "train2019.json"));
  std::vector<size_t> val(num_categories);
  for (size_t c = 0; c < num_categories; ++c) val[c] = c;
  RETURN_IF_ERROR(add_split(val, static_cast<int64_t>(labelled.size()), raw_dir / "val2019.json"));
  std::sort(train_val_files.begin(), train_val_files.end(),
            [](const TarEntry& a, const TarEntry& b) { return a.name < b.name; });
  RETURN_IF_ERROR(WriteTarGz(raw_dir / "train_val2019.tar.gz", train_val_files));

  // Kaggle's unlabelled test set (upstream's prepare does not use it).
  std::vector<TarEntry> test_files;
  JsonValue test_images = JsonValue::Array();
  std::string sample = "id,predicted\n";
  for (int i = 0; i < kTestImages; ++i) {
    const size_t c = rng.UniformInt(uint64_t{num_categories});
    const std::string file_name = absl::StrCat("test2019/", rng.Hex(32), ".jpg");
    ASSIGN_OR_RETURN(std::string jpeg, Photo(rng, colours[c]));
    test_files.push_back({file_name, std::move(jpeg), {}});
    test_images.items.push_back(Image(i, file_name));
    absl::StrAppend(&sample, i, ",0 1 2 3 4\n");
  }
  RETURN_IF_ERROR(WriteTarGz(raw_dir / "test2019.tar.gz", test_files));
  JsonValue test = JsonValue::Object();
  test.Set("info", Info());
  test.Set("images", std::move(test_images));
  test.Set("licenses", Licenses());
  RETURN_IF_ERROR(WriteJson(raw_dir / "test2019.json", test));
  return WriteStringToFile(raw_dir / "kaggle_sample_submission.csv", sample);
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
