#ifndef MLEBENCH_COMPETITIONS_FAMILIES_FGVC_HERBARIUM_RAW_H_
#define MLEBENCH_COMPETITIONS_FAMILIES_FGVC_HERBARIUM_RAW_H_

// The synthetic Kaggle download shared by herbarium-2020-fgvc7 and
// herbarium-2021-fgvc8 (same COCO-style layout, different folder and
// dataset-wide keys):
//   <dir>/train/metadata.json  annotations, categories, images, info,
//                              licenses and regions (2020) / institutions
//                              (2021); images[i] and annotations[i] describe
//                              the same image
//   <dir>/train/images/<category // 100:03d>/<category % 100:02d>/<id>.jpg
//   <dir>/test/metadata.json   images, info, licenses (unlabelled)
//   <dir>/test/images/<id // 1000:03d>/<id>.jpg
//   sample_submission.csv      Id, Predicted
// 32x32 JPEG "specimens" whose colour and stripe pattern depend on the
// category, so a nearest-centroid model learns them. Category sizes include
// 1, 3, 4 and 5 images to reach every branch of upstream's split.

#include <cstdint>
#include <filesystem>
#include <string>

#include "absl/status/status.h"

namespace mlebench {

struct HerbariumRawLayout {
  std::string data_dir;       // "nybg2020" or "" (2021)
  std::string group_key;      // "regions" or "institutions"
  std::string group_id_key;   // "region_id" or "institution_id"
  bool latin1_names = false;  // 2020's file holds raw latin-1 bytes
  bool with_order = false;    // 2021's categories carry an "order"
};

absl::Status WriteHerbariumRaw(const HerbariumRawLayout& layout,
                               const std::filesystem::path& raw_dir, uint64_t seed);

// herbarium-2022-fgvc9's download, in its own layout with the same kind of
// specimens (every category has at least 2 images, as upstream's split needs):
//   train_metadata.json  annotations (category_id, genus_id, image_id,
//                        institution_id), categories, distances, genera,
//                        images (file_name, image_id, license), institutions,
//                        licenses; image ids "{category:05d}__{n:03d}"
//   train_images/<category // 100:03d>/<category % 100:02d>/<image id>.jpg
//   test_metadata.json   a list of images (file_name, image_id "0", "1", ...)
//   test_images/<idx // 1000:03d>/test-<idx:06d>.jpg
//   sample_submission.csv  Id, Predicted (42)
absl::Status WriteHerbarium2022Raw(const std::filesystem::path& raw_dir, uint64_t seed);

}  // namespace mlebench

#endif  // MLEBENCH_COMPETITIONS_FAMILIES_FGVC_HERBARIUM_RAW_H_
