// Upstream's tensorflow2-question-answering/prepare.py: Kaggle's
// simplified-nq-train.jsonl is split 90/10 chunk by chunk (pandas reads it
// 1000 lines at a time; each chunk gets its own train_test_split with
// random_state 0). Train lines go to public/simplified-nq-train.jsonl, test
// lines to private/test.jsonl (the answers) and, without labels, to
// public/simplified-nq-test.jsonl; the gold and sample submissions have a
// "<id>_short" and a "<id>_long" row per test example.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "competitions/common/preparer.h"
#include "pycompat/pandas_json.h"
#include "pycompat/python_json.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

constexpr char kTrainFile[] = "simplified-nq-train.jsonl";
constexpr int64_t kChunkLines = 1000;  // upstream's read_json chunksize

// One chunk as pandas' DataFrame of its records: columns in first-seen
// order, a key absent from a record is NaN (null).
struct Frame {
  std::vector<std::string> columns;
  std::vector<std::vector<JsonValue>> rows;
};

int ColumnIndex(const Frame& frame, std::string_view name) {
  for (size_t i = 0; i < frame.columns.size(); ++i) {
    if (frame.columns[i] == name) return static_cast<int>(i);
  }
  return -1;
}

absl::StatusOr<Frame> ParseChunk(const std::vector<std::string>& lines, int64_t first_line) {
  Frame frame;
  std::vector<JsonValue> records;
  for (size_t i = 0; i < lines.size(); ++i) {
    // pandas drops blank lines (the line count check below then fails).
    if (lines[i].find_first_not_of(" \t\r") == std::string::npos) continue;
    absl::StatusOr<JsonValue> record = ParseJson(lines[i]);
    if (!record.ok() || !record->is_object()) {
      return absl::InvalidArgumentError(absl::StrCat(
          kTrainFile, " line ", first_line + static_cast<int64_t>(i) + 1, ": not a JSON object",
          record.ok() ? "" : absl::StrCat(" (", record.status().message(), ")")));
    }
    for (const JsonMember& member : record->members) {
      if (ColumnIndex(frame, member.key) < 0) frame.columns.push_back(member.key);
    }
    records.push_back(*std::move(record));
  }
  for (const JsonValue& record : records) {
    std::vector<JsonValue>& row = frame.rows.emplace_back();
    for (const std::string& column : frame.columns) {
      const JsonValue* value = record.Find(column);
      row.push_back(value != nullptr ? *value : JsonValue::Null());
    }
  }
  // A column of ints with a missing value is float64 in pandas, so to_json
  // writes its ints as floats.
  for (size_t c = 0; c < frame.columns.size(); ++c) {
    bool ints = false, nulls = false, others = false;
    for (const auto& row : frame.rows) {
      const JsonValue::Type type = row[c].type;
      ints |= type == JsonValue::Type::kInt;
      nulls |= type == JsonValue::Type::kNull;
      others |= type != JsonValue::Type::kInt && type != JsonValue::Type::kNull &&
                type != JsonValue::Type::kFloat;
    }
    if (!ints || !nulls || others) continue;
    for (auto& row : frame.rows) {
      if (row[c].type == JsonValue::Type::kInt) {
        row[c] = JsonValue::Float(std::stod(row[c].text));
      }
    }
  }
  return frame;
}

// `df["example_id"].astype(str)`.
absl::Status ExampleIdsToText(Frame& frame) {
  const int column = ColumnIndex(frame, "example_id");
  if (column < 0) return absl::InvalidArgumentError(absl::StrCat(kTrainFile, ": no example_id"));
  for (auto& row : frame.rows) {
    JsonValue& id = row[column];
    if (id.type == JsonValue::Type::kInt || id.type == JsonValue::Type::kString) {
      id = JsonValue::String(id.text);
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat(kTrainFile, ": example_id is neither an integer nor a string"));
    }
  }
  return absl::OkStatus();
}

absl::Status Append(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::app);
  out << text;
  out.close();
  if (!out) return absl::InternalError(absl::StrCat("cannot write ", path.string()));
  return absl::OkStatus();
}

// Python's f"{value}" of an annotation's token index.
absl::StatusOr<std::string> TokenText(const JsonValue* object, std::string_view key) {
  const JsonValue* value = object == nullptr ? nullptr : object->Find(key);
  if (value == nullptr || value->type != JsonValue::Type::kInt) {
    return absl::InvalidArgumentError(
        absl::StrCat(kTrainFile, ": annotation lacks an integer ", std::string(key)));
  }
  return value->text;
}

struct GoldRow {
  std::string example_id;
  std::string prediction;
};

// The gold short and long rows of one test example.
absl::Status AddGoldRows(const std::string& example_id, const JsonValue& annotations,
                         std::vector<GoldRow>& gold) {
  if (!annotations.is_array() || annotations.items.size() != 1) {
    return absl::FailedPreconditionError(
        absl::StrCat("example ", example_id, ": expected exactly one annotation"));
  }
  const JsonValue& annotation = annotations.items[0];
  const JsonValue* yes_no = annotation.Find("yes_no_answer");
  const JsonValue* short_answers = annotation.Find("short_answers");
  const JsonValue* long_answer = annotation.Find("long_answer");
  if (yes_no == nullptr || short_answers == nullptr || !short_answers->is_array() ||
      long_answer == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("example ", example_id, ": malformed annotation"));
  }
  std::string short_text;
  if (!(yes_no->type == JsonValue::Type::kString && yes_no->text == "NONE")) {
    if (yes_no->type != JsonValue::Type::kString) {
      return absl::InvalidArgumentError(
          absl::StrCat("example ", example_id, ": yes_no_answer is not a string"));
    }
    short_text = yes_no->text;
  } else if (!short_answers->items.empty()) {
    ASSIGN_OR_RETURN(std::string start, TokenText(&short_answers->items[0], "start_token"));
    ASSIGN_OR_RETURN(std::string end, TokenText(&short_answers->items[0], "end_token"));
    short_text = absl::StrCat(start, ":", end);
  }
  gold.push_back({example_id + "_short", short_text});
  ASSIGN_OR_RETURN(std::string long_start, TokenText(long_answer, "start_token"));
  std::string long_text;
  if (long_start != "-1") {
    ASSIGN_OR_RETURN(std::string long_end, TokenText(long_answer, "end_token"));
    long_text = absl::StrCat(long_start, ":", long_end);
  }
  gold.push_back({example_id + "_long", long_text});
  return absl::OkStatus();
}

Table SubmissionTable(const std::vector<GoldRow>& rows, bool blank) {
  Column ids{.name = "example_id", .dtype = Dtype::kObject};
  Column predictions{.name = "PredictionString", .dtype = Dtype::kObject};
  for (const GoldRow& row : rows) {
    ids.cells.push_back(row.example_id);
    predictions.cells.push_back(blank ? std::string() : row.prediction);
  }
  return Table({std::move(ids), std::move(predictions)});
}

absl::Status Prepare(const std::filesystem::path& raw, const std::filesystem::path& public_dir,
                     const std::filesystem::path& private_dir,
                     const std::filesystem::path& /*scratch*/) {
  const std::filesystem::path train_path = raw / kTrainFile;
  std::ifstream in(train_path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", train_path.string()));

  // Python counts a final line without '\n' too.
  int64_t n_lines = 0;
  int64_t n_train = 0;
  int64_t n_test = 0;
  std::vector<GoldRow> gold;
  std::string line;
  std::vector<std::string> lines;
  bool at_end = false;
  while (!at_end) {
    lines.clear();
    while (static_cast<int64_t>(lines.size()) < kChunkLines && std::getline(in, line)) {
      lines.push_back(std::move(line));
    }
    at_end = static_cast<int64_t>(lines.size()) < kChunkLines;
    if (in.bad()) return absl::DataLossError(absl::StrCat("cannot read ", train_path.string()));
    if (lines.empty()) break;
    const int64_t first_line = n_lines;
    n_lines += static_cast<int64_t>(lines.size());

    ASSIGN_OR_RETURN(Frame frame, ParseChunk(lines, first_line));
    RETURN_IF_ERROR(ExampleIdsToText(frame));
    TrainTestSplitOptions options;
    options.test_size = 0.1;
    options.random_state = 0;
    ASSIGN_OR_RETURN(TrainTestIndices split,
                     TrainTestSplitIndices(static_cast<int64_t>(frame.rows.size()), options));

    std::vector<std::string> kept_columns;
    std::vector<int> kept;
    for (std::string_view name :
         {"example_id", "question_text", "document_text", "long_answer_candidates"}) {
      const int index = ColumnIndex(frame, name);
      if (index < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat(kTrainFile, ": no column ", std::string(name)));
      }
      kept_columns.emplace_back(name);
      kept.push_back(index);
    }
    const int annotations = ColumnIndex(frame, "annotations");
    if (annotations < 0) {
      return absl::InvalidArgumentError(absl::StrCat(kTrainFile, ": no column annotations"));
    }
    const int example_id = ColumnIndex(frame, "example_id");

    std::vector<std::vector<JsonValue>> train_rows;
    std::vector<std::vector<JsonValue>> test_rows;
    std::vector<std::vector<JsonValue>> unlabelled_rows;
    for (int64_t i : split.train_indices) train_rows.push_back(frame.rows[i]);
    for (int64_t i : split.test_indices) {
      const std::vector<JsonValue>& row = frame.rows[i];
      test_rows.push_back(row);
      std::vector<JsonValue>& unlabelled = unlabelled_rows.emplace_back();
      for (int index : kept) unlabelled.push_back(row[index]);
    }
    RETURN_IF_ERROR(
        Append(public_dir / kTrainFile, PandasToJsonRecordsLines(frame.columns, train_rows)));
    RETURN_IF_ERROR(
        Append(private_dir / "test.jsonl", PandasToJsonRecordsLines(frame.columns, test_rows)));
    RETURN_IF_ERROR(Append(public_dir / "simplified-nq-test.jsonl",
                           PandasToJsonRecordsLines(kept_columns, unlabelled_rows)));
    n_train += static_cast<int64_t>(train_rows.size());
    n_test += static_cast<int64_t>(test_rows.size());
    // The gold rows, in test order (upstream builds them after the loop from
    // the concatenated test chunks; the order is the same).
    for (const auto& row : test_rows) {
      RETURN_IF_ERROR(AddGoldRows(row[example_id].text, row[annotations], gold));
    }
  }
  if (n_test == 0) {
    // pd.concat of no test chunks raises.
    return absl::InvalidArgumentError(absl::StrCat(kTrainFile, " has no records"));
  }
  if (n_train + n_test != n_lines) {
    return absl::FailedPreconditionError(absl::StrCat(
        "split ", n_train, " + ", n_test, " rows, but ", kTrainFile, " has ", n_lines, " lines"));
  }
  RETURN_IF_ERROR(WriteCsvFile(SubmissionTable(gold, /*blank=*/false),
                               (private_dir / "gold_submission.csv").string()));
  return WriteCsvFile(SubmissionTable(gold, /*blank=*/true),
                      (public_dir / "sample_submission.csv").string());
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
