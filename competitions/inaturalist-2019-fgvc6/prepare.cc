// Upstream's inaturalist-2019-fgvc6/prepare.py: a per-category split of the
// labelled train2019.json into new train and test sets.
//   - images: raw/train_val2019.tar.gz is extracted into scratch (upstream
//     extracts it into raw/, unless raw/train_val2019 exists, which is then
//     used as it is); image file_names ("train_val2019/Plants/400/x.jpg")
//     are relative to that folder.
//   - split per category, in first-seen order: 1 image -> train; 2-4 -> the
//     last one to test; 5+ -> train_test_split(test_size=0.12,
//     random_state=0). Test items, flattened, are shuffled with
//     random.Random(0); their file_name becomes "test2019/<basename>".
//   - public/train2019.json (raw metadata with the train annotations and
//     images), public/test2019.json (without categories and annotations:
//     exactly images, info, licenses), public/val2019.json (copied),
//     private/answers.csv (id, predicted = category_id),
//     public/kaggle_sample_submission.csv (id, predicted =
//     random.Random(42).randint(0, 1009), the same for every row).
//   - public/train_val2019.tar.gz and public/test2019.tar.gz: uncompressed
//     tars (despite the name) of the copied images, named relative to
//     their folder ("Plants/400/x.jpg", "x.jpg"); the folders are removed.
//     Entries are in name order, with fixed times and owners (upstream's
//     order and metadata depend on the file system and the clock).
// Upstream's asserts are FailedPrecondition errors.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/files.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "competitions/families/fgvc/herbarium_prepare.h"
#include "formats/tar_archive.h"
#include "pycompat/python_json.h"
#include "pycompat/python_random.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

absl::Status CheckFailed(const std::string& message) {
  return absl::FailedPreconditionError(absl::StrCat("check failed: ", message));
}

using Item = MetadataItem;

// Every regular file under `dir`, named relative to it, in name order.
std::vector<TarEntry> TarEntriesOf(const fs::path& dir) {
  std::vector<TarEntry> entries;
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(dir, error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (it->is_regular_file()) {
      entries.push_back({fs::relative(it->path(), dir).generic_string(), "", it->path()});
    }
  }
  std::sort(entries.begin(), entries.end(),
            [](const TarEntry& a, const TarEntry& b) { return a.name < b.name; });
  return entries;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& scratch) {
  fs::path image_root = raw;
  if (!fs::exists(raw / "train_val2019")) {
    image_root = scratch / "extracted";
    // Kaggle's archive holds about 82 GB of JPEGs (the default limit is 64
    // GiB); the limit still stops a tar bomb before it fills a disk.
    RETURN_IF_ERROR(ExtractTar(raw / "train_val2019.tar.gz", image_root,
                               {.max_total_bytes = int64_t{128} << 30}));
  }

  ASSIGN_OR_RETURN(const JsonValue old_train,
                   ReadCocoMetadata(raw / "train2019.json", "train2019.json", /*latin1=*/false,
                                    /*require_categories=*/true));
  const JsonValue* annotations = old_train.Find("annotations");
  ASSIGN_OR_RETURN(CategoryGroups groups, GroupByCategory(*annotations, *old_train.Find("images"),
                                                          "id", "train2019.json"));
  const std::vector<int64_t>& category_order = groups.order;
  ASSIGN_OR_RETURN(CategorySplit split, SplitCategories(groups, 0.12));
  std::map<int64_t, std::vector<Item>>& train_by_category = split.train;
  std::map<int64_t, std::vector<Item>>& test_by_category = split.test;

  JsonValue new_train = old_train;
  JsonValue train_annotations = JsonValue::Array();
  JsonValue train_images = JsonValue::Array();
  for (int64_t category : category_order) {
    for (const Item& item : train_by_category[category]) {
      train_annotations.items.push_back(*item.annotation);
      train_images.items.push_back(*item.image);
    }
  }
  const size_t train_count = train_images.items.size();
  new_train.Set("annotations", std::move(train_annotations));
  new_train.Set("images", std::move(train_images));
  RETURN_IF_ERROR(WriteSortedKeysJson(new_train, public_dir / "train2019.json"));
  {
    std::error_code error;
    if (!fs::is_regular_file(raw / "val2019.json", error)) {
      return absl::NotFoundError("raw data has no val2019.json");
    }
    fs::copy_file(raw / "val2019.json", public_dir / "val2019.json",
                  fs::copy_options::overwrite_existing, error);
    if (error) return absl::InternalError(absl::StrCat("cannot copy val2019.json"));
  }

  // Test: the raw metadata without categories; renamed file names.
  JsonValue public_test = JsonValue::Object();
  for (const JsonMember& member : old_train.members) {
    if (member.key != "categories" && member.key != "annotations") {
      public_test.members.push_back(member);
    }
  }
  std::vector<Item> test_items;
  for (int64_t category : category_order) {
    for (const Item& item : test_by_category[category]) test_items.push_back(item);
  }
  PythonRandom(0).Shuffle(test_items);
  JsonValue test_images = JsonValue::Array();
  std::vector<std::pair<std::string, std::string>> test_copies;  // old, new file name
  std::vector<Cell> ids;
  std::vector<Cell> categories;
  for (const Item& item : test_items) {
    ASSIGN_OR_RETURN(std::string old_name, MetadataFileName(*item.image));
    const std::string new_name =
        absl::StrCat("test2019/", old_name.substr(old_name.rfind('/') + 1));
    JsonValue image = *item.image;
    image.Set("file_name", JsonValue::String(new_name));
    test_images.items.push_back(std::move(image));
    test_copies.emplace_back(old_name, new_name);
    const JsonValue* id = item.image->Find("id");
    std::optional<int64_t> int_id = id->type == JsonValue::Type::kInt ? id->AsInt64() : std::nullopt;
    if (!int_id) return absl::InvalidArgumentError("train2019.json: image ids must be integers");
    ASSIGN_OR_RETURN(int64_t category, MetadataCategoryId(*item.annotation));
    ids.push_back(*int_id);
    categories.push_back(category);
  }
  const size_t test_count = test_images.items.size();
  public_test.Set("images", std::move(test_images));
  {
    std::vector<std::string> keys;
    for (const JsonMember& member : public_test.members) keys.push_back(member.key);
    std::sort(keys.begin(), keys.end());
    if (keys != std::vector<std::string>{"images", "info", "licenses"}) {
      return CheckFailed("Public test metadata keys should be 'images', 'info', 'licenses'");
    }
  }
  RETURN_IF_ERROR(WriteSortedKeysJson(public_test, public_dir / "test2019.json"));
  std::error_code error;
  fs::create_directories(public_dir / "train_val2019", error);
  fs::create_directories(public_dir / "test2019", error);
  if (error) return absl::InternalError("cannot create image folders");

  if (test_count == 0) {
    // pd.DataFrame([]) has no "id" column: upstream fails with a KeyError.
    return CheckFailed("the split leaves no test images (every category has one image)");
  }
  ASSIGN_OR_RETURN(int64_t placeholder, PythonRandom(42).RandInt(0, 1009));
  const Table answers({Column{"id", Dtype::kInt64, ids},
                       Column{"predicted", Dtype::kInt64, std::move(categories)}});
  const Table sample(
      {Column{"id", Dtype::kInt64, ids},
       Column{"predicted", Dtype::kInt64, std::vector<Cell>(ids.size(), placeholder)}});
  RETURN_IF_ERROR(WriteCsvFile(answers, (private_dir / "answers.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(sample, (public_dir / "kaggle_sample_submission.csv").string()));

  for (int64_t category : category_order) {
    for (const Item& item : train_by_category[category]) {
      ASSIGN_OR_RETURN(std::string name, MetadataFileName(*item.image));
      RETURN_IF_ERROR(CopyRegularFile(image_root / name, public_dir / name));
    }
  }
  for (const auto& [old_name, new_name] : test_copies) {
    RETURN_IF_ERROR(CopyRegularFile(image_root / old_name, public_dir / new_name));
  }
  if (CountGlobJpgs(public_dir / "train_val2019") != static_cast<int64_t>(train_count)) {
    return CheckFailed(absl::StrCat("Mismatching number of images in train_images, got ",
                                    CountGlobJpgs(public_dir / "train_val2019")));
  }
  if (CountGlobJpgs(public_dir / "test2019") != static_cast<int64_t>(test_count)) {
    return CheckFailed(absl::StrCat("Mismatching number of images in test_images, got ",
                                    CountGlobJpgs(public_dir / "test2019")));
  }
  if (train_count + test_count != annotations->items.size()) {
    return CheckFailed(absl::StrCat("Expected ", annotations->items.size(),
                                    " annotations in total, but found", train_count,
                                    " in train and ", test_count, " in test"));
  }

  for (const char* folder : {"test2019", "train_val2019"}) {
    RETURN_IF_ERROR(WriteTar(public_dir / absl::StrCat(folder, ".tar.gz"),
                             TarEntriesOf(public_dir / folder), /*gzip=*/false));
    fs::remove_all(public_dir / folder, error);
    if (error) return absl::InternalError(absl::StrCat("cannot remove ", folder));
  }
  return absl::OkStatus();
}

}  // namespace

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID,
    .prepare = &Prepare,
});

}  // namespace mlebench
