// Upstream's random-acts-of-pizza/prepare.py. Kaggle's test.json has no
// labels, so the labelled train.json is split (train_test_split with
// random_state=0, test_size = Kaggle's test share of all requests); both
// parts are written back as JSON exactly as Python's json.dump(indent=4)
// writes them, also zipped, with the test part cut down to the fields
// Kaggle's test.json has. The answers are request ids with 0/1 outcomes.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/files.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "formats/zip_archive.h"
#include "pycompat/python_json.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr char kId[] = "request_id";
constexpr char kLabel[] = "requester_received_pizza";

// Kaggle's files are a few MB; anything near this is not a RAOP download.
constexpr std::uintmax_t kMaxJsonBytes = std::uintmax_t{2} << 30;

// `json.load(open(raw / name))`, which upstream then indexes as a list of
// dicts: anything else fails there (IndexError, AttributeError, ...).
absl::StatusOr<std::vector<JsonValue>> LoadRequests(const fs::path& raw, const std::string& name) {
  ASSIGN_OR_RETURN(std::string bytes, ReadFileToString(raw / name, kMaxJsonBytes));
  absl::StatusOr<JsonValue> document = ParseJson(bytes);
  if (!document.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(name, ": ", document.status().message()));
  }
  if (!document->is_array()) {
    return absl::InvalidArgumentError(absl::StrCat(name, " must hold a JSON array of requests"));
  }
  for (size_t i = 0; i < document->items.size(); ++i) {
    if (!document->items[i].is_object()) {
      return absl::InvalidArgumentError(absl::StrCat(name, ": item ", i, " is not a JSON object"));
    }
  }
  return std::move(document->items);
}

std::set<std::string> KeySet(const JsonValue& object) {
  std::set<std::string> keys;
  for (const JsonMember& member : object.members) keys.insert(member.key);
  return keys;
}

// Upstream's `all(set(fields) == set(sample.keys()) for sample in samples)`
// with `fields` from the first sample; an empty list has no first sample.
absl::StatusOr<std::vector<std::string>> CommonFields(const std::vector<JsonValue>& samples,
                                                      const std::string& name) {
  if (samples.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(name, " holds no requests"));
  }
  std::vector<std::string> fields;
  for (const JsonMember& member : samples[0].members) fields.push_back(member.key);
  const std::set<std::string> expected = KeySet(samples[0]);
  for (size_t i = 1; i < samples.size(); ++i) {
    if (KeySet(samples[i]) != expected) {
      return absl::FailedPreconditionError(absl::StrCat("check failed: every request in ", name,
                                                        " should have the same fields (request ", i,
                                                        " differs from request 0)"));
    }
  }
  return fields;
}

// Python's int() of a JSON outcome: bools are 0/1, ints themselves, floats
// truncated. Anything else (null, text, lists) fails upstream too, except a
// numeric string, which int() would parse; Kaggle's outcomes are booleans.
absl::StatusOr<int64_t> PythonInt(const JsonValue& value, size_t row) {
  switch (value.type) {
    case JsonValue::Type::kBool:
      return value.boolean ? 1 : 0;
    case JsonValue::Type::kInt:
      if (std::optional<int64_t> v = value.AsInt64()) return *v;
      break;
    case JsonValue::Type::kFloat:
      if (std::isfinite(value.number) && std::fabs(value.number) < 9.2e18) {
        return static_cast<int64_t>(std::trunc(value.number));
      }
      break;
    default:
      break;
  }
  return absl::InvalidArgumentError(absl::StrCat("test request ", row, ": '", kLabel,
                                                 "' must be a boolean or a number within int64"));
}

// A lone surrogate (see python_json.h) cannot be written to a UTF-8 CSV;
// pandas raises UnicodeEncodeError.
bool HasLoneSurrogate(std::string_view text) {
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if (static_cast<unsigned char>(text[i]) == 0xED &&
        static_cast<unsigned char>(text[i + 1]) >= 0xA0) {
      return true;
    }
  }
  return false;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(std::vector<JsonValue> old_train, LoadRequests(raw, "train.json"));
  ASSIGN_OR_RETURN(std::vector<JsonValue> old_test, LoadRequests(raw, "test.json"));

  const size_t total = old_train.size() + old_test.size();
  if (total == 0) return absl::InvalidArgumentError("train.json and test.json hold no requests");
  const double test_ratio = static_cast<double>(old_test.size()) / static_cast<double>(total);

  ASSIGN_OR_RETURN(std::vector<std::string> all_fields, CommonFields(old_train, "train.json"));
  ASSIGN_OR_RETURN(std::vector<std::string> test_fields, CommonFields(old_test, "test.json"));

  TrainTestSplitOptions options;
  options.test_size = test_ratio;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestIndices split,
                   TrainTestSplitIndices(static_cast<int64_t>(old_train.size()), options));

  JsonValue new_train = JsonValue::Array();
  for (int64_t i : split.train_indices) new_train.items.push_back((old_train)[i]);
  JsonValue new_test_without_labels = JsonValue::Array();
  Column ids{kId, Dtype::kObject, {}};
  Column outcomes{kLabel, Dtype::kInt64, {}};
  for (int64_t i : split.test_indices) {
    const JsonValue& sample = (old_train)[i];
    const size_t row = new_test_without_labels.items.size();
    // Only the fields of Kaggle's test set, in their order there.
    JsonValue unlabelled = JsonValue::Object();
    for (const std::string& field : test_fields) {
      const JsonValue* value = sample.Find(field);
      if (value == nullptr) {
        return absl::InvalidArgumentError(absl::StrCat(
            "train.json request ", i, " lacks the test field '", field, "' (KeyError)"));
      }
      unlabelled.Set(field, *value);
    }
    new_test_without_labels.items.push_back(std::move(unlabelled));

    const JsonValue* id = sample.Find(kId);
    const JsonValue* outcome = sample.Find(kLabel);
    if (id == nullptr || outcome == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("train.json request ", i, " lacks '",
                                                     id == nullptr ? kId : kLabel, "' (KeyError)"));
    }
    // Kaggle's ids are text ("t3_w5491"); other JSON types would change the
    // answers' column type, which we do not mimic.
    if (id->type != JsonValue::Type::kString || HasLoneSurrogate(id->text)) {
      return absl::InvalidArgumentError(
          absl::StrCat("train.json request ", i, ": '", kId, "' must be a (Unicode) string"));
    }
    ASSIGN_OR_RETURN(int64_t received, PythonInt(*outcome, row));
    ids.cells.push_back(id->text);
    outcomes.cells.push_back(received);
  }
  const Table answers({std::move(ids), std::move(outcomes)});
  Table sample_submission = answers;
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, kLabel, int64_t{0}));

  ASSIGN_OR_RETURN(std::string train_json, DumpJson(new_train, 4));
  ASSIGN_OR_RETURN(std::string test_json, DumpJson(new_test_without_labels, 4));

  // Upstream's length and column checks hold by construction here.
  RETURN_IF_ERROR(WriteStringToFile(public_dir / "train.json", train_json));
  RETURN_IF_ERROR(WriteStringToFile(public_dir / "test.json", test_json));
  // shutil.make_archive(public / "train", "zip", public, "train.json"): one
  // entry, named train.json, at the archive root.
  RETURN_IF_ERROR(WriteZip(public_dir / "train.zip",
                           {ZipEntry::FromBytes("train.json", std::move(train_json))}));
  RETURN_IF_ERROR(
      WriteZip(public_dir / "test.zip", {ZipEntry::FromBytes("test.json", std::move(test_json))}));
  RETURN_IF_ERROR(WriteCsvFile(answers, (private_dir / "test.csv").string()));
  return WriteCsvFile(sample_submission, (public_dir / "sampleSubmission.csv").string());
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
