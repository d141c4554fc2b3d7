#include "competitions/families/fgvc/herbarium_prepare.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/csv.h"
#include "base/files.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "pycompat/python_json.h"
#include "pycompat/python_random.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// Python's latin-1 decoding: every byte is the code point of that value.
std::string Latin1ToUtf8(const std::string& bytes) {
  std::string text;
  text.reserve(bytes.size());
  for (unsigned char c : bytes) {
    if (c < 0x80) {
      text.push_back(static_cast<char>(c));
    } else {
      text.push_back(static_cast<char>(0xC0 | (c >> 6)));
      text.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
  }
  return text;
}

// json.dump(..., sort_keys=True) sorts every object's keys by code point,
// which is the byte order of their UTF-8.
void SortKeys(JsonValue& value) {
  for (JsonValue& item : value.items) SortKeys(item);
  for (JsonMember& member : value.members) SortKeys(member.value);
  std::stable_sort(value.members.begin(), value.members.end(),
                   [](const JsonMember& a, const JsonMember& b) { return a.key < b.key; });
}

absl::Status WriteSortedJson(JsonValue value, const fs::path& path) {
  SortKeys(value);
  ASSIGN_OR_RETURN(std::string text, DumpJson(value, /*indent=*/4));
  return WriteStringToFile(path, text);
}

// A relative path that stays inside the folder it is joined to.
bool IsContainedRelativePath(const std::string& name) {
  if (name.empty() || name.find('\0') != std::string::npos) return false;
  const fs::path path(name);
  if (path.is_absolute() || path.has_root_name()) return false;
  for (const fs::path& part : path) {
    if (part == "..") return false;
  }
  return true;
}

// `len(list(dir.glob("**/*.jpg")))`: files (and folders) whose name ends in
// ".jpg" at any depth.
int64_t CountJpgs(const fs::path& dir) {
  int64_t count = 0;
  std::error_code error;
  if (!fs::is_directory(dir)) return 0;
  for (auto it = fs::recursive_directory_iterator(dir, error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".jpg") == 0) ++count;
  }
  return count;
}

using Item = MetadataItem;

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// A category id as upstream uses it: an int (it formats it with :03d).
absl::StatusOr<int64_t> CategoryId(const JsonValue& annotation) {
  const JsonValue* id = annotation.is_object() ? annotation.Find("category_id") : nullptr;
  if (id == nullptr) {
    return absl::InvalidArgumentError("metadata.json: an annotation has no 'category_id'");
  }
  std::optional<int64_t> value = id->type == JsonValue::Type::kInt ? id->AsInt64() : std::nullopt;
  if (!value || *value == INT64_MIN) {
    return absl::InvalidArgumentError("metadata.json: 'category_id' must be a 64-bit integer");
  }
  return *value;
}

absl::StatusOr<std::string> FileName(const JsonValue& image) {
  const JsonValue* name = image.Find("file_name");
  if (name == nullptr || name->type != JsonValue::Type::kString ||
      !IsContainedRelativePath(name->text)) {
    return absl::InvalidArgumentError(
        "metadata.json: every image needs a relative 'file_name' inside train/");
  }
  return name->text;
}

}  // namespace

absl::Status WriteSortedKeysJson(const JsonValue& value, const fs::path& path) {
  return WriteSortedJson(value, path);
}

int64_t CountGlobJpgs(const fs::path& dir) { return CountJpgs(dir); }

absl::StatusOr<JsonValue> ReadCocoMetadata(const fs::path& path, std::string_view name, bool latin1,
                                           bool require_categories) {
  ASSIGN_OR_RETURN(std::string bytes, ReadFileToString(path));
  absl::StatusOr<JsonValue> parsed = ParseJson(latin1 ? Latin1ToUtf8(bytes) : bytes);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(name), ": ", std::string(parsed.status().message())));
  }
  const JsonValue* annotations = parsed->is_object() ? parsed->Find("annotations") : nullptr;
  const JsonValue* images = parsed->is_object() ? parsed->Find("images") : nullptr;
  if (annotations == nullptr || images == nullptr || !annotations->is_array() ||
      !images->is_array()) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(name), " must be an object with 'annotations' and 'images' lists"));
  }
  if (require_categories && parsed->Find("categories") == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(std::string(name), " must have 'categories'"));
  }
  return parsed;
}

absl::StatusOr<int64_t> MetadataCategoryId(const JsonValue& annotation) {
  return CategoryId(annotation);
}

absl::StatusOr<std::string> MetadataFileName(const JsonValue& image) { return FileName(image); }

absl::StatusOr<CategoryGroups> GroupByCategory(const JsonValue& annotations,
                                               const JsonValue& images,
                                               std::string_view image_key, std::string_view file) {
  CategoryGroups groups;
  const std::string key(image_key);
  const size_t pairs = std::min(annotations.items.size(), images.items.size());
  for (size_t i = 0; i < pairs; ++i) {
    const JsonValue& annotation = annotations.items[i];
    const JsonValue& image = images.items[i];
    const JsonValue* annotation_image_id =
        annotation.is_object() ? annotation.Find("image_id") : nullptr;
    const JsonValue* image_id = image.is_object() ? image.Find(key) : nullptr;
    if (annotation_image_id == nullptr || image_id == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(std::string(file),
                                                     ": annotations need 'image_id' and images "
                                                     "need '",
                                                     key, "'"));
    }
    if (!(*annotation_image_id == *image_id)) {
      return CheckFailed(
          absl::StrCat("Mismatching image_id in annotation and image at position ", i));
    }
    ASSIGN_OR_RETURN(int64_t category, CategoryId(annotation));
    auto [it, inserted] = groups.items.try_emplace(category);
    if (inserted) groups.order.push_back(category);
    it->second.push_back({&annotation, &image});
  }
  return groups;
}

absl::StatusOr<CategorySplit> SplitCategories(const CategoryGroups& groups, double test_size) {
  CategorySplit split;
  for (int64_t category : groups.order) {
    const std::vector<Item>& items = groups.items.at(category);
    const size_t n = items.size();
    std::vector<Item>& train = split.train[category];
    std::vector<Item>& test = split.test[category];
    if (n == 1) {
      train = items;
    } else if (n < 5) {
      // max(1, int(n * test_size)) is 1 for n <= 4: the last item goes to test.
      train.assign(items.begin(), items.end() - 1);
      test.assign(items.end() - 1, items.end());
    } else {
      TrainTestSplitOptions options;
      options.test_size = test_size;
      options.random_state = 0;
      ASSIGN_OR_RETURN(TrainTestIndices indices,
                       TrainTestSplitIndices(static_cast<int64_t>(n), options));
      for (int64_t i : indices.train_indices) train.push_back(items[static_cast<size_t>(i)]);
      for (int64_t i : indices.test_indices) test.push_back(items[static_cast<size_t>(i)]);
    }
  }
  return split;
}

absl::Status PrepareHerbarium(const HerbariumLayout& layout, const fs::path& raw,
                              const fs::path& public_dir, const fs::path& private_dir) {
  const fs::path raw_train = raw / layout.data_dir / "train";
  const fs::path public_train = public_dir / layout.data_dir / "train";
  const fs::path public_test = public_dir / layout.data_dir / "test";

  ASSIGN_OR_RETURN(
      const JsonValue old_train,
      ReadCocoMetadata(raw_train / "metadata.json", "train/metadata.json", layout.latin1_metadata));
  const JsonValue* annotations = old_train.Find("annotations");
  ASSIGN_OR_RETURN(CategoryGroups groups, GroupByCategory(*annotations, *old_train.Find("images"),
                                                          "id", "train/metadata.json"));
  const std::vector<int64_t>& category_order = groups.order;
  ASSIGN_OR_RETURN(CategorySplit split, SplitCategories(groups, 0.2));
  std::map<int64_t, std::vector<Item>>& train_by_category = split.train;
  std::map<int64_t, std::vector<Item>>& test_by_category = split.test;

  // Train: the raw metadata with the train annotations and images.
  JsonValue new_train = old_train;
  JsonValue train_annotations = JsonValue::Array();
  JsonValue train_images = JsonValue::Array();
  for (int64_t category : category_order) {
    const fs::path subdir = absl::StrFormat("%03d/%02d", FloorDiv(category, 100),
                                            category - 100 * FloorDiv(category, 100));
    std::error_code error;
    fs::create_directories(public_train / "images" / subdir, error);
    if (error) return absl::InternalError(absl::StrCat("cannot create folder: ", error.message()));
    for (const Item& item : train_by_category[category]) {
      train_annotations.items.push_back(*item.annotation);
      train_images.items.push_back(*item.image);
      ASSIGN_OR_RETURN(std::string file_name, FileName(*item.image));
      RETURN_IF_ERROR(CopyRegularFile(raw_train / file_name, public_train / file_name));
    }
  }
  const size_t train_count = train_images.items.size();
  new_train.Set("annotations", std::move(train_annotations));
  new_train.Set("images", std::move(train_images));
  RETURN_IF_ERROR(WriteSortedJson(new_train, public_train / "metadata.json"));
  if (CountJpgs(public_train / "images") != static_cast<int64_t>(train_count)) {
    return CheckFailed(absl::StrCat("Mismatching number of images in train_images, got ",
                                    CountJpgs(public_train / "images")));
  }

  // Test: the raw metadata without categories and the dropped key.
  JsonValue new_test = JsonValue::Object();
  bool has_categories = false;
  bool has_dropped = false;
  for (const JsonMember& member : old_train.members) {
    if (member.key == "categories") {
      has_categories = true;
    } else if (member.key == layout.dropped_test_key) {
      has_dropped = true;
    } else {
      new_test.members.push_back(member);
    }
  }
  if (!has_categories || !has_dropped) {
    return absl::InvalidArgumentError(absl::StrCat(
        "train/metadata.json must have 'categories' and '", layout.dropped_test_key, "'"));
  }
  std::vector<Item> test_items;
  for (int64_t category : category_order) {
    for (const Item& item : test_by_category[category]) test_items.push_back(item);
  }
  PythonRandom(0).Shuffle(test_items);

  JsonValue test_annotations = JsonValue::Array();
  JsonValue test_images = JsonValue::Array();
  std::vector<Cell> ids;
  std::vector<Cell> categories;
  for (size_t idx = 0; idx < test_items.size(); ++idx) {
    const Item& item = test_items[idx];
    const std::string new_id = absl::StrCat(idx);
    const std::string new_file_name = absl::StrFormat("images/%03d/%d.jpg", idx / 1000, idx);
    JsonValue annotation = *item.annotation;
    annotation.Set("image_id", JsonValue::String(new_id));
    JsonValue image = *item.image;
    ASSIGN_OR_RETURN(std::string file_name, FileName(image));
    image.Set("id", JsonValue::String(new_id));
    image.Set("file_name", JsonValue::String(new_file_name));
    RETURN_IF_ERROR(CopyRegularFile(raw_train / file_name, public_test / new_file_name));
    ASSIGN_OR_RETURN(int64_t category, CategoryId(annotation));
    ids.push_back(new_id);
    categories.push_back(category);
    test_annotations.items.push_back(std::move(annotation));
    test_images.items.push_back(std::move(image));
  }
  const size_t test_count = test_images.items.size();
  new_test.Set("annotations", JsonValue::Array());
  new_test.Set("images", std::move(test_images));
  // The public test metadata has no annotations.
  {
    std::vector<std::string> keys;
    for (const JsonMember& member : new_test.members) {
      if (member.key != "annotations") keys.push_back(member.key);
    }
    std::sort(keys.begin(), keys.end());
    if (keys != std::vector<std::string>{"images", "info", "licenses"}) {
      return CheckFailed(
          "Public test metadata keys should be 'images', 'info', 'licenses'");
    }
    JsonValue public_test_metadata = JsonValue::Object();
    for (const JsonMember& member : new_test.members) {
      if (member.key != "annotations") public_test_metadata.members.push_back(member);
    }
    RETURN_IF_ERROR(WriteSortedJson(public_test_metadata, public_test / "metadata.json"));
  }
  if (CountJpgs(public_test / "images") != static_cast<int64_t>(test_count)) {
    return CheckFailed(absl::StrCat("Mismatching number of images in test_images, got ",
                                    CountJpgs(public_test / "images")));
  }
  if (train_count + test_count != annotations->items.size()) {
    return CheckFailed(absl::StrCat("Expected ", annotations->items.size(),
                                    " annotations in total, but found ", train_count,
                                    " in train and ", test_count, " in test"));
  }
  if (test_count == 0) {
    // pd.DataFrame([]) has no "Id" column: upstream fails with a KeyError.
    return CheckFailed("the split leaves no test images (every category has one image)");
  }

  const Table answers({Column{"Id", Dtype::kObject, ids},
                       Column{"Predicted", Dtype::kInt64, std::move(categories)}});
  const Table sample({Column{"Id", Dtype::kObject, ids},
                      Column{"Predicted", Dtype::kInt64, std::vector<Cell>(ids.size(), int64_t{0})}});
  RETURN_IF_ERROR(WriteCsvFile(answers, (private_dir / "answers.csv").string()));
  return WriteCsvFile(sample, (public_dir / "sample_submission.csv").string());
}

absl::Status PrepareHerbarium2022(const fs::path& raw, const fs::path& public_dir,
                                  const fs::path& private_dir) {
  ASSIGN_OR_RETURN(const JsonValue old_train,
                   ReadCocoMetadata(raw / "train_metadata.json", "train_metadata.json"));
  const JsonValue* annotations = old_train.Find("annotations");
  ASSIGN_OR_RETURN(CategoryGroups groups, GroupByCategory(*annotations, *old_train.Find("images"),
                                                          "image_id", "train_metadata.json"));
  const std::vector<int64_t>& category_order = groups.order;

  // Every category is split 80:20 (sklearn raises for a single image).
  std::map<int64_t, std::vector<Item>> train_by_category;
  std::map<int64_t, std::vector<Item>> test_by_category;
  for (int64_t category : category_order) {
    const std::vector<Item>& items = groups.items.at(category);
    TrainTestSplitOptions options;
    options.test_size = 0.2;
    options.random_state = 0;
    absl::StatusOr<TrainTestIndices> split =
        TrainTestSplitIndices(static_cast<int64_t>(items.size()), options);
    if (!split.ok()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "category ", category, " cannot be split: ", std::string(split.status().message())));
    }
    if (split->train_indices.empty() || split->test_indices.empty()) {
      return CheckFailed(absl::StrCat("category ", category, " has an empty train or test part"));
    }
    for (int64_t i : split->train_indices) {
      train_by_category[category].push_back(items[static_cast<size_t>(i)]);
    }
    for (int64_t i : split->test_indices) {
      test_by_category[category].push_back(items[static_cast<size_t>(i)]);
    }
  }

  // Train: renamed within each category.
  JsonValue new_train = old_train;
  JsonValue train_annotations = JsonValue::Array();
  JsonValue train_images = JsonValue::Array();
  for (int64_t category : category_order) {
    const std::string subdir = absl::StrFormat("%03d/%02d", FloorDiv(category, 100),
                                               category - 100 * FloorDiv(category, 100));
    std::error_code error;
    fs::create_directories(public_dir / "train_images" / subdir, error);
    if (error) return absl::InternalError(absl::StrCat("cannot create folder: ", error.message()));
    const std::vector<Item>& items = train_by_category[category];
    for (size_t idx = 0; idx < items.size(); ++idx) {
      const std::string new_id = absl::StrFormat("%05d__%03d", category, idx + 1);
      const std::string new_file_name = absl::StrCat(subdir, "/", new_id, ".jpg");
      ASSIGN_OR_RETURN(std::string file_name, FileName(*items[idx].image));
      JsonValue annotation = *items[idx].annotation;
      annotation.Set("image_id", JsonValue::String(new_id));
      JsonValue image = *items[idx].image;
      image.Set("image_id", JsonValue::String(new_id));
      image.Set("file_name", JsonValue::String(new_file_name));
      train_annotations.items.push_back(std::move(annotation));
      train_images.items.push_back(std::move(image));
      RETURN_IF_ERROR(CopyRegularFile(raw / "train_images" / file_name,
                                      public_dir / "train_images" / new_file_name));
    }
  }
  const size_t train_count = train_images.items.size();
  new_train.Set("annotations", std::move(train_annotations));
  new_train.Set("images", std::move(train_images));
  RETURN_IF_ERROR(WriteSortedJson(new_train, public_dir / "train_metadata.json"));
  if (CountJpgs(public_dir / "train_images") != static_cast<int64_t>(train_count)) {
    return CheckFailed(absl::StrCat("Expected ", train_count, " images in train_images, but found",
                                    CountJpgs(public_dir / "train_images")));
  }

  // Test: flattened in category order, shuffled, renamed by position.
  std::vector<Item> test_items;
  for (int64_t category : category_order) {
    for (const Item& item : test_by_category[category]) test_items.push_back(item);
  }
  PythonRandom(0).Shuffle(test_items);
  JsonValue test_images = JsonValue::Array();
  std::vector<Cell> ids;
  std::vector<Cell> categories;
  for (size_t idx = 0; idx < test_items.size(); ++idx) {
    const Item& item = test_items[idx];
    const std::string new_id = absl::StrCat(idx);
    const std::string new_file_name = absl::StrFormat("%03d/test-%06d.jpg", idx / 1000, idx);
    ASSIGN_OR_RETURN(std::string file_name, FileName(*item.image));
    JsonValue image = *item.image;
    image.Set("image_id", JsonValue::String(new_id));
    image.Set("file_name", JsonValue::String(new_file_name));
    RETURN_IF_ERROR(CopyRegularFile(raw / "train_images" / file_name,
                                    public_dir / "test_images" / new_file_name));
    ASSIGN_OR_RETURN(int64_t category, CategoryId(*item.annotation));
    ids.push_back(new_id);
    categories.push_back(category);
    test_images.items.push_back(std::move(image));
  }
  const size_t test_count = test_images.items.size();
  RETURN_IF_ERROR(WriteSortedJson(std::move(test_images), public_dir / "test_metadata.json"));
  if (CountJpgs(public_dir / "test_images") != static_cast<int64_t>(test_count)) {
    return CheckFailed(absl::StrCat("Expected ", test_count, " images in test_images, but found",
                                    CountJpgs(public_dir / "test_images")));
  }
  if (train_count + test_count != annotations->items.size()) {
    return CheckFailed(absl::StrCat("Expected ", annotations->items.size(),
                                    " annotations in total, but found", train_count,
                                    " in train and ", test_count, " in test"));
  }
  if (test_count == 0) {
    // pd.DataFrame([]) has no "Id" column: upstream fails with a KeyError.
    return CheckFailed("the metadata lists no labelled images");
  }

  const Table answers({Column{"Id", Dtype::kObject, ids},
                       Column{"Predicted", Dtype::kInt64, std::move(categories)}});
  const Table sample(
      {Column{"Id", Dtype::kObject, ids},
       Column{"Predicted", Dtype::kInt64, std::vector<Cell>(ids.size(), int64_t{42})}});
  RETURN_IF_ERROR(WriteCsvFile(answers, (private_dir / "answers.csv").string()));
  return WriteCsvFile(sample, (public_dir / "sample_submission.csv").string());
}

}  // namespace mlebench
