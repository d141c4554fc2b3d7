// Upstream's statoil-iceberg-classifier-challenge/prepare.py: Kaggle's
// labelled train.json (inside train.json.7z) split 80/20 with
// train_test_split; the new train and the unlabelled new test (only the
// fields Kaggle's own test.json has) are written back as JSON with Python's
// json.dump and compressed as public/train.json.7z and public/test.json.7z;
// the held-out labels become private/test.csv and a 0.5 sample submission is
// written to private/ and, compressed, to public/.
//
// Kaggle's JSON files are large (test.json is about 1.5 GB of float lists),
// so each array item is parsed, checked and re-serialised on its own rather
// than the whole file at once: the output is the same, since json.dump of a
// list is "[" + ", ".join(items) + "]".
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/files.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "competitions/common/preparer.h"
#include "formats/seven_zip.h"
#include "pycompat/python_json.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The texts of the items of the JSON array `text`, each still to be parsed
// (ParseJson then checks it fully, so together they accept exactly the
// arrays json.load accepts). Anything but a non-empty array is an error, as
// upstream's `data[0].keys()` fails on it.
absl::StatusOr<std::vector<std::string_view>> SplitArrayItems(std::string_view text,
                                                              std::string_view file) {
  auto error = [&](std::string_view what) {
    return absl::InvalidArgumentError(absl::StrCat(std::string(file), ": ", std::string(what)));
  };
  size_t pos = 0;
  while (pos < text.size() && IsJsonSpace(text[pos])) ++pos;
  if (pos == text.size() || text[pos] != '[') return error("expected a JSON array of samples");
  ++pos;
  std::vector<std::string_view> items;
  size_t rest = pos;
  while (rest < text.size() && IsJsonSpace(text[rest])) ++rest;
  if (rest < text.size() && text[rest] == ']') return error("the array of samples is empty");
  while (true) {
    const size_t start = pos;
    int depth = 0;
    bool closed = false;
    for (; pos < text.size(); ++pos) {
      const char c = text[pos];
      if (c == '"') {
        for (++pos; pos < text.size() && text[pos] != '"'; ++pos) {
          if (text[pos] == '\\') ++pos;
        }
        if (pos >= text.size()) return error("unterminated string");
      } else if (c == '[' || c == '{') {
        ++depth;
      } else if (c == ']' || c == '}') {
        if (depth == 0) {
          if (c == '}') return error("unbalanced '}'");
          closed = true;
          break;
        }
        --depth;
      } else if (c == ',' && depth == 0) {
        break;
      }
    }
    if (pos >= text.size()) return error("unterminated array");
    items.push_back(text.substr(start, pos - start));
    ++pos;  // past ',' or ']'
    if (closed) break;
  }
  for (; pos < text.size(); ++pos) {
    if (!IsJsonSpace(text[pos])) return error("extra data after the array");
  }
  return items;
}

// One array item parsed, which must be an object (upstream calls .keys()).
absl::StatusOr<JsonValue> ParseSample(std::string_view item, std::string_view file, size_t index) {
  absl::StatusOr<JsonValue> sample = ParseJson(item);
  if (!sample.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(std::string(file), " sample ", index, ": ",
                                                   sample.status().message()));
  }
  if (!sample->is_object()) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(file), " sample ", index, " is not a JSON object"));
  }
  return sample;
}

std::vector<std::string> Keys(const JsonValue& object) {
  std::vector<std::string> keys;
  for (const JsonMember& member : object.members) keys.push_back(member.key);
  return keys;
}

std::set<std::string> KeySet(const JsonValue& object) {
  std::set<std::string> keys;
  for (const JsonMember& member : object.members) keys.insert(member.key);
  return keys;
}

// Python's int(value) for the label: ints, bools, floats truncated toward
// zero, and strings of decimal digits (optionally signed, surrounded by
// whitespace, digits grouped with single underscores).
absl::StatusOr<int64_t> PythonInt(const JsonValue& value) {
  switch (value.type) {
    case JsonValue::Type::kInt:
      if (std::optional<int64_t> v = value.AsInt64(); v.has_value()) return *v;
      break;
    case JsonValue::Type::kBool:
      return value.boolean ? 1 : 0;
    case JsonValue::Type::kFloat:
      if (value.number > -9.2e18 && value.number < 9.2e18) {
        return static_cast<int64_t>(value.number);  // truncates, as int() does
      }
      break;
    case JsonValue::Type::kString: {
      std::string_view s = value.text;
      while (!s.empty() && (s.front() == ' ' || (s.front() >= '\t' && s.front() <= '\r'))) {
        s.remove_prefix(1);
      }
      while (!s.empty() && (s.back() == ' ' || (s.back() >= '\t' && s.back() <= '\r'))) {
        s.remove_suffix(1);
      }
      bool negative = false;
      if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
        negative = s.front() == '-';
        s.remove_prefix(1);
      }
      int64_t v = 0;
      bool ok = !s.empty() && s.front() != '_' && s.back() != '_' && s.size() <= 18;
      for (size_t i = 0; ok && i < s.size(); ++i) {
        if (s[i] == '_') {
          ok = s[i - 1] != '_';
        } else if (s[i] >= '0' && s[i] <= '9') {
          v = v * 10 + (s[i] - '0');
        } else {
          ok = false;
        }
      }
      if (ok) return negative ? -v : v;
      break;
    }
    default:
      break;
  }
  return absl::InvalidArgumentError("is_iceberg is not a value int() accepts");
}

// The sample's id as a CSV cell. Kaggle's ids are strings; ints are kept
// too. Other JSON types (which pandas would write in ways we do not model,
// and which upstream's set of ids rejects when unhashable) are an error.
absl::StatusOr<Cell> IdCell(const JsonValue& id) {
  if (id.type == JsonValue::Type::kString) return Cell(id.text);
  if (id.type == JsonValue::Type::kInt) {
    if (std::optional<int64_t> v = id.AsInt64(); v.has_value()) return Cell(*v);
  }
  return absl::InvalidArgumentError("sample ids must be strings or 64-bit integers");
}

// A key under which two ids are equal exactly when Python's == says so.
std::string IdKey(const Cell& id) {
  if (const std::string* s = std::get_if<std::string>(&id)) return "s" + *s;
  return absl::StrCat("i", std::get<int64_t>(id));
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& scratch) {
  const fs::path extracted = scratch / "extracted";
  RETURN_IF_ERROR(Extract7z(raw / "train.json.7z", extracted));
  RETURN_IF_ERROR(Extract7z(raw / "test.json.7z", extracted));

  // Kaggle's test.json: only its field names matter (upstream checks that
  // every sample has the same ones and keeps those in the new test).
  std::vector<std::string> test_fields;
  {
    ASSIGN_OR_RETURN(std::string text, ReadFileToString(extracted / "data/processed/test.json"));
    ASSIGN_OR_RETURN(std::vector<std::string_view> items, SplitArrayItems(text, "test.json"));
    std::set<std::string> field_set;
    for (size_t i = 0; i < items.size(); ++i) {
      ASSIGN_OR_RETURN(JsonValue sample, ParseSample((items)[i], "test.json", i));
      if (i == 0) {
        test_fields = Keys(sample);
        field_set = KeySet(sample);
      } else if (KeySet(sample) != field_set) {
        return CheckFailed("Inconsistent fields in test set");
      }
    }
  }

  ASSIGN_OR_RETURN(std::string train_text, ReadFileToString(extracted / "data/processed/train.json"));
  ASSIGN_OR_RETURN(std::vector<std::string_view> items, SplitArrayItems(train_text, "train.json"));
  const size_t n = items.size();

  TrainTestSplitOptions options;
  options.test_size = 0.2;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestIndices split, TrainTestSplitIndices(static_cast<int64_t>(n), options));
  std::vector<bool> in_test(n, false);
  for (int64_t i : split.test_indices) in_test[i] = true;

  // Each sample as json.dump writes it into its split's list; ids and labels
  // of all samples.
  std::vector<std::string> dumped(n);
  std::vector<Cell> ids(n);
  std::vector<int64_t> labels(n, 0);
  std::set<std::string> all_fields;
  for (size_t i = 0; i < n; ++i) {
    ASSIGN_OR_RETURN(JsonValue sample, ParseSample((items)[i], "train.json", i));
    if (i == 0) {
      all_fields = KeySet(sample);
    } else if (KeySet(sample) != all_fields) {
      return CheckFailed("Inconsistent fields in train set");
    }
    const JsonValue* id = sample.Find("id");
    if (id == nullptr) return absl::InvalidArgumentError("train.json samples have no 'id'");
    ASSIGN_OR_RETURN(Cell id_cell, IdCell(*id));
    ids[i] = std::move(id_cell);
    absl::StatusOr<std::string> text;
    if (in_test[i]) {
      const JsonValue* label = sample.Find("is_iceberg");
      if (label == nullptr) {
        return absl::InvalidArgumentError("train.json samples have no 'is_iceberg'");
      }
      absl::StatusOr<int64_t> value = PythonInt(*label);
      if (!value.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("train.json sample ", i, ": ", value.status().message()));
      }
      labels[i] = *value;
      JsonValue without_labels = JsonValue::Object();
      for (const std::string& field : test_fields) {
        const JsonValue* value_of_field = sample.Find(field);
        if (value_of_field == nullptr) {
          return absl::InvalidArgumentError(absl::StrCat(
              "train.json samples lack the test field '", field, "'"));
        }
        without_labels.Set(field, *value_of_field);
      }
      text = DumpJson(without_labels);
    } else {
      text = DumpJson(sample);
    }
    if (!text.ok()) return text.status();
    dumped[i] = *std::move(text);
  }

  // Upstream's checks on ids (it runs them last; we do before writing).
  std::set<std::string> train_ids;
  for (int64_t i : split.train_indices) train_ids.insert(IdKey(ids[i]));
  for (int64_t i : split.test_indices) {
    if (train_ids.count(IdKey(ids[i])) > 0) {
      return CheckFailed("Train and test ids should not overlap");
    }
  }

  auto join = [&](const std::vector<int64_t>& indices) {
    std::string out = "[";
    for (size_t k = 0; k < indices.size(); ++k) {
      if (k > 0) out += ", ";
      out += dumped[indices[k]];
    }
    out += "]";
    return out;
  };

  // Answers: a DataFrame built from Python values (so a column of ints is
  // int64 and one of strings, or of both, is object).
  Column id_column{"id", Dtype::kInt64, {}};
  Column label_column{"is_iceberg", Dtype::kInt64, {}};
  for (int64_t i : split.test_indices) {
    if (std::holds_alternative<std::string>(ids[i])) id_column.dtype = Dtype::kObject;
    id_column.cells.push_back(ids[i]);
    label_column.cells.push_back(Cell(int64_t{labels[i]}));
  }
  Table answers({id_column, label_column});
  Column half{"is_iceberg", Dtype::kFloat64, std::vector<Cell>(label_column.cells.size(), 0.5)};
  Table sample_submission({id_column, half});

  RETURN_IF_ERROR(Write7z(public_dir / "train.json.7z",
                          {SevenZipEntry::FromBytes("train.json", join(split.train_indices))}));
  RETURN_IF_ERROR(Write7z(public_dir / "test.json.7z",
                          {SevenZipEntry::FromBytes("test.json", join(split.test_indices))}));
  RETURN_IF_ERROR(WriteCsvFile(answers, (private_dir / "test.csv").string()));
  const std::string sample_csv = WriteCsvString(sample_submission);
  RETURN_IF_ERROR(WriteStringToFile(private_dir / "sample_submission.csv", sample_csv));
  return Write7z(public_dir / "sample_submission.csv.7z",
                 {SevenZipEntry::FromBytes("sample_submission.csv", sample_csv)});
}

MLEBENCH_REGISTER_PREPARER(
    CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
