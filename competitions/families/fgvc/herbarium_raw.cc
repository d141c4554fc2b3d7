#include "competitions/families/fgvc/herbarium_raw.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "pycompat/python_json.h"
#include "synthetic/jpeg_writer.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kSize = 32;
// Category ids (sparse, some above 100 to exercise the nested folders) and
// how many labelled images each has.
constexpr int64_t kCategoryIds[] = {0, 7, 42, 101, 250, 999, 1234, 3071, 15504, 23079};
constexpr int kCategoryCounts[] = {16, 14, 1, 18, 3, 15, 4, 5, 17, 13};
constexpr int kTestImages = 6;

struct Colour {
  double r, g, b;
};

absl::StatusOr<std::string> Specimen(SyntheticRng& rng, const Colour& colour, int stripes) {
  RgbImage image{kSize, kSize, std::vector<uint8_t>(kSize * kSize * 3)};
  const double shift = rng.Uniform(0, kSize);
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x) {
      const bool stripe = static_cast<int>((x + shift) * stripes / kSize) % 2 == 0;
      const double shade = stripe ? 0.65 : 1.0;
      const double c[3] = {colour.r * shade, colour.g * shade, colour.b * shade};
      for (int k = 0; k < 3; ++k) {
        const double v = c[k] + rng.Normal(0, 12);
        image.pixels[(y * kSize + x) * 3 + k] = static_cast<uint8_t>(std::clamp(v, 0.0, 255.0));
      }
    }
  }
  return EncodeJpeg(image, 90);
}

absl::Status WriteFile(const fs::path& path, const std::string& bytes) {
  std::error_code error;
  fs::create_directories(path.parent_path(), error);
  if (error) return absl::InternalError(absl::StrCat("cannot create ", path.string()));
  return WriteStringToFile(path, bytes);
}

JsonValue Info(int year) {
  JsonValue info = JsonValue::Object();
  info.Set("contributor", JsonValue::String("Synthetic Herbarium"));
  info.Set("date_created", JsonValue::String(absl::StrCat(year, "-01-01")));
  info.Set("description", JsonValue::String("Synthetic herbarium sheets"));
  info.Set("url", JsonValue::String("https://example.org/herbarium"));
  info.Set("version", JsonValue::String("1.0"));
  info.Set("year", JsonValue::Int(year));
  return info;
}

JsonValue Licenses() {
  JsonValue license = JsonValue::Object();
  license.Set("id", JsonValue::Int(0));
  license.Set("name", JsonValue::String("Public Domain Dedication"));
  license.Set("url", JsonValue::String("https://example.org/license"));
  return JsonValue::Array({license});
}

absl::StatusOr<std::string> Dump(const JsonValue& value, bool latin1) {
  absl::StatusOr<std::string> text = DumpJson(value);
  if (!text.ok()) return text;
  // Write the accented letters unescaped, as Kaggle's files do: as single
  // latin-1 bytes in 2020's file (not valid UTF-8; upstream decodes it as
  // latin-1), as UTF-8 in 2021's.
  if (latin1) return absl::StrReplaceAll(*text, {{"\\u00e9", "\xe9"}, {"\\u00eb", "\xeb"}});
  return absl::StrReplaceAll(*text, {{"\\u00e9", "\xc3\xa9"}, {"\\u00eb", "\xc3\xab"}});
}

}  // namespace

absl::Status WriteHerbariumRaw(const HerbariumRawLayout& layout, const fs::path& raw_dir,
                               uint64_t seed) {
  SyntheticRng rng(seed);
  const fs::path root = raw_dir / layout.data_dir;
  const int year = layout.latin1_names ? 2020 : 2021;

  // Per category: a colour and a stripe count.
  const size_t num_categories = std::size(kCategoryIds);
  std::vector<Colour> colours;
  std::vector<int> stripes;
  JsonValue categories = JsonValue::Array();
  for (size_t c = 0; c < num_categories; ++c) {
    colours.push_back({rng.Uniform(40, 230), rng.Uniform(40, 230), rng.Uniform(40, 230)});
    stripes.push_back(2 + static_cast<int>(rng.UniformInt(uint64_t{5})) * 2);
    JsonValue category = JsonValue::Object();
    category.Set("family", JsonValue::String(absl::StrCat("Famil\u00e9", c % 3, "aceae")));
    category.Set("genus", JsonValue::String(absl::StrCat("Genus", c)));
    category.Set("id", JsonValue::Int(kCategoryIds[c]));
    category.Set("name", JsonValue::String(absl::StrCat("Genus", c, " sp\u00ebcies ", rng.Hex(4))));
    if (layout.with_order) {
      category.Set("order", JsonValue::String(absl::StrCat("Order", c % 2)));
    }
    categories.items.push_back(std::move(category));
  }

  // The labelled images, listed in a shuffled order.
  struct Labelled {
    size_t category;
    int64_t id;
  };
  std::vector<Labelled> labelled;
  for (size_t c = 0; c < num_categories; ++c) {
    for (int i = 0; i < kCategoryCounts[c]; ++i) labelled.push_back({c, 0});
  }
  for (size_t i = labelled.size(); i > 1; --i) {
    std::swap(labelled[i - 1], labelled[rng.UniformInt(uint64_t{i})]);
  }
  int64_t next_id = 1000 + static_cast<int64_t>(rng.UniformInt(uint64_t{5000}));
  JsonValue annotations = JsonValue::Array();
  JsonValue images = JsonValue::Array();
  for (Labelled& item : labelled) {
    item.id = next_id;
    next_id += 1 + static_cast<int64_t>(rng.UniformInt(uint64_t{7}));
    const int64_t category = kCategoryIds[item.category];
    const std::string file_name =
        absl::StrFormat("images/%03d/%02d/%d.jpg", category / 100, category % 100, item.id);
    ASSIGN_OR_RETURN(std::string jpeg,
                     Specimen(rng, colours[item.category], stripes[item.category]));
    RETURN_IF_ERROR(WriteFile(root / "train" / file_name, jpeg));

    JsonValue annotation = JsonValue::Object();
    annotation.Set("category_id", JsonValue::Int(category));
    annotation.Set("id", JsonValue::Int(item.id));
    annotation.Set("image_id", JsonValue::Int(item.id));
    annotation.Set(layout.group_id_key, JsonValue::Int(static_cast<int64_t>(item.category % 3)));
    annotations.items.push_back(std::move(annotation));

    JsonValue image = JsonValue::Object();
    image.Set("file_name", JsonValue::String(file_name));
    image.Set("height", JsonValue::Int(kSize));
    image.Set("id", JsonValue::Int(item.id));
    image.Set("license", JsonValue::Int(0));
    image.Set("width", JsonValue::Int(kSize));
    images.items.push_back(std::move(image));
  }
  JsonValue groups = JsonValue::Array();
  for (int g = 0; g < 3; ++g) {
    JsonValue group = JsonValue::Object();
    group.Set("id", JsonValue::Int(g));
    group.Set("name", JsonValue::String(absl::StrCat("Herbarium ", g)));
    groups.items.push_back(std::move(group));
  }
  JsonValue train = JsonValue::Object();
  train.Set("annotations", std::move(annotations));
  train.Set("categories", std::move(categories));
  train.Set("images", std::move(images));
  train.Set("info", Info(year));
  train.Set("licenses", Licenses());
  train.Set(layout.group_key, std::move(groups));
  ASSIGN_OR_RETURN(std::string train_json, Dump(train, layout.latin1_names));
  RETURN_IF_ERROR(WriteFile(root / "train" / "metadata.json", train_json));

  // Kaggle's unlabelled test set (upstream's prepare does not use it).
  JsonValue test_images = JsonValue::Array();
  std::string sample = "Id,Predicted\n";
  for (int i = 0; i < kTestImages; ++i) {
    const size_t c = rng.UniformInt(uint64_t{num_categories});
    ASSIGN_OR_RETURN(std::string jpeg, Specimen(rng, colours[c], stripes[c]));
    const std::string file_name = absl::StrFormat("images/%03d/%d.jpg", i / 1000, i);
    RETURN_IF_ERROR(WriteFile(root / "test" / file_name, jpeg));
    JsonValue image = JsonValue::Object();
    image.Set("file_name", JsonValue::String(file_name));
    image.Set("height", JsonValue::Int(kSize));
    image.Set("id", JsonValue::Int(i));
    image.Set("license", JsonValue::Int(0));
    image.Set("width", JsonValue::Int(kSize));
    test_images.items.push_back(std::move(image));
    absl::StrAppend(&sample, i, ",0\n");
  }
  JsonValue test = JsonValue::Object();
  test.Set("images", std::move(test_images));
  test.Set("info", Info(year));
  test.Set("licenses", Licenses());
  ASSIGN_OR_RETURN(std::string test_json, Dump(test, layout.latin1_names));
  RETURN_IF_ERROR(WriteFile(root / "test" / "metadata.json", test_json));
  return WriteFile(raw_dir / "sample_submission.csv", sample);
}

absl::Status WriteHerbarium2022Raw(const fs::path& raw_dir, uint64_t seed) {
  // Category ids and sizes; the smallest categories have 2 images.
  constexpr int64_t kIds[] = {0, 7, 42, 101, 250, 999, 1234, 3071, 15504};
  constexpr int kCounts[] = {12, 10, 2, 14, 3, 11, 4, 5, 13};
  constexpr size_t kGenera = 4;
  SyntheticRng rng(seed);
  const size_t num_categories = std::size(kIds);
  std::vector<Colour> colours;
  std::vector<int> stripes;
  JsonValue categories = JsonValue::Array();
  for (size_t c = 0; c < num_categories; ++c) {
    colours.push_back({rng.Uniform(40, 230), rng.Uniform(40, 230), rng.Uniform(40, 230)});
    stripes.push_back(2 + static_cast<int>(rng.UniformInt(uint64_t{5})) * 2);
    JsonValue category = JsonValue::Object();
    category.Set("authors", JsonValue::String(absl::StrCat("Aut\u00e9ur ", c % 4)));
    category.Set("category_id", JsonValue::Int(kIds[c]));
    category.Set("family", JsonValue::String(absl::StrCat("Family", c % 3, "aceae")));
    category.Set("genus", JsonValue::String(absl::StrCat("Genus", c % kGenera)));
    category.Set("scientificName",
                 JsonValue::String(absl::StrCat("Genus", c % kGenera, " sp\u00ebcies", c)));
    category.Set("species", JsonValue::String(absl::StrCat("sp\u00ebcies", c)));
    categories.items.push_back(std::move(category));
  }
  JsonValue genera = JsonValue::Array();
  JsonValue distances = JsonValue::Array();
  for (size_t g = 0; g < kGenera; ++g) {
    JsonValue genus = JsonValue::Object();
    genus.Set("genus", JsonValue::String(absl::StrCat("Genus", g)));
    genus.Set("genus_id", JsonValue::Int(static_cast<int64_t>(g)));
    genera.items.push_back(std::move(genus));
    for (size_t h = g + 1; h < kGenera; ++h) {
      JsonValue distance = JsonValue::Object();
      distance.Set("distance", JsonValue::Float(rng.Uniform(0.1, 1.0)));
      distance.Set("genus_id_x", JsonValue::Int(static_cast<int64_t>(g)));
      distance.Set("genus_id_y", JsonValue::Int(static_cast<int64_t>(h)));
      distances.items.push_back(std::move(distance));
    }
  }
  JsonValue institutions = JsonValue::Array();
  for (int i = 0; i < 3; ++i) {
    JsonValue institution = JsonValue::Object();
    institution.Set("collectionCode", JsonValue::String(absl::StrCat("HERB", i)));
    institution.Set("institution_id", JsonValue::Int(i));
    institutions.items.push_back(std::move(institution));
  }

  // Kaggle lists the labelled images category by category.
  JsonValue annotations = JsonValue::Array();
  JsonValue images = JsonValue::Array();
  for (size_t c = 0; c < num_categories; ++c) {
    const int64_t category = kIds[c];
    for (int n = 1; n <= kCounts[c]; ++n) {
      const std::string image_id = absl::StrFormat("%05d__%03d", category, n);
      const std::string file_name =
          absl::StrFormat("%03d/%02d/%s.jpg", category / 100, category % 100, image_id);
      ASSIGN_OR_RETURN(std::string jpeg, Specimen(rng, colours[c], stripes[c]));
      RETURN_IF_ERROR(WriteFile(raw_dir / "train_images" / file_name, jpeg));
      JsonValue annotation = JsonValue::Object();
      annotation.Set("category_id", JsonValue::Int(category));
      annotation.Set("genus_id", JsonValue::Int(static_cast<int64_t>(c % kGenera)));
      annotation.Set("image_id", JsonValue::String(image_id));
      annotation.Set("institution_id", JsonValue::Int(static_cast<int64_t>(rng.UniformInt(3))));
      annotations.items.push_back(std::move(annotation));
      JsonValue image = JsonValue::Object();
      image.Set("file_name", JsonValue::String(file_name));
      image.Set("image_id", JsonValue::String(image_id));
      image.Set("license", JsonValue::Int(0));
      images.items.push_back(std::move(image));
    }
  }
  JsonValue train = JsonValue::Object();
  train.Set("annotations", std::move(annotations));
  train.Set("categories", std::move(categories));
  train.Set("distances", std::move(distances));
  train.Set("genera", std::move(genera));
  train.Set("images", std::move(images));
  train.Set("institutions", std::move(institutions));
  train.Set("licenses", Licenses());
  ASSIGN_OR_RETURN(std::string train_json, Dump(train, /*latin1=*/false));
  RETURN_IF_ERROR(WriteFile(raw_dir / "train_metadata.json", train_json));

  // Kaggle's unlabelled test set (upstream's prepare does not use it).
  JsonValue test_images = JsonValue::Array();
  std::string sample = "Id,Predicted\n";
  for (int i = 0; i < kTestImages; ++i) {
    const size_t c = rng.UniformInt(uint64_t{num_categories});
    ASSIGN_OR_RETURN(std::string jpeg, Specimen(rng, colours[c], stripes[c]));
    const std::string file_name = absl::StrFormat("%03d/test-%06d.jpg", i / 1000, i);
    RETURN_IF_ERROR(WriteFile(raw_dir / "test_images" / file_name, jpeg));
    JsonValue image = JsonValue::Object();
    image.Set("file_name", JsonValue::String(file_name));
    image.Set("image_id", JsonValue::String(absl::StrCat(i)));
    image.Set("license", JsonValue::Int(0));
    test_images.items.push_back(std::move(image));
    absl::StrAppend(&sample, i, ",42\n");
  }
  ASSIGN_OR_RETURN(std::string test_json, Dump(test_images, /*latin1=*/false));
  RETURN_IF_ERROR(WriteFile(raw_dir / "test_metadata.json", test_json));
  return WriteFile(raw_dir / "sample_submission.csv", sample);
}

}  // namespace mlebench
