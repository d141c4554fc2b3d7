// Upstream's iwildcam-2020-fgvc7/prepare.py: a new split of Kaggle's
// labelled camera-trap images by camera location, so that no location is in
// both sets. The distinct locations (in order of first appearance) are split
// by sklearn's train_test_split (test_size=0.22, random_state=0); then whole
// locations move from the end of the train list to the test list while
// len(test images) / (len(all images) + len(test images)) < 0.22, and back
// from the end of the test list while it is > 0.22. Annotations follow
// their images; the JSON files are rebuilt through pandas DataFrames
// (DataFrame(records).to_dict(orient="records"), which changes value types
// the way pandas infers column dtypes, e.g. an int column with a missing key
// becomes floats with NaN) and written with json.dump. answers.csv holds the
// test annotations' (image_id, category_id) as (Id, Category); the sample
// submission draws Category from np.random.seed(0); randint(0, 676).
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/files.h"
#include "base/python_float.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "pycompat/numpy_random.h"
#include "pycompat/python_json.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr double kTestSize = 0.22;
constexpr uintmax_t kMaxJsonBytes = uintmax_t{1} << 31;

absl::StatusOr<JsonValue> ReadJson(const fs::path& path) {
  ASSIGN_OR_RETURN(std::string text, ReadFileToString(path, kMaxJsonBytes));
  absl::StatusOr<JsonValue> value = ParseJson(text);
  if (!value.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path.filename().string(), ": ", value.status().message()));
  }
  if (!value->is_object()) {
    return absl::InvalidArgumentError(absl::StrCat(path.filename().string(), " is not an object"));
  }
  return value;
}

// pd.DataFrame(list_of_dicts) followed by to_dict(orient="records"): each
// column's dtype is inferred from all its values (a missing key counts as
// NaN), and the records come back with that dtype's Python values:
//  - only ints: int64, unchanged;
//  - only ints, floats (NaN and missing keys included) and nulls, with at
//    least one int or float: float64, ints become floats, missing keys and
//    null become NaN (only nulls stay an object column of None);
//  - only bools: bool, unchanged;
//  - anything else: object, values unchanged, a missing key becomes NaN.
class Frame {
 public:
  static absl::StatusOr<Frame> FromRecords(const JsonValue* records, std::string_view what) {
    if (records == nullptr || !records->is_array()) {
      return absl::InvalidArgumentError(
          absl::StrCat(std::string(what), " must be a list of objects"));
    }
    Frame frame;
    for (const JsonValue& record : records->items) {
      if (!record.is_object()) {
        return absl::InvalidArgumentError(
            absl::StrCat(std::string(what), " must be a list of objects"));
      }
      for (const JsonMember& member : record.members) {
        if (frame.Column(member.key) < 0) frame.names_.push_back(member.key);
      }
    }
    frame.rows_.reserve(records->items.size());
    for (const JsonValue& record : records->items) {
      std::vector<JsonValue> row;
      for (const std::string& name : frame.names_) {
        const JsonValue* value = record.Find(name);
        row.push_back(value == nullptr ? JsonValue::Float(std::nan("")) : *value);
      }
      frame.rows_.push_back(std::move(row));
    }
    for (size_t c = 0; c < frame.names_.size(); ++c) frame.ApplyDtype(c);
    return frame;
  }

  int Column(std::string_view name) const {
    for (size_t c = 0; c < names_.size(); ++c) {
      if (names_[c] == name) return static_cast<int>(c);
    }
    return -1;
  }
  absl::StatusOr<int> GetColumn(std::string_view name, std::string_view what) const {
    const int c = Column(name);
    if (c < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("KeyError: ", std::string(what), " has no '", std::string(name), "'"));
    }
    return c;
  }
  size_t num_rows() const { return rows_.size(); }
  const JsonValue& at(size_t row, int column) const { return rows_[row][column]; }
  Dtype dtype(int column) const { return dtypes_[column]; }

  // df[mask].to_dict(orient="records") for the rows in `keep`.
  JsonValue Records(const std::vector<bool>& keep) const {
    JsonValue out = JsonValue::Array();
    for (size_t r = 0; r < rows_.size(); ++r) {
      if (!keep[r]) continue;
      JsonValue record = JsonValue::Object();
      for (size_t c = 0; c < names_.size(); ++c) record.Set(names_[c], rows_[r][c]);
      out.items.push_back(std::move(record));
    }
    return out;
  }

 private:
  void ApplyDtype(size_t c) {
    bool all_int = true, all_bool = true, numeric = true, any_number = false;
    for (const auto& row : rows_) {
      const JsonValue& v = row[c];
      const bool is_int = v.type == JsonValue::Type::kInt;
      const bool is_float = v.type == JsonValue::Type::kFloat;
      all_int = all_int && is_int;
      all_bool = all_bool && v.type == JsonValue::Type::kBool;
      any_number = any_number || is_int || is_float;
      numeric = numeric && (is_int || is_float || v.is_null());
    }
    Dtype dtype = Dtype::kObject;
    if (!rows_.empty() && all_int) {
      dtype = Dtype::kInt64;
    } else if (!rows_.empty() && all_bool) {
      dtype = Dtype::kBool;
    } else if (numeric && any_number) {
      dtype = Dtype::kFloat64;
      for (auto& row : rows_) {
        JsonValue& v = row[c];
        if (v.type == JsonValue::Type::kInt) {
          double d = 0;
          (void)absl::SimpleAtod(v.text, &d);
          v = JsonValue::Float(d);
        } else if (v.is_null()) {
          v = JsonValue::Float(std::nan(""));
        }
      }
    }
    dtypes_.push_back(dtype);
  }

  std::vector<std::string> names_;
  std::vector<std::vector<JsonValue>> rows_;
  std::vector<Dtype> dtypes_;
};

// A value's identity for pandas' unique() and isin(): numbers by value (NaN
// equal to NaN), text by content, anything else by its JSON text.
std::string ValueKey(const JsonValue& v) {
  switch (v.type) {
    case JsonValue::Type::kInt:
      return absl::StrCat("i:", v.text);
    case JsonValue::Type::kFloat:
      if (std::isnan(v.number)) return "nan";
      if (v.number == std::floor(v.number) && std::abs(v.number) < 9.0e15) {
        return absl::StrCat("i:", static_cast<int64_t>(v.number));
      }
      return absl::StrCat("f:", FormatPythonFloat(v.number));
    case JsonValue::Type::kString:
      return absl::StrCat("s:", v.text);
    default:
      return absl::StrCat("j:", DumpJson(v).value_or(""));
  }
}

// Distinct keys of a column, in order of first appearance, with a value of
// each.
std::vector<std::pair<std::string, JsonValue>> Unique(const Frame& frame, int column) {
  std::vector<std::pair<std::string, JsonValue>> out;
  std::set<std::string> seen;
  for (size_t r = 0; r < frame.num_rows(); ++r) {
    std::string key = ValueKey(frame.at(r, column));
    if (seen.insert(key).second) out.emplace_back(std::move(key), frame.at(r, column));
  }
  return out;
}

std::vector<bool> IsIn(const Frame& frame, int column, const std::set<std::string>& keys) {
  std::vector<bool> mask(frame.num_rows());
  for (size_t r = 0; r < frame.num_rows(); ++r)
    mask[r] = keys.count(ValueKey(frame.at(r, column))) > 0;
  return mask;
}

size_t Count(const std::vector<bool>& mask) {
  size_t n = 0;
  for (bool b : mask) n += b;
  return n;
}

// f"{value}.jpg" for an image id, when it names one plain file.
absl::StatusOr<std::string> ImageFile(const JsonValue& id) {
  std::string text;
  if (id.type == JsonValue::Type::kString || id.type == JsonValue::Type::kInt) {
    text = id.text;
  } else if (id.type == JsonValue::Type::kFloat) {
    text = FormatPythonFloat(id.number);
  } else {
    return absl::InvalidArgumentError("image ids must be text or numbers");
  }
  if (!IsPlainFileName(text)) {
    return absl::InvalidArgumentError(
        absl::StrCat("image id '", text, "' is not a plain file name"));
  }
  return text + ".jpg";
}

// A value of an answers column as a CSV cell.
absl::StatusOr<Cell> ToCell(const JsonValue& v) {
  switch (v.type) {
    case JsonValue::Type::kNull:
      return Cell();
    case JsonValue::Type::kBool:
      return Cell(v.boolean);
    case JsonValue::Type::kInt:
      if (std::optional<int64_t> i = v.AsInt64()) return Cell(*i);
      return Cell(v.text);
    case JsonValue::Type::kFloat:
      return Cell(v.number);
    case JsonValue::Type::kString:
      return Cell(v.text);
    default:
      return absl::UnimplementedError("answers hold a list or object value");
  }
}

absl::StatusOr<Column> AnswerColumn(const Frame& frame, int column, const std::vector<bool>& keep,
                                    std::string name) {
  Column out{std::move(name), frame.dtype(column), {}};
  for (size_t r = 0; r < frame.num_rows(); ++r) {
    if (!keep[r]) continue;
    ASSIGN_OR_RETURN(Cell cell, ToCell(frame.at(r, column)));
    if (out.dtype == Dtype::kInt64 && !std::holds_alternative<int64_t>(cell))
      out.dtype = Dtype::kObject;
    out.cells.push_back(std::move(cell));
  }
  return out;
}

std::set<std::string> KeysOf(const std::vector<std::pair<std::string, JsonValue>>& values) {
  std::set<std::string> keys;
  for (const auto& [key, value] : values) keys.insert(key);
  return keys;
}

std::set<std::string> MemberKeys(const JsonValue& object) {
  std::set<std::string> keys;
  for (const JsonMember& m : object.members) keys.insert(m.key);
  return keys;
}

// Images' ids, each once, in order, with their keys.
using IdList = std::vector<std::pair<std::string, JsonValue>>;

// The locations of each side.
struct LocationSplit {
  std::vector<std::string> train, test;
};

// train_test_split of the distinct locations, then upstream's two loops,
// which move the last location across until the test share of images
// (counted as n_test / (n_images + n_test)) is kTestSize.
absl::StatusOr<LocationSplit> SplitLocations(const Frame& images, int location) {
  const std::vector<std::pair<std::string, JsonValue>> locations = Unique(images, location);
  TrainTestSplitOptions options;
  options.test_size = kTestSize;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestIndices split,
                   TrainTestSplitIndices(static_cast<int64_t>(locations.size()), options));
  LocationSplit result;
  for (int64_t i : split.train_indices) result.train.push_back(locations[i].first);
  for (int64_t i : split.test_indices) result.test.push_back(locations[i].first);

  const double n_images = static_cast<double>(images.num_rows());
  auto test_count = [&] {
    return static_cast<double>(
        Count(IsIn(images, location, std::set<std::string>(result.test.begin(), result.test.end()))));
  };
  for (double n_test = test_count(); n_test / (n_images + n_test) < kTestSize;
       n_test = test_count()) {
    if (result.train.empty()) {
      return absl::InvalidArgumentError("IndexError: no train location left to move to test");
    }
    result.test.push_back(result.train.back());
    result.train.pop_back();
  }
  for (double n_test = test_count(); n_test / (n_images + n_test) > kTestSize;
       n_test = test_count()) {
    if (result.test.empty()) {
      return absl::InvalidArgumentError("IndexError: no test location left to move to train");
    }
    result.train.push_back(result.test.back());
    result.test.pop_back();
  }
  return result;
}

// The distinct ids of the images `mask` selects, in order.
IdList DistinctIds(const Frame& images, int image_id, const std::vector<bool>& mask) {
  IdList ids;
  std::set<std::string> seen;
  for (size_t r = 0; r < images.num_rows(); ++r) {
    const JsonValue& id = images.at(r, image_id);
    std::string key = ValueKey(id);
    if (mask[r] && seen.insert(key).second) ids.emplace_back(key, id);
  }
  return ids;
}

// What is copied from raw/ to public/: the megadetector results and every
// image of each side, into train/ or test/. All must exist.
using CopyList = std::vector<std::pair<fs::path, fs::path>>;
absl::StatusOr<CopyList> PlanCopies(const fs::path& raw, const IdList& train_ids,
                                    const IdList& test_ids) {
  CopyList copies = {
      {"iwildcam2020_megadetector_results.json", "iwildcam2020_megadetector_results.json"}};
  for (const auto& [ids, folder] : {std::pair{&train_ids, "train"}, std::pair{&test_ids, "test"}}) {
    for (const auto& [key, id] : *ids) {
      ASSIGN_OR_RETURN(std::string file, ImageFile(id));
      if (!fs::is_regular_file(raw / "train" / file)) {
        return absl::NotFoundError(absl::StrCat("train/", file, " does not exist"));
      }
      copies.emplace_back(fs::path("train") / file, fs::path(folder) / file);
    }
  }
  if (!fs::is_regular_file(raw / copies[0].first)) {
    return absl::NotFoundError("iwildcam2020_megadetector_results.json does not exist");
  }
  return copies;
}

absl::Status CopyFiles(const fs::path& raw, const fs::path& public_dir, const CopyList& copies) {
  std::error_code error;
  for (const char* folder : {"train", "test"}) {
    fs::create_directories(public_dir / folder, error);
    if (error) return absl::InternalError(absl::StrCat("cannot create public/", folder));
  }
  for (const auto& [from, to] : copies) {
    RETURN_IF_ERROR(CopyRegularFile(raw / from, public_dir / to));
  }
  return absl::OkStatus();
}

// Everything is checked and planned before the first file is written.
absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(JsonValue old_train_json, ReadJson(raw / "iwildcam2020_train_annotations.json"));
  ASSIGN_OR_RETURN(Frame annotations,
                   Frame::FromRecords(old_train_json.Find("annotations"), "train annotations"));
  ASSIGN_OR_RETURN(Frame images, Frame::FromRecords(old_train_json.Find("images"), "train images"));
  ASSIGN_OR_RETURN(Frame categories,
                   Frame::FromRecords(old_train_json.Find("categories"), "train categories"));
  ASSIGN_OR_RETURN(JsonValue old_test_json, ReadJson(raw / "iwildcam2020_test_information.json"));
  ASSIGN_OR_RETURN(Frame test_categories,
                   Frame::FromRecords(old_test_json.Find("categories"), "test categories"));

  ASSIGN_OR_RETURN(int location, images.GetColumn("location", "train images"));
  ASSIGN_OR_RETURN(LocationSplit locations, SplitLocations(images, location));
  const std::vector<bool> train_images =
      IsIn(images, location, std::set<std::string>(locations.train.begin(), locations.train.end()));
  const std::vector<bool> test_images =
      IsIn(images, location, std::set<std::string>(locations.test.begin(), locations.test.end()));

  ASSIGN_OR_RETURN(int image_id, images.GetColumn("id", "train images"));
  const IdList train_ids = DistinctIds(images, image_id, train_images);
  const IdList test_ids = DistinctIds(images, image_id, test_images);
  ASSIGN_OR_RETURN(int annotation_image, annotations.GetColumn("image_id", "train annotations"));
  ASSIGN_OR_RETURN(int category, annotations.GetColumn("category_id", "train annotations"));
  const std::vector<bool> train_annotations =
      IsIn(annotations, annotation_image, KeysOf(train_ids));
  const std::vector<bool> test_annotations = IsIn(annotations, annotation_image, KeysOf(test_ids));

  // private/answers.csv and the sample submission (RandomState(0) draws).
  ASSIGN_OR_RETURN(Column answer_ids,
                   AnswerColumn(annotations, annotation_image, test_annotations, "Id"));
  ASSIGN_OR_RETURN(Column answer_categories,
                   AnswerColumn(annotations, category, test_annotations, "Category"));
  ASSIGN_OR_RETURN(NumpyRandomState rng, NumpyRandomState::Create(0));
  ASSIGN_OR_RETURN(std::vector<int64_t> draws, rng.RandInt(0, 676, answer_ids.cells.size()));
  Column sample_categories{"Category", Dtype::kInt64, {}};
  for (int64_t draw : draws) sample_categories.cells.push_back(draw);
  const Table answers({answer_ids, answer_categories});
  const Table sample({answer_ids, sample_categories});

  // Upstream's checks.
  const std::set<std::string> test_id_keys = KeysOf(test_ids);
  for (size_t r = 0; r < annotations.num_rows(); ++r) {
    if (train_annotations[r] && test_id_keys.count(ValueKey(annotations.at(r, annotation_image)))) {
      return CheckFailed("Train should not contain annotations of test images");
    }
  }
  if (train_ids.size() + test_ids.size() != images.num_rows()) {
    return CheckFailed(
        "The combined length of new_train_ids and new_test_ids should equal the "
        "length of old_train_images");
  }
  const std::set<std::string> train_location_keys(locations.train.begin(), locations.train.end());
  for (const std::string& key : locations.test) {
    if (train_location_keys.count(key)) {
      return CheckFailed("Train and test images should not share locations");
    }
  }

  // The new JSON files: train keeps the annotations, test only images.
  JsonValue new_train_json = JsonValue::Object();
  new_train_json.Set("annotations", annotations.Records(train_annotations));
  new_train_json.Set("images", images.Records(train_images));
  new_train_json.Set("categories",
                     categories.Records(std::vector<bool>(categories.num_rows(), true)));
  const JsonValue* train_info = old_train_json.Find("info");
  const JsonValue* test_info = old_test_json.Find("info");
  if (train_info == nullptr || test_info == nullptr) {
    return absl::InvalidArgumentError("KeyError: both JSON files need an 'info' entry");
  }
  new_train_json.Set("info", *train_info);
  JsonValue new_test_json = JsonValue::Object();
  new_test_json.Set("images", images.Records(test_images));
  new_test_json.Set("categories",
                    test_categories.Records(std::vector<bool>(test_categories.num_rows(), true)));
  new_test_json.Set("info", *test_info);
  if (MemberKeys(new_train_json) != MemberKeys(old_train_json)) {
    return CheckFailed("new_train_json and old_train_json should have the same keys");
  }
  if (MemberKeys(new_test_json) != MemberKeys(old_test_json)) {
    return CheckFailed("new_test_json and old_test_json should have the same keys");
  }
  ASSIGN_OR_RETURN(std::string train_text, DumpJson(new_train_json));
  ASSIGN_OR_RETURN(std::string test_text, DumpJson(new_test_json));
  ASSIGN_OR_RETURN(CopyList copies, PlanCopies(raw, train_ids, test_ids));

  RETURN_IF_ERROR(WriteCsvFile(answers, (private_dir / "answers.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(sample, (public_dir / "sample_submission.csv").string()));
  RETURN_IF_ERROR(
      WriteStringToFile(public_dir / "iwildcam2020_train_annotations.json", train_text));
  RETURN_IF_ERROR(WriteStringToFile(public_dir / "iwildcam2020_test_information.json", test_text));
  return CopyFiles(raw, public_dir, copies);
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
