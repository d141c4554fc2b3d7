// Upstream's 3d-object-detection-for-autonomous-vehicles/prepare.py: Kaggle's
// labelled Lyft data (raw/train.csv, raw/train_data/*.json, raw/train_images,
// raw/train_lidar, raw/train_maps) is split by log: sklearn's
// train_test_split(log tokens, test_size=0.2, random_state=0). Every table
// follows that split (samples by their scene_token, train.csv rows, sample
// data, calibrated sensors, ego poses, scenes, annotations and instances),
// is written back with json.dump, and the images and lidar sweeps are copied
// to public/{train,test}_{images,lidar}. private/test.csv holds the test rows
// with a confidence of "1.0" before every box; public/sample_submission.csv
// has the test ids with empty predictions. raw/test_* and
// raw/sample_submission.csv are never read.
//
// Comparisons follow Python's: tokens are compared by value as Python's ==
// and hash do (see PyKey), `x in list/set/dict` on JSON values, pandas'
// `isin` and numpy's `in` on the Id column (NaN matches only in isin).
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/csv.h"
#include "base/files.h"
#include "base/python_float.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "pycompat/python_json.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// Lyft's sample_data.json is about 100 MB; refuse what cannot be a table.
constexpr uintmax_t kMaxJsonBytes = uintmax_t{4} << 30;
constexpr char kMapFile[] = "map_raster_palo_alto.png";

// --- Python value identity -------------------------------------------------

// The identity of a number under Python's == and hash(): bools are 0 and 1,
// an integral float equals the int of the same value.
std::string NumberKey(double value) {
  if (std::isinf(value)) return value > 0 ? "n:inf" : "n:-inf";
  if (value == std::floor(value)) {
    if (value == 0) return "n:0";                               // -0.0 == 0
    return absl::StrCat("n:", absl::StrFormat("%.0f", value));  // exact for integral doubles
  }
  return absl::StrCat("f:", FormatPythonFloat(value));
}

// A key equal for two JSON values exactly when Python's == holds between
// what json.load made of them, for the hashable ones (strings, numbers,
// bools, None); nullopt for lists and dicts, which are unhashable and equal
// no scalar. json.load returns one shared NaN object for every "NaN", and
// Python's `in` (list, set, dict) tests identity before ==, so NaN tokens
// match each other: they share the key "nan".
std::optional<std::string> PyKey(const JsonValue& value) {
  switch (value.type) {
    case JsonValue::Type::kNull:
      return "none";
    case JsonValue::Type::kBool:
      return value.boolean ? "n:1" : "n:0";
    case JsonValue::Type::kInt:
      return absl::StrCat("n:", value.text);
    case JsonValue::Type::kFloat:
      if (std::isnan(value.number)) return "nan";
      return NumberKey(value.number);
    case JsonValue::Type::kString:
      return absl::StrCat("s:", value.text);
    default:
      return std::nullopt;
  }
}

// The key of a train.csv cell under numpy's `token in df["Id"].values`
// (elementwise ==, so a missing value, NaN, equals nothing), or nullopt.
std::optional<std::string> NumpyCellKey(const Cell& cell) {
  if (IsMissing(cell)) return std::nullopt;
  if (const bool* b = std::get_if<bool>(&cell)) return *b ? "n:1" : "n:0";
  if (const int64_t* i = std::get_if<int64_t>(&cell)) return absl::StrCat("n:", *i);
  if (const double* d = std::get_if<double>(&cell)) return NumberKey(*d);
  return absl::StrCat("s:", std::get<std::string>(cell));
}

// The key of a cell under pandas' isin, where NaN matches NaN.
std::string IsinCellKey(const Cell& cell) { return NumpyCellKey(cell).value_or("nan"); }

std::string Describe(const JsonValue& value) { return DumpJson(value).value_or("<unprintable>"); }

// `set(...)`, `x in set`, `d[x]`: a value that must be hashable.
absl::StatusOr<std::string> HashKey(const JsonValue& value) {
  std::optional<std::string> key = PyKey(value);
  if (!key) {
    return absl::InvalidArgumentError(
        absl::StrCat("TypeError: unhashable type: '", value.is_array() ? "list" : "dict", "'"));
  }
  return *key;
}

bool Contains(const std::set<std::string>& keys, const std::optional<std::string>& key) {
  return key.has_value() && keys.count(*key) > 0;
}

// --- JSON tables -----------------------------------------------------------

absl::StatusOr<JsonValue> ReadJson(const fs::path& path) {
  std::error_code error;
  const uintmax_t size = fs::file_size(path, error);
  if (error) {
    return absl::NotFoundError(absl::StrCat("FileNotFoundError: cannot read ", path.string()));
  }
  if (size > kMaxJsonBytes) {
    return absl::InvalidArgumentError(absl::StrCat(path.string(), " is too large"));
  }
  ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
  absl::StatusOr<JsonValue> value = ParseJson(text);
  if (!value.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path.filename().string(), ": ", value.status().message()));
  }
  return value;
}

absl::Status WriteJson(const fs::path& path, const JsonValue& value) {
  ASSIGN_OR_RETURN(std::string text, DumpJson(value));
  return WriteStringToFile(path, text);
}

// `for record in table` followed by `record[key]` on each: the items of a
// list; an empty dict or string iterates as nothing, and any other value
// (numbers, or a dict or string whose items are strings) is a TypeError.
absl::StatusOr<std::vector<JsonValue>> Records(JsonValue table, std::string_view file) {
  if (table.is_array()) return std::move(table.items);
  if ((table.is_object() && table.members.empty()) ||
      (table.type == JsonValue::Type::kString && table.text.empty())) {
    return std::vector<JsonValue>();
  }
  return absl::InvalidArgumentError(
      absl::StrCat("TypeError: ", std::string(file), " is not a list of records"));
}

// `record[key]` for a record of `file`.
absl::StatusOr<const JsonValue*> Member(const JsonValue& record, std::string_view key,
                                        std::string_view file) {
  if (!record.is_object()) {
    return absl::InvalidArgumentError(
        absl::StrCat("TypeError: ", std::string(file),
                     " has a record that is not an object: ", Describe(record)));
  }
  const JsonValue* value = record.Find(key);
  if (value == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "KeyError: '", std::string(key), "' in ", std::string(file), " record ", Describe(record)));
  }
  return value;
}

absl::StatusOr<std::vector<JsonValue>> ReadRecords(const fs::path& raw, std::string_view file) {
  ASSIGN_OR_RETURN(JsonValue table, ReadJson(raw / "train_data" / file));
  return Records(std::move(table), file);
}

// json.dump of a list of records.
absl::Status WriteRecords(const fs::path& path, std::vector<JsonValue> records) {
  return WriteJson(path, JsonValue::Array(std::move(records)));
}

// `shutil.copyfile(src, dst)`: the bytes of a regular file (the real data
// sits on another volume, so no links).
absl::Status CopyFile(const fs::path& from, const fs::path& to) {
  std::error_code error;
  if (!fs::exists(from, error)) {
    return absl::NotFoundError(absl::StrCat("FileNotFoundError: ", from.string()));
  }
  if (!fs::is_regular_file(from, error)) {
    return absl::InvalidArgumentError(absl::StrCat(from.string(), " is not a regular file"));
  }
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, error);
  if (error) {
    return absl::InternalError(
        absl::StrCat("cannot copy ", from.string(), " to ", to.string(), ": ", error.message()));
  }
  return absl::OkStatus();
}

// `Path(text).name`: the last component of a POSIX path, ignoring empty and
// "." components ("" for "", "/" or ".").
std::string PathName(std::string_view text) {
  std::string name;
  for (absl::string_view part : absl::StrSplit(absl::string_view(text.data(), text.size()), '/')) {
    if (!part.empty() && part != ".") name = std::string(part);
  }
  return name;
}

// `len(list(folder.glob("*<suffix>")))` (pathlib's glob matches hidden names
// and folders too).
size_t CountGlob(const fs::path& folder, std::string_view suffix) {
  size_t count = 0;
  std::error_code error;
  for (auto it = fs::directory_iterator(folder, error); !error && it != fs::directory_iterator();
       it.increment(error)) {
    count += it->path().filename().string().ends_with(suffix);
  }
  return count;
}

absl::Status MakeDirs(const fs::path& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) return absl::InternalError(absl::StrCat("cannot create ", dir.string()));
  return absl::OkStatus();
}

// `add_confidence`: "1.0" before every 8 space-separated tokens.
absl::StatusOr<std::string> AddConfidence(const Cell& cell) {
  const std::string* text = std::get_if<std::string>(&cell);
  if (text == nullptr) {
    return absl::InvalidArgumentError(
        "AttributeError: a test PredictionString is not text (missing or numeric), so it has no "
        "split()");
  }
  const std::vector<std::string> tokens =
      absl::StrSplit(absl::string_view(text->data(), text->size()), ' ');
  if (tokens.size() % 8 != 0) {
    return CheckFailed(absl::StrCat("Expected 8 tokens per object, but got ", tokens.size()));
  }
  std::vector<std::string> with_confidence;
  with_confidence.reserve(tokens.size() / 8 * 9);
  for (size_t i = 0; i < tokens.size(); i += 8) {
    with_confidence.push_back("1.0");
    with_confidence.insert(with_confidence.end(), tokens.begin() + i, tokens.begin() + i + 8);
  }
  return absl::StrJoin(with_confidence, " ");
}

// Copies the images or lidar files of sample_data to public/, as upstream's
// last loop does, and runs its count checks.
absl::Status CopySensorFiles(const fs::path& raw, const fs::path& public_dir,
                             const std::vector<JsonValue>& sample_data,
                             const std::set<std::string>& test_ids) {
  for (const char* dir : {"test_images", "train_images", "test_lidar", "train_lidar"}) {
    RETURN_IF_ERROR(MakeDirs(public_dir / dir));
  }
  size_t train_images = 0, test_images = 0, train_lidar = 0, test_lidar = 0;
  std::set<std::string> filenames;
  for (const JsonValue& datum : sample_data) {
    ASSIGN_OR_RETURN(const JsonValue* path, Member(datum, "filename", "sample_data.json"));
    if (path->type != JsonValue::Type::kString) {
      return absl::InvalidArgumentError(
          absl::StrCat("TypeError: sample_data filename is not text: ", Describe(*path)));
    }
    filenames.insert(path->text);
    const std::string filename = PathName(path->text);
    ASSIGN_OR_RETURN(const JsonValue* token, Member(datum, "sample_token", "sample_data.json"));
    const bool is_test = Contains(test_ids, PyKey(*token));
    ASSIGN_OR_RETURN(const JsonValue* format, Member(datum, "fileformat", "sample_data.json"));
    const bool is_jpeg = format->type == JsonValue::Type::kString && format->text == "jpeg";
    const bool is_bin = format->type == JsonValue::Type::kString && format->text == "bin";
    if (!is_jpeg && !is_bin) {
      return absl::InvalidArgumentError(
          absl::StrCat("ValueError: Unexpected `fileformat` in sample data: ", Describe(*format)));
    }
    const std::string suffix = is_jpeg ? "jpeg" : "bin";
    if (!filename.ends_with(suffix)) {
      return CheckFailed(absl::StrCat("Expected .", suffix, ", but got ", filename));
    }
    const fs::path source = raw / (is_jpeg ? "train_images" : "train_lidar") / filename;
    std::error_code error;
    // pathlib's exists() is False for a name with a NUL byte.
    if (filename.find('\0') != std::string::npos || !fs::exists(source, error)) {
      return absl::NotFoundError(
          absl::StrCat("FileNotFoundError: ", source.string(), " does not exist"));
    }
    const std::string folder =
        absl::StrCat(is_test ? "test" : "train", is_jpeg ? "_images" : "_lidar");
    const fs::path destination = public_dir / folder / filename;
    // Upstream logs a warning and skips a file already copied under the
    // same name (it is then missing from the counts).
    if (fs::exists(destination, error)) continue;
    RETURN_IF_ERROR(CopyFile(source, destination));
    ++(is_jpeg ? (is_test ? test_images : train_images) : (is_test ? test_lidar : train_lidar));
  }
  if (train_images + test_images + train_lidar + test_lidar != filenames.size()) {
    return CheckFailed(
        absl::StrCat("Expected image and lidar samples for new train/test to cover all samples (",
                     sample_data.size(), ")"));
  }
  struct Count {
    size_t copied;
    const char* folder;
    const char* suffix;
  };
  for (const Count& c :
       {Count{train_images, "train_images", ".jpeg"}, Count{test_images, "test_images", ".jpeg"},
        Count{train_lidar, "train_lidar", ".bin"}, Count{test_lidar, "test_lidar", ".bin"}}) {
    const size_t found = CountGlob(public_dir / c.folder, c.suffix);
    if (found != c.copied) {
      return CheckFailed(
          absl::StrCat("Expected ", c.copied, " files in ", c.folder, ", but got ", found));
    }
  }
  return absl::OkStatus();
}

// Splits the records of a table whose `key` field holds a value of either
// side's key set ("x in a" first, then "x in b"); any other is ValueError.
// Keys come from `key_of`. Takes the records (moved into the outputs: Lyft's
// tables are large).
template <typename KeyOf>
absl::Status SplitRecords(std::vector<JsonValue> records, std::string_view key,
                          std::string_view file, const std::set<std::string>& train,
                          const std::set<std::string>& test, KeyOf key_of,
                          std::vector<JsonValue>& train_out, std::vector<JsonValue>& test_out) {
  for (JsonValue& record : records) {
    ASSIGN_OR_RETURN(const JsonValue* value, Member(record, key, file));
    ASSIGN_OR_RETURN(std::optional<std::string> k, key_of(*value));
    if (Contains(train, k)) {
      train_out.push_back(std::move(record));
    } else if (Contains(test, k)) {
      test_out.push_back(std::move(record));
    } else {
      return absl::InvalidArgumentError(absl::StrCat("ValueError: ", std::string(file), " ",
                                                     std::string(key), " ", Describe(*value),
                                                     " doesn't belong to either new train or new "
                                                     "test set"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<std::string>> OptionalKey(const JsonValue& value) {
  return PyKey(value);
}
absl::StatusOr<std::optional<std::string>> RequiredKey(const JsonValue& value) {
  ASSIGN_OR_RETURN(std::string key, HashKey(value));
  return std::optional<std::string>(key);
}

// calibrated_sensor.json / ego_pose.json: the record named by each sample
// datum's `token_field` through `{r["token"]: r for r in records}` (the
// last record of a token wins), once per token when `deduplicate` (the
// calibrated sensors) or once per datum (the ego poses). `used` collects
// the tokens taken.
absl::StatusOr<std::vector<JsonValue>> FollowSampleData(const std::vector<JsonValue>& records,
                                                        const std::vector<JsonValue>& sample_data,
                                                        std::string_view token_field,
                                                        std::string_view file, bool deduplicate,
                                                        std::set<std::string>& used) {
  std::unordered_map<std::string, size_t> by_token;
  for (size_t i = 0; i < records.size(); ++i) {
    ASSIGN_OR_RETURN(const JsonValue* token, Member(records[i], "token", file));
    ASSIGN_OR_RETURN(std::string key, HashKey(*token));
    by_token[key] = i;
  }
  std::vector<JsonValue> out;
  std::set<std::string> taken;
  for (const JsonValue& datum : sample_data) {
    ASSIGN_OR_RETURN(const JsonValue* token, Member(datum, token_field, "sample_data.json"));
    const std::optional<std::string> key = PyKey(*token);
    if (deduplicate && Contains(taken, key)) continue;
    if (!key.has_value()) return HashKey(*token).status();
    auto it = by_token.find(*key);
    if (it == by_token.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("KeyError: ", Describe(*token), " is not a ", std::string(file), " token"));
    }
    out.push_back(records[it->second]);
    taken.insert(*key);
    used.insert(*key);
  }
  return out;
}

// A table split in two, and a key set split in two.
struct SplitTables {
  std::vector<JsonValue> train, test;
};
struct SplitKeys {
  std::set<std::string> train, test;
};

// Where the two halves of train_data/ go.
struct DataDirs {
  fs::path train, test;
};

absl::Status WriteSplit(const DataDirs& dirs, std::string_view file, SplitTables tables) {
  RETURN_IF_ERROR(WriteRecords(dirs.train / file, std::move(tables.train)));
  return WriteRecords(dirs.test / file, std::move(tables.test));
}

// The hashable keys of `field` over both sides' records.
absl::StatusOr<SplitKeys> KeysOf(const SplitTables& tables, std::string_view field,
                                 std::string_view file) {
  SplitKeys keys;
  for (auto [from, to] : {std::pair{&tables.train, &keys.train}, std::pair{&tables.test, &keys.test}}) {
    for (const JsonValue& record : *from) {
      ASSIGN_OR_RETURN(const JsonValue* token, Member(record, field, file));
      ASSIGN_OR_RETURN(std::string key, HashKey(*token));
      to->insert(key);
    }
  }
  return keys;
}

// log.json: the split itself. Returns the log keys of each side; the test
// logs' tokens, as json.load made them, go to `test_log_ids`.
absl::StatusOr<SplitKeys> SplitLogs(const fs::path& raw, const DataDirs& dirs,
                                    JsonValue& test_log_ids) {
  ASSIGN_OR_RETURN(std::vector<JsonValue> logs, ReadRecords(raw, "log.json"));
  std::vector<JsonValue> log_ids;
  std::vector<std::string> log_keys;
  for (const JsonValue& log : logs) {
    ASSIGN_OR_RETURN(const JsonValue* token, Member(log, "token", "log.json"));
    ASSIGN_OR_RETURN(std::string key, HashKey(*token));
    log_ids.push_back(*token);
    log_keys.push_back(key);
  }
  if (std::set<std::string>(log_keys.begin(), log_keys.end()).size() != log_keys.size()) {
    return CheckFailed("Log IDs must be unique");
  }
  TrainTestSplitOptions options;
  options.test_size = 0.2;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestIndices split,
                   TrainTestSplitIndices(static_cast<int64_t>(log_ids.size()), options));
  SplitKeys keys;
  test_log_ids = JsonValue::Array();
  for (int64_t i : split.train_indices) keys.train.insert(log_keys[i]);
  for (int64_t i : split.test_indices) {
    keys.test.insert(log_keys[i]);
    test_log_ids.items.push_back(log_ids[i]);
  }
  SplitTables tables;
  for (size_t i = 0; i < logs.size(); ++i) {
    if (keys.train.count(log_keys[i])) tables.train.push_back(logs[i]);
    if (keys.test.count(log_keys[i])) tables.test.push_back(logs[i]);
  }
  RETURN_IF_ERROR(WriteSplit(dirs, "log.json", std::move(tables)));
  return keys;
}

// sample.json: by `scene_token in train_log_ids` (upstream compares scene
// tokens with log tokens; Lyft has one scene per log under the same token).
absl::StatusOr<SplitTables> SplitSamples(const fs::path& raw, const SplitKeys& logs,
                                         const DataDirs& dirs) {
  ASSIGN_OR_RETURN(std::vector<JsonValue> samples, ReadRecords(raw, "sample.json"));
  SplitTables split;
  for (const JsonValue& sample : samples) {
    ASSIGN_OR_RETURN(const JsonValue* scene, Member(sample, "scene_token", "sample.json"));
    const std::optional<std::string> key = PyKey(*scene);
    if (Contains(logs.train, key)) split.train.push_back(sample);
    if (Contains(logs.test, key)) split.test.push_back(sample);
  }
  if (split.train.size() + split.test.size() != samples.size()) {
    return CheckFailed(absl::StrCat("New train (", split.train.size(), ") and test (",
                                    split.test.size(), ") samples must cover all samples (",
                                    samples.size(), ")"));
  }
  RETURN_IF_ERROR(WriteSplit(dirs, "sample.json", split));
  return split;
}

// train.csv: the rows whose Id is a sample token of each side, in order, to
// public/train.csv; private/test.csv with a confidence of 1.0 before every
// box; public/sample_submission.csv: the test ids, empty predictions.
// Returns the Ids of each side as numpy's `in` on `new_*_df["Id"].values`
// sees them.
absl::StatusOr<SplitKeys> SplitTrainCsv(const fs::path& raw, const SplitTables& samples,
                                        const fs::path& public_dir, const fs::path& private_dir) {
  ASSIGN_OR_RETURN(Table train_df, ReadCsvFile((raw / "train.csv").string()));
  const Column* ids = train_df.Find("Id");
  if (ids == nullptr) return absl::InvalidArgumentError("KeyError: train.csv has no 'Id' column");
  ASSIGN_OR_RETURN(SplitKeys sample_tokens, KeysOf(samples, "token", "sample.json"));
  std::vector<int64_t> train_rows, test_rows;
  for (size_t row = 0; row < ids->cells.size(); ++row) {
    const std::string key = IsinCellKey(ids->cells[row]);
    if (sample_tokens.train.count(key)) train_rows.push_back(static_cast<int64_t>(row));
    if (sample_tokens.test.count(key)) test_rows.push_back(static_cast<int64_t>(row));
  }
  ASSIGN_OR_RETURN(Table new_train_df, TakeRows(train_df, train_rows));
  ASSIGN_OR_RETURN(Table new_test_df, TakeRows(train_df, test_rows));
  if (train_rows.size() + test_rows.size() != train_df.num_rows()) {
    return CheckFailed(absl::StrCat("New train (", train_rows.size(), ") and test (",
                                    test_rows.size(), ") annotations must cover all annotations (",
                                    train_df.num_rows(), ")"));
  }
  if (train_rows.size() != samples.train.size()) {
    return CheckFailed(absl::StrCat("New train rows (", train_rows.size(),
                                    ") must match train samples (", samples.train.size(), ")"));
  }
  if (test_rows.size() != samples.test.size()) {
    return CheckFailed(absl::StrCat("New test rows (", test_rows.size(),
                                    ") must match test samples (", samples.test.size(), ")"));
  }
  RETURN_IF_ERROR(WriteCsvFile(new_train_df, (public_dir / "train.csv").string()));

  Column* predictions = new_test_df.FindMutable("PredictionString");
  if (predictions == nullptr) {
    return absl::InvalidArgumentError("KeyError: train.csv has no 'PredictionString' column");
  }
  Column with_confidence{predictions->name, Dtype::kObject, {}};
  for (const Cell& cell : predictions->cells) {
    ASSIGN_OR_RETURN(std::string text, AddConfidence(cell));
    with_confidence.cells.push_back(std::move(text));
  }
  *predictions = std::move(with_confidence);
  RETURN_IF_ERROR(WriteCsvFile(new_test_df, (private_dir / "test.csv").string()));

  ASSIGN_OR_RETURN(Table sample_submission, (SelectColumns(new_test_df, {"Id"})));
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "PredictionString", std::string()));
  RETURN_IF_ERROR(WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string()));

  SplitKeys split_ids;
  for (auto [table, to] :
       {std::pair{&new_train_df, &split_ids.train}, std::pair{&new_test_df, &split_ids.test}}) {
    for (const Cell& cell : table->Find("Id")->cells) {
      if (std::optional<std::string> key = NumpyCellKey(cell)) to->insert(*key);
    }
  }
  return split_ids;
}

// calibrated_sensor.json (each side's sensors in order of first use,
// `deduplicate`) and ego_pose.json (one pose per sample datum, repeats
// kept): the records each side's sample data names in `token_field`, which
// together must use every record (`what` names them in the message).
absl::Status SplitFollowingSampleData(const fs::path& raw, std::string_view file,
                                      std::string_view token_field, bool deduplicate,
                                      std::string_view what, const SplitTables& sample_data,
                                      const DataDirs& dirs) {
  ASSIGN_OR_RETURN(std::vector<JsonValue> records, ReadRecords(raw, file));
  std::set<std::string> used;
  SplitTables split;
  ASSIGN_OR_RETURN(split.train, FollowSampleData(records, sample_data.train, token_field, file,
                                                 deduplicate, used));
  ASSIGN_OR_RETURN(split.test, FollowSampleData(records, sample_data.test, token_field, file,
                                                deduplicate, used));
  if (used.size() != records.size()) {
    return CheckFailed(absl::StrCat("New train and test ", std::string(what), " must cover all ",
                                    std::string(what), " (", records.size(), ")"));
  }
  return WriteSplit(dirs, file, std::move(split));
}

// map.json: upstream sets the map's log_tokens to the train logs and then
// to the test logs on a shallow copy of the same list, i.e. on the same
// dict, so BOTH files list the test logs.
absl::Status WriteMaps(const fs::path& raw, const JsonValue& test_log_ids, const DataDirs& dirs) {
  ASSIGN_OR_RETURN(JsonValue maps, ReadJson(raw / "train_data" / "map.json"));
  if (!maps.is_array()) {
    return absl::InvalidArgumentError("TypeError: map.json is not a list of maps");
  }
  if (maps.items.size() != 1) return CheckFailed("Expected only one map in the raw dataset");
  if (!maps.items[0].is_object()) {
    return absl::InvalidArgumentError("TypeError: the map in map.json is not an object");
  }
  maps.items[0].Set("log_tokens", test_log_ids);
  RETURN_IF_ERROR(WriteJson(dirs.train / "map.json", maps));
  return WriteJson(dirs.test / "map.json", maps);
}

// sample_annotation.json and instance.json: train only (Kaggle's test folder
// has neither), the instances by the annotations that name them.
absl::Status SplitAnnotations(const fs::path& raw, const SplitKeys& sample_ids,
                              const DataDirs& dirs) {
  ASSIGN_OR_RETURN(std::vector<JsonValue> annotations, ReadRecords(raw, "sample_annotation.json"));
  SplitTables split_annotations;
  RETURN_IF_ERROR(SplitRecords(std::move(annotations), "sample_token", "sample_annotation.json",
                               sample_ids.train, sample_ids.test, OptionalKey,
                               split_annotations.train, split_annotations.test));
  RETURN_IF_ERROR(WriteRecords(dirs.train / "sample_annotation.json", split_annotations.train));

  ASSIGN_OR_RETURN(SplitKeys instance_ids,
                   KeysOf(split_annotations, "instance_token", "sample_annotation.json"));
  ASSIGN_OR_RETURN(std::vector<JsonValue> instances, ReadRecords(raw, "instance.json"));
  SplitTables split_instances;
  RETURN_IF_ERROR(SplitRecords(std::move(instances), "token", "instance.json", instance_ids.train,
                               instance_ids.test, RequiredKey, split_instances.train,
                               split_instances.test));
  return WriteRecords(dirs.train / "instance.json", std::move(split_instances.train));
}

// The steps in upstream's order, which decides which error a broken raw
// download reports first.
absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  const DataDirs dirs{.train = public_dir / "train_data", .test = public_dir / "test_data"};
  for (const fs::path& dir : {dirs.test, dirs.train}) {
    RETURN_IF_ERROR(MakeDirs(dir));
  }
  JsonValue test_log_ids;
  ASSIGN_OR_RETURN(SplitKeys logs, SplitLogs(raw, dirs, test_log_ids));
  ASSIGN_OR_RETURN(SplitTables samples, SplitSamples(raw, logs, dirs));
  ASSIGN_OR_RETURN(SplitKeys sample_ids, SplitTrainCsv(raw, samples, public_dir, private_dir));

  // sample_data.json: by `sample_token in new_*_df["Id"].values`.
  ASSIGN_OR_RETURN(std::vector<JsonValue> sample_data, ReadRecords(raw, "sample_data.json"));
  SplitTables split_sample_data;
  RETURN_IF_ERROR(SplitRecords(sample_data, "sample_token", "sample_data.json", sample_ids.train,
                               sample_ids.test, OptionalKey, split_sample_data.train,
                               split_sample_data.test));
  RETURN_IF_ERROR(WriteSplit(dirs, "sample_data.json", split_sample_data));

  // The one map, identical in Kaggle's train and test folders; the tables
  // that are the same on both sides, copied.
  for (const char* dir : {"test_maps", "train_maps"}) {
    RETURN_IF_ERROR(MakeDirs(public_dir / dir));
    RETURN_IF_ERROR(CopyFile(raw / "train_maps" / kMapFile, public_dir / dir / kMapFile));
  }
  auto copy_table = [&](const char* file) -> absl::Status {
    for (const fs::path& dir : {dirs.train, dirs.test}) {
      RETURN_IF_ERROR(CopyFile(raw / "train_data" / file, dir / file));
    }
    return absl::OkStatus();
  };
  RETURN_IF_ERROR(copy_table("attribute.json"));
  RETURN_IF_ERROR(SplitFollowingSampleData(raw, "calibrated_sensor.json", "calibrated_sensor_token",
                                           /*deduplicate=*/true, "calibrated sensors",
                                           split_sample_data, dirs));
  RETURN_IF_ERROR(copy_table("category.json"));
  RETURN_IF_ERROR(SplitFollowingSampleData(raw, "ego_pose.json", "ego_pose_token",
                                           /*deduplicate=*/false, "ego poses", split_sample_data,
                                           dirs));
  RETURN_IF_ERROR(WriteMaps(raw, test_log_ids, dirs));

  // scene.json: by log_token.
  ASSIGN_OR_RETURN(std::vector<JsonValue> scenes, ReadRecords(raw, "scene.json"));
  SplitTables split_scenes;
  RETURN_IF_ERROR(SplitRecords(std::move(scenes), "log_token", "scene.json", logs.train, logs.test,
                               OptionalKey, split_scenes.train, split_scenes.test));
  RETURN_IF_ERROR(WriteSplit(dirs, "scene.json", std::move(split_scenes)));
  RETURN_IF_ERROR(copy_table("sensor.json"));
  RETURN_IF_ERROR(copy_table("visibility.json"));

  RETURN_IF_ERROR(SplitAnnotations(raw, sample_ids, dirs));
  return CopySensorFiles(raw, public_dir, sample_data, sample_ids.test);
}

}  // namespace

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID,
    .prepare = &Prepare,
});

}  // namespace mlebench
