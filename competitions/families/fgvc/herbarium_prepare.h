#ifndef MLEBENCH_COMPETITIONS_FAMILIES_FGVC_HERBARIUM_PREPARE_H_
#define MLEBENCH_COMPETITIONS_FAMILIES_FGVC_HERBARIUM_PREPARE_H_

// The prepare.py shared by upstream's herbarium-2020-fgvc7 and
// herbarium-2021-fgvc8 (identical but for the layout below): the labelled
// train/metadata.json is split per category (1 sample: train only; 2-4: the
// last one to test; 5+: sklearn train_test_split(test_size=0.2,
// random_state=0)); the test items, flattened in category order, are
// shuffled with Python's random.Random(0) and renamed to ids "0", "1", ...
// with files images/{idx // 1000:03d}/{idx}.jpg. Writes
//   public/<dir>/train/metadata.json   (json.dump(indent=4, sort_keys=True))
//   public/<dir>/train/<file_name>     (the train images, raw names)
//   public/<dir>/test/metadata.json    (images, info, licenses only)
//   public/<dir>/test/images/...       (the renamed test images)
//   public/sample_submission.csv       (Id, Predicted = 0)
//   private/answers.csv                (Id, Predicted = category_id)
// Upstream's asserts are FailedPrecondition errors; unreadable or malformed
// metadata (not JSON, missing keys, a non-integer category_id, an image
// file_name leaving its folder) is InvalidArgument or NotFound.

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pycompat/python_json.h"

namespace mlebench {

struct HerbariumLayout {
  // Folder of train/ and test/ under raw and public: "nybg2020" or "".
  std::string data_dir;
  // Upstream opens metadata.json as latin-1 (2020) or utf-8 (2021).
  bool latin1_metadata = false;
  // The dataset-wide key that train keeps and test drops besides
  // "categories": "regions" (2020) or "institutions" (2021).
  std::string dropped_test_key;
};

absl::Status PrepareHerbarium(const HerbariumLayout& layout, const std::filesystem::path& raw,
                              const std::filesystem::path& public_dir,
                              const std::filesystem::path& private_dir);

// Upstream's herbarium-2022-fgvc9/prepare.py, a variant of the above: the
// labelled train_metadata.json (images keyed by "image_id") is split per
// category, always with train_test_split(test_size=0.2, random_state=0)
// (a category of one image is an error, as sklearn raises); train items are
// renamed "{category:05d}__{idx + 1:03d}" with files
// "{category // 100:03d}/{category % 100:02d}/<new id>.jpg"; the shuffled
// (random.Random(0)) test items become ids "0", "1", ... with files
// "{idx // 1000:03d}/test-{idx:06d}.jpg". Writes
//   public/train_metadata.json   (the raw metadata, new annotations/images)
//   public/train_images/...      (the renamed train images)
//   public/test_metadata.json    (the list of test images only)
//   public/test_images/...       (the renamed test images)
//   public/sample_submission.csv (Id, Predicted = 42)
//   private/answers.csv          (Id, Predicted = category_id)
absl::Status PrepareHerbarium2022(const std::filesystem::path& raw,
                                  const std::filesystem::path& public_dir,
                                  const std::filesystem::path& private_dir);

// The steps above that inaturalist-2019-fgvc6's prepare.py (another
// per-category split of COCO-style metadata) shares:
// `json.dump(value, f, indent=4, sort_keys=True)` to `path`;
absl::Status WriteSortedKeysJson(const JsonValue& value, const std::filesystem::path& path);
// `json.load` of the COCO-style metadata file `path` (called `name` in
// errors), decoded as latin-1 when `latin1` (else UTF-8): a JSON object with
// "annotations" and "images" lists, and a "categories" key when
// `require_categories`; InvalidArgument naming `name` when it is not JSON or
// lacks them, the read's error when it cannot be read;
absl::StatusOr<JsonValue> ReadCocoMetadata(const std::filesystem::path& path, std::string_view name,
                                           bool latin1 = false, bool require_categories = false);
// `len(list(dir.glob("**/*.jpg")))`;
int64_t CountGlobJpgs(const std::filesystem::path& dir);
// an annotation's "category_id" as a 64-bit int (InvalidArgument otherwise);
absl::StatusOr<int64_t> MetadataCategoryId(const JsonValue& annotation);
// an image's "file_name", a relative path that stays in its folder
// (InvalidArgument otherwise).
absl::StatusOr<std::string> MetadataFileName(const JsonValue& image);

// One (annotation, image) pair of COCO-style metadata.
struct MetadataItem {
  const JsonValue* annotation;
  const JsonValue* image;
};

// The pairs of `zip(annotations, images)` (stopping at the shorter list)
// grouped by annotation "category_id" in first-seen order (a Python dict),
// after upstream's assert that each annotation's "image_id" equals its
// image's `image_key` ("id", or "image_id" in herbarium-2022):
// FailedPrecondition "Mismatching image_id in annotation and image at
// position i"; InvalidArgument for missing keys, naming `file`.
struct CategoryGroups {
  std::vector<int64_t> order;
  std::map<int64_t, std::vector<MetadataItem>> items;
};
absl::StatusOr<CategoryGroups> GroupByCategory(const JsonValue& annotations,
                                               const JsonValue& images,
                                               std::string_view image_key, std::string_view file);

// The per-category split herbarium 2020/2021 and inaturalist 2019 share: a
// category of one item is train only; of two to four items, its last item
// is test; larger ones go through train_test_split(test_size, random_state=0).
struct CategorySplit {
  std::map<int64_t, std::vector<MetadataItem>> train;
  std::map<int64_t, std::vector<MetadataItem>> test;
};
absl::StatusOr<CategorySplit> SplitCategories(const CategoryGroups& groups, double test_size);

}  // namespace mlebench

#endif  // MLEBENCH_COMPETITIONS_FAMILIES_FGVC_HERBARIUM_PREPARE_H_
