// Synthetic raw download of cdiscount-image-classification-challenge:
// train.bson (one BSON document per product: `_id` int32, `imgs` an array of
// {`picture`: JPEG bytes}, `category_id` int32, in that order, as Kaggle's),
// train_example.bson (its first 100 products), test.bson (unlabelled
// products), category_names.csv (category_id and three levels of names) and
// sample_submission.csv (`_id`, the constant category 1000010653).
// Products of a category share a colour palette: each image is a 32x32
// background in the category's colour with a few blobs in its accent colour,
// under lighting changes and noise, so mean colour identifies most products.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "formats/bson.h"
#include "synthetic/csv_text.h"
#include "synthetic/jpeg_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

constexpr int kSize = 32;
constexpr int kNumTrain = 600;
constexpr int kNumTest = 60;
constexpr int kNumCategories = 8;
constexpr int kJpegQuality = 80;
constexpr int64_t kSampleCategory = 1000010653;

struct Category {
  int64_t id;
  double base[3];
  double accent[3];
};

std::vector<Category> MakeCategories(SyntheticRng& rng) {
  std::vector<Category> categories;
  for (int c = 0; c < kNumCategories; ++c) {
    Category category;
    // The sample submission's category is one of the real ones, as on Kaggle.
    category.id = c == 0 ? kSampleCategory : 1000000000 + rng.UniformInt(int64_t{1000}, int64_t{20000});
    for (int k = 0; k < 3; ++k) {
      category.base[k] = rng.Uniform(40, 220);
      category.accent[k] = rng.Uniform(20, 235);
    }
    categories.push_back(category);
  }
  return categories;
}

RgbImage DrawProduct(SyntheticRng& rng, const Category& category) {
  std::vector<double> pixels(kSize * kSize * 3);
  const double light = rng.Uniform(0.85, 1.15);
  for (int i = 0; i < kSize * kSize; ++i) {
    for (int k = 0; k < 3; ++k) pixels[i * 3 + k] = category.base[k] * light;
  }
  const int blobs = static_cast<int>(rng.UniformInt(int64_t{1}, int64_t{3}));
  for (int b = 0; b < blobs; ++b) {
    const double cx = rng.Uniform(4, kSize - 4), cy = rng.Uniform(4, kSize - 4);
    const double radius = rng.Uniform(3, 8);
    for (int y = 0; y < kSize; ++y) {
      for (int x = 0; x < kSize; ++x) {
        if ((x - cx) * (x - cx) + (y - cy) * (y - cy) > radius * radius) continue;
        for (int k = 0; k < 3; ++k) pixels[(y * kSize + x) * 3 + k] = category.accent[k] * light;
      }
    }
  }
  RgbImage image{kSize, kSize, std::vector<uint8_t>(pixels.size())};
  for (size_t i = 0; i < pixels.size(); ++i) {
    const double noisy = pixels[i] + rng.Normal(0, 25);
    image.pixels[i] = static_cast<uint8_t>(std::clamp(std::round(noisy), 0.0, 255.0));
  }
  return image;
}

// `count` products with increasing `_id`s from `next_id` (gaps included).
absl::StatusOr<std::string> MakeProducts(SyntheticRng& rng, const std::vector<Category>& categories,
                                         int count, bool labelled, int64_t& next_id,
                                         std::vector<int64_t>& ids, std::string* first_100) {
  std::string bytes;
  for (int p = 0; p < count; ++p) {
    const Category& category = categories[rng.UniformInt(categories.size())];
    const int num_images = static_cast<int>(rng.Categorical({5, 3, 1, 1})) + 1;
    std::vector<BsonElement> images;
    for (int i = 0; i < num_images; ++i) {
      ASSIGN_OR_RETURN(std::string jpeg, EncodeJpeg(DrawProduct(rng, category), kJpegQuality));
      images.push_back(
          BsonElement::Subdocument("", BsonDocument{{BsonElement::Binary("picture", jpeg)}}));
    }
    BsonDocument product{{BsonElement::Int32("_id", static_cast<int32_t>(next_id)),
                          BsonElement::Array("imgs", std::move(images))}};
    if (labelled) {
      product.elements.push_back(
          BsonElement::Int32("category_id", static_cast<int32_t>(category.id)));
    }
    const std::string encoded = EncodeBson(product);
    bytes += encoded;
    if (first_100 != nullptr && p < 100) *first_100 += encoded;
    ids.push_back(next_id);
    next_id += 1 + static_cast<int64_t>(rng.UniformInt(uint64_t{3}));
  }
  return bytes;
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng category_rng = root.Fork(1), train_rng = root.Fork(2), test_rng = root.Fork(3);
  const std::vector<Category> categories = MakeCategories(category_rng);

  int64_t next_train_id = 0, next_test_id = 0;
  std::vector<int64_t> train_ids, test_ids;
  std::string train_example;
  ASSIGN_OR_RETURN(std::string train, MakeProducts(train_rng, categories, kNumTrain, true,
                                                   next_train_id, train_ids, &train_example));
  ASSIGN_OR_RETURN(std::string test, MakeProducts(test_rng, categories, kNumTest, false,
                                                  next_test_id, test_ids, nullptr));

  static const char* const kLevel1[] = {"ABONNEMENT / SERVICES", "AUTO - MOTO", "BAGAGERIE",
                                        "INFORMATIQUE"};
  CsvTextBuilder names, sample;
  names.Row({"category_id", "category_level1", "category_level2", "category_level3"});
  for (int c = 0; c < kNumCategories; ++c) {
    names.Int(categories[c].id)
        .String(kLevel1[c % 4])
        .String(absl::StrCat("GROUPE ", c / 2))
        .String(absl::StrCat("PRODUIT ", c))
        .EndRow();
  }
  sample.Row({"_id", "category_id"});
  for (int64_t id : test_ids) sample.Int(id).Int(kSampleCategory).EndRow();

  for (const auto& [name, bytes] :
       std::vector<std::pair<std::string, std::string>>{{"train.bson", train},
                                                        {"train_example.bson", train_example},
                                                        {"test.bson", test},
                                                        {"category_names.csv", names.text()},
                                                        {"sample_submission.csv", sample.text()}}) {
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / name, bytes));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
