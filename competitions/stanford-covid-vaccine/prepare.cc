// Upstream's stanford-covid-vaccine/prepare.py: 10% of Kaggle's train.json
// rows (drawn only among rows with SN_filter > 0) become the new test set.
// public/ gets train.json (the other rows) and test.json (the test rows with
// test.json's columns), both with `index` renumbered from 0, and
// sample_submission.csv; private/test.csv has one row per sequence position
// of the test rows: the five targets for the first seq_scored positions
// (keep=True) and zeros for the rest (keep=False).
//
// pandas details reproduced:
//  - read_json(lines=True): one JSON object per non-blank line; columns in
//    order of first appearance; a column whose values are all numbers is
//    float64 if any is a float or null (NaN), and float64 columns whose values are all whole
//    become int64 (so `"SN_filter": 1.0` is written back as 1); other columns
//    (strings, lists) keep their values. pandas parses with ujson's fast
//    float parser, which may differ from correct rounding in the last bit;
//    the outputs print 10 digits, so this never shows for the data's
//    4-decimal values. Not reproduced: rows with different keys (pandas fills
//    NaN; an error here) and string columns that are entirely numeric text
//    (pandas converts them to numbers; the data has none).
//  - `.sample(n, random_state=0)` is RandomState(0).permutation(len)[:n] over
//    the SN_filter > 0 rows; the test rows keep file order.
//  - to_json(orient="records", lines=True) via pandas_json.h; to_csv with
//    float_format="%.10f" on the float columns.

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/csv.h"
#include "base/files.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "competitions/common/preparer.h"
#include "pycompat/numpy_random.h"
#include "pycompat/pandas_json.h"
#include "pycompat/python_json.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kTargets[] = {"reactivity", "deg_Mg_pH10", "deg_pH10", "deg_Mg_50C",
                                         "deg_50C"};

// A frame read by read_json(lines=True): columns, and rows of cells already
// converted to their column's dtype (ints for int64 columns, floats for
// float64 ones).
struct JsonFrame {
  std::vector<std::string> columns;
  std::vector<std::vector<JsonValue>> rows;

  std::optional<size_t> ColumnIndex(std::string_view name) const {
    for (size_t i = 0; i < columns.size(); ++i) {
      if (columns[i] == name) return i;
    }
    return std::nullopt;
  }
};

bool IsNumber(const JsonValue& value) {
  return value.type == JsonValue::Type::kInt || value.type == JsonValue::Type::kFloat;
}

absl::StatusOr<double> NumberOf(const JsonValue& value) {
  if (value.type == JsonValue::Type::kFloat) return value.number;
  if (value.type == JsonValue::Type::kInt) {
    std::optional<int64_t> n = value.AsInt64();
    if (!n.has_value()) return absl::InvalidArgumentError("integer out of range");
    return static_cast<double>(*n);
  }
  if (value.is_null()) return std::nan("");
  return absl::InvalidArgumentError("expected a number");
}

// pandas' per-column dtype step of read_json (see the file comment).
absl::Status ConvertNumericColumn(JsonFrame& frame, size_t column) {
  bool all_numbers = true, any_float = false;
  // A null among numbers makes the column float64 with NaN (written null).
  for (const auto& row : frame.rows) {
    all_numbers &= IsNumber(row[column]) || row[column].is_null();
    any_float |= row[column].type == JsonValue::Type::kFloat || row[column].is_null();
  }
  if (!all_numbers || frame.rows.empty()) return absl::OkStatus();
  if (!any_float) {
    for (auto& row : frame.rows) {
      if (!row[column].AsInt64().has_value()) {
        return absl::InvalidArgumentError("integer beyond int64 in column " +
                                          frame.columns[column]);
      }
    }
    return absl::OkStatus();
  }
  bool all_whole = true;
  for (auto& row : frame.rows) {
    ASSIGN_OR_RETURN(double value, NumberOf(row[column]));
    row[column] = JsonValue::Float(value);
    // astype("int64") then equality: whole values inside int64's range.
    all_whole &= std::isfinite(value) && std::trunc(value) == value && std::fabs(value) < 9.2e18;
  }
  if (all_whole) {
    for (auto& row : frame.rows) row[column] = JsonValue::Int(static_cast<int64_t>(row[column].number));
  }
  return absl::OkStatus();
}

absl::StatusOr<JsonFrame> ReadJsonLines(const fs::path& path) {
  ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
  JsonFrame frame;
  std::vector<std::string> first_keys;
  size_t start = 0, line_number = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + start, end - start);
    start = end + 1;
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    absl::StatusOr<JsonValue> value = ParseJson(line);
    if (!value.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(path.filename().string(), " line ",
                                                     line_number, ": ",
                                                     std::string(value.status().message())));
    }
    if (!value->is_object()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path.filename().string(), " line ", line_number, ": not a JSON object"));
    }
    if (frame.rows.empty()) {
      for (const JsonMember& member : value->members) frame.columns.push_back(member.key);
    }
    if (value->members.size() != frame.columns.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          path.filename().string(), " line ", line_number, ": keys differ from the first row's"));
    }
    std::vector<JsonValue> row;
    for (const std::string& column : frame.columns) {
      const JsonValue* cell = value->Find(column);
      if (cell == nullptr) {
        return absl::InvalidArgumentError(absl::StrCat(path.filename().string(), " line ",
                                                       line_number, ": no key ", column));
      }
      row.push_back(*cell);
    }
    frame.rows.push_back(std::move(row));
  }
  for (size_t c = 0; c < frame.columns.size(); ++c) {
    RETURN_IF_ERROR(ConvertNumericColumn(frame, c));
  }
  return frame;
}

absl::StatusOr<size_t> RequireColumn(const JsonFrame& frame, std::string_view name,
                                     std::string_view file) {
  std::optional<size_t> index = frame.ColumnIndex(name);
  if (!index.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(std::string(file), " has no column ",
                                                   std::string(name)));
  }
  return *index;
}

absl::StatusOr<int64_t> IntCell(const JsonValue& value, std::string_view name) {
  if (value.type == JsonValue::Type::kInt) {
    if (std::optional<int64_t> n = value.AsInt64(); n.has_value()) return *n;
  }
  return absl::InvalidArgumentError(absl::StrCat(std::string(name), " must be an integer"));
}

std::string FormatFixed10(double value) { return absl::StrFormat("%.10f", value); }

// A float64 CSV cell written with float_format="%.10f": missing stays empty.
Cell FixedCell(double value) {
  if (std::isnan(value)) return Cell(std::monostate());
  return Cell(FormatFixed10(value));
}

// `train[train.SN_filter > 0].sample(frac=0.1, random_state=0)`'s rows:
// which rows of train.json become test sequences.
absl::StatusOr<std::vector<bool>> DrawTestRows(const JsonFrame& train) {
  ASSIGN_OR_RETURN(size_t sn_filter, RequireColumn(train, "SN_filter", "train.json"));
  const size_t n_rows = train.rows.size();
  const size_t n_test = static_cast<size_t>(static_cast<double>(n_rows) * 0.1);
  std::vector<size_t> candidates;
  for (size_t r = 0; r < n_rows; ++r) {
    const JsonValue& value = train.rows[r][sn_filter];
    if (value.type == JsonValue::Type::kBool) {
      if (value.boolean) candidates.push_back(r);
      continue;
    }
    absl::StatusOr<double> number = NumberOf(value);
    if (!number.ok()) return absl::InvalidArgumentError("SN_filter must be numeric");
    if (*number > 0) candidates.push_back(r);
  }
  if (n_test > candidates.size()) {
    return absl::InvalidArgumentError(
        "Cannot take a larger sample than population when 'replace=False'");
  }
  NumpyRandomState random(0);
  const std::vector<int64_t> permutation = random.Permutation(candidates.size());
  std::vector<bool> is_test(n_rows, false);
  for (size_t i = 0; i < n_test; ++i) is_test[candidates[permutation[i]]] = true;
  if (n_test == 0) {
    return absl::InvalidArgumentError("train.json has too few rows for a 10% test set");
  }
  return is_test;
}

// The columns of train.json the answers are made of.
struct TrainColumns {
  std::vector<size_t> targets;
  size_t id, scored, length, index;
};

absl::StatusOr<TrainColumns> FindTrainColumns(const JsonFrame& train) {
  TrainColumns columns;
  for (std::string_view name : kTargets) {
    ASSIGN_OR_RETURN(size_t c, RequireColumn(train, name, "train.json"));
    columns.targets.push_back(c);
  }
  // Upstream reads these four together: the first missing one is reported.
  absl::StatusOr<size_t> id = RequireColumn(train, "id", "train.json");
  absl::StatusOr<size_t> scored = RequireColumn(train, "seq_scored", "train.json");
  absl::StatusOr<size_t> length = RequireColumn(train, "seq_length", "train.json");
  absl::StatusOr<size_t> index = RequireColumn(train, "index", "train.json");
  for (const auto* s : {&id, &scored, &length, &index}) {
    if (!s->ok()) return s->status();
  }
  columns.id = *id;
  columns.scored = *scored;
  columns.length = *length;
  columns.index = *index;
  return columns;
}

// private/test.csv's columns: one row per position of each test sequence,
// the scored positions with their targets (keep = True), the rest zeros.
struct Answers {
  Column ids{"id_seqpos", Dtype::kObject, {}};
  std::vector<Column> targets;
  Column keep{"keep", Dtype::kBool, {}};
  int64_t first_length = 0;  // seq_length of the first test sequence
};

absl::StatusOr<Answers> BuildAnswers(const JsonFrame& train, const TrainColumns& columns,
                                     const std::vector<size_t>& test_rows) {
  Answers answers;
  for (std::string_view name : kTargets) {
    answers.targets.push_back(Column{std::string(name), Dtype::kObject, {}});
  }
  for (size_t r : test_rows) {
    const std::vector<JsonValue>& row = train.rows[r];
    ASSIGN_OR_RETURN(int64_t n, IntCell(row[columns.scored], "seq_scored"));
    ASSIGN_OR_RETURN(int64_t k, IntCell(row[columns.length], "seq_length"));
    if (r == test_rows.front()) answers.first_length = k;
    std::string id;
    if (row[columns.id].type == JsonValue::Type::kString ||
        row[columns.id].type == JsonValue::Type::kInt) {
      id = row[columns.id].text;
    } else {
      return absl::InvalidArgumentError("id must be a string");
    }
    for (size_t t = 0; t < columns.targets.size(); ++t) {
      const JsonValue& list = row[columns.targets[t]];
      if (!list.is_array() || static_cast<int64_t>(list.items.size()) != n) {
        return absl::InvalidArgumentError(absl::StrCat("assertion failed: ", std::string(kTargets[t]),
                                                       " of ", id,
                                                       " must be a list of seq_scored values"));
      }
    }
    for (int64_t j = 0; j < n; ++j) {
      answers.ids.cells.push_back(Cell(absl::StrCat(id, "_", j)));
      for (size_t t = 0; t < columns.targets.size(); ++t) {
        absl::StatusOr<double> value = NumberOf(row[columns.targets[t]].items[j]);
        if (!value.ok()) {
          return absl::InvalidArgumentError(
              absl::StrCat(std::string(kTargets[t]), " of ", id, " holds a non-number"));
        }
        answers.targets[t].cells.push_back(FixedCell(*value));
      }
      answers.keep.cells.push_back(Cell(true));
    }
    if (!(n < k)) {
      return absl::InvalidArgumentError(
          absl::StrCat("assertion failed: seq_scored < seq_length for ", id));
    }
    for (int64_t j = n; j < k; ++j) {
      answers.ids.cells.push_back(Cell(absl::StrCat(id, "_", j)));
      for (Column& column : answers.targets) column.cells.push_back(FixedCell(0.0));
      answers.keep.cells.push_back(Cell(false));
    }
  }
  return answers;
}

// Upstream's assertions on test.json and sample_submission.csv. Returns
// test.json's columns in train.json.
absl::StatusOr<std::vector<size_t>> CheckUpstreamAssertions(const JsonFrame& train,
                                                            const JsonFrame& old_test,
                                                            const Table& old_sample,
                                                            const Answers& answers,
                                                            size_t num_test_rows) {
  std::vector<size_t> test_column_indices;
  for (const std::string& name : old_test.columns) {
    ASSIGN_OR_RETURN(size_t c, RequireColumn(train, name, "train.json (test.json's columns)"));
    test_column_indices.push_back(c);
  }
  if (!old_test.ColumnIndex("index").has_value()) {
    return absl::InvalidArgumentError("assertion failed: test.json must have an index column");
  }
  for (std::string_view name : kTargets) {
    if (old_test.ColumnIndex(name).has_value()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "assertion failed: test.json must not hold the target ", std::string(name)));
    }
  }
  std::set<std::string> expected = {"id_seqpos"};
  for (std::string_view name : kTargets) expected.insert(std::string(name));
  std::vector<std::string> names = old_sample.ColumnNames();
  if (std::set<std::string>(names.begin(), names.end()) != expected) {
    return absl::InvalidArgumentError(
        "assertion failed: sample_submission.csv must have columns id_seqpos and the five "
        "targets");
  }
  if (static_cast<int64_t>(answers.ids.cells.size()) !=
      static_cast<int64_t>(num_test_rows) * answers.first_length) {
    return absl::InvalidArgumentError(
        "assertion failed: every test sequence must have the first one's seq_length");
  }
  return test_column_indices;
}

// public/train.json and public/test.json (test.json's columns only), each
// with `index` renumbered.
absl::Status WritePublicJson(const JsonFrame& train, const JsonFrame& old_test,
                             const TrainColumns& columns,
                             const std::vector<size_t>& test_column_indices,
                             const std::vector<size_t>& train_rows,
                             const std::vector<size_t>& test_rows, const fs::path& public_dir) {
  std::vector<std::vector<JsonValue>> train_out;
  for (size_t r : train_rows) {
    std::vector<JsonValue> row = train.rows[r];
    row[columns.index] = JsonValue::Int(static_cast<int64_t>(train_out.size()));
    train_out.push_back(std::move(row));
  }
  const size_t test_index_position = *old_test.ColumnIndex("index");
  std::vector<std::vector<JsonValue>> test_out;
  for (size_t r : test_rows) {
    std::vector<JsonValue> row;
    for (size_t c : test_column_indices) row.push_back(train.rows[r][c]);
    row[test_index_position] = JsonValue::Int(static_cast<int64_t>(test_out.size()));
    test_out.push_back(std::move(row));
  }
  RETURN_IF_ERROR(WriteStringToFile(public_dir / "train.json",
                                    PandasToJsonRecordsLines(train.columns, train_out)));
  return WriteStringToFile(public_dir / "test.json",
                           PandasToJsonRecordsLines(old_test.columns, test_out));
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir,
                     const fs::path& private_dir, const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(JsonFrame train, ReadJsonLines(raw / "train.json"));
  ASSIGN_OR_RETURN(JsonFrame old_test, ReadJsonLines(raw / "test.json"));
  ASSIGN_OR_RETURN(Table old_sample, ReadCsvFile((raw / "sample_submission.csv").string()));
  ASSIGN_OR_RETURN(std::vector<bool> is_test, DrawTestRows(train));
  ASSIGN_OR_RETURN(TrainColumns columns, FindTrainColumns(train));
  std::vector<size_t> test_rows, train_rows;
  for (size_t r = 0; r < is_test.size(); ++r) (is_test[r] ? test_rows : train_rows).push_back(r);
  ASSIGN_OR_RETURN(Answers answers, BuildAnswers(train, columns, test_rows));
  // Checked before anything is written.
  ASSIGN_OR_RETURN(std::vector<size_t> test_column_indices,
                   CheckUpstreamAssertions(train, old_test, old_sample, answers, test_rows.size()));

  std::vector<Column> answer_columns = {answers.ids};
  for (const Column& column : answers.targets) answer_columns.push_back(column);
  answer_columns.push_back(answers.keep);
  RETURN_IF_ERROR(WriteCsvFile(Table(answer_columns), (private_dir / "test.csv").string()));
  RETURN_IF_ERROR(WritePublicJson(train, old_test, columns, test_column_indices, train_rows,
                                  test_rows, public_dir));

  // public/sample_submission.csv: the answers' ids with zero predictions.
  std::vector<Column> sample_columns = {answers.ids};
  for (std::string_view name : kTargets) {
    sample_columns.push_back(Column{std::string(name), Dtype::kObject,
                                    std::vector<Cell>(answers.ids.cells.size(), FixedCell(0.0))});
  }
  return WriteCsvFile(Table(sample_columns), (public_dir / "sample_submission.csv").string());
}

MLEBENCH_REGISTER_PREPARER(
    CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
