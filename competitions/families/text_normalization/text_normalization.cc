#include "competitions/families/text_normalization/text_normalization.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/files.h"
#include "base/python_float.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "formats/zip_archive.h"
#include "grading/grader.h"
#include "grading/metrics/classification/accuracy.h"
#include "grading/metrics/metric_inputs.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kIdColumn = "id";
constexpr std::string_view kTargetColumn = "after";

// `table[name] = table[name].astype(str)`, when the column exists.
void ColumnAsTypeStr(Table& table, std::string_view name) {
  Column* column = table.FindMutable(name);
  if (column == nullptr) return;
  for (Cell& cell : column->cells) cell = PythonStr(cell);
  column->dtype = Dtype::kObject;
}

void AppendQuoted(std::string_view text, std::string& out) {
  out += '"';
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

// One cell as Python's csv writer with QUOTE_NONNUMERIC writes what pandas
// hands it: numbers (bools included) bare, NaN replaced by na_rep "" (a
// string, so quoted), strings quoted.
void AppendNonnumericField(const Cell& cell, std::string& out) {
  if (IsMissing(cell)) {
    out += "\"\"";
  } else if (const auto* b = std::get_if<bool>(&cell)) {
    out += *b ? "True" : "False";
  } else if (const auto* i = std::get_if<int64_t>(&cell)) {
    absl::StrAppend(&out, *i);
  } else if (const auto* d = std::get_if<double>(&cell)) {
    out += FormatPythonFloat(*d);
  } else {
    AppendQuoted(std::get<std::string>(cell), out);
  }
}

constexpr std::string_view kRawColumns[] = {"sentence_id", "token_id", "class", "before", "after"};

absl::Status CheckRawColumns(const Table& train, const std::string& source) {
  const std::vector<std::string> names = train.ColumnNames();
  bool same = names.size() == std::size(kRawColumns);
  for (size_t i = 0; same && i < names.size(); ++i) same = names[i] == kRawColumns[i];
  if (!same) {
    std::string got;
    for (const std::string& name : names) absl::StrAppend(&got, got.empty() ? "" : ", ", name);
    return absl::InvalidArgumentError(absl::StrCat(
        source, " must have the columns sentence_id, token_id, class, before, after (got: ", got,
        ")"));
  }
  for (std::string_view name : {"sentence_id", "token_id"}) {
    if (train.Find(name)->dtype != Dtype::kInt64) {
      return absl::InvalidArgumentError(absl::StrCat(source, ": column ", std::string(name),
                                                     " must hold integers only, not ",
                                                     std::string(DtypeName(train.Find(name)->dtype))));
    }
  }
  return absl::OkStatus();
}

// The rows of one part of the split, with sentence ids renumbered 0, 1, ...
// in order of first appearance (upstream's enumerate over .unique()).
absl::StatusOr<Table> PartWithNewSentenceIds(const Table& train, const std::vector<int64_t>& rows) {
  ASSIGN_OR_RETURN(Table part, TakeRows(train, rows));
  std::unordered_map<int64_t, int64_t> new_ids;
  for (Cell& cell : part.FindMutable("sentence_id")->cells) {
    const int64_t old_id = std::get<int64_t>(cell);
    const auto [it, inserted] = new_ids.emplace(old_id, static_cast<int64_t>(new_ids.size()));
    cell = it->second;
  }
  return part;
}

// `<sentence_id>_<token_id>` for every row, as an object column.
Column IdColumn(const Table& part) {
  const std::vector<Cell>& sentences = part.Find("sentence_id")->cells;
  const std::vector<Cell>& tokens = part.Find("token_id")->cells;
  Column id{std::string(kIdColumn), Dtype::kObject, {}};
  id.cells.reserve(sentences.size());
  for (size_t row = 0; row < sentences.size(); ++row) {
    id.cells.emplace_back(absl::StrCat(std::get<int64_t>(sentences[row]), "_",
                                       std::get<int64_t>(tokens[row])));
  }
  return id;
}

Column Renamed(const Column& column, std::string_view name) {
  Column copy = column;
  copy.name = std::string(name);
  return copy;
}

}  // namespace

absl::StatusOr<double> GradeTextNormalization(const Table& submission, const Table& answers) {
  // astype(str) cannot fail, so converting before upstream's checks (rather
  // than after, as upstream does) changes no outcome.
  Table submission_text = submission;
  Table answers_text = answers;
  ColumnAsTypeStr(submission_text, kTargetColumn);
  ColumnAsTypeStr(answers_text, kTargetColumn);
  ASSIGN_OR_RETURN(AccuracyInputs inputs, PrepareForAccuracyMetric(submission_text, answers_text,
                                                                   kIdColumn, kTargetColumn));
  absl::StatusOr<double> score = AccuracyScore(inputs);
  if (!score.ok()) {
    return InvalidSubmission(
        absl::StrCat("accuracy_score rejects the submission: ", score.status().message()));
  }
  return score;
}

std::string WriteCsvQuoteNonnumeric(const Table& table) {
  std::string out;
  const std::vector<Column>& columns = table.columns();
  for (size_t c = 0; c < columns.size(); ++c) {
    if (c > 0) out += ',';
    AppendQuoted(columns[c].name, out);
  }
  out += '\n';
  for (size_t row = 0; row < table.num_rows(); ++row) {
    for (size_t c = 0; c < columns.size(); ++c) {
      if (c > 0) out += ',';
      AppendNonnumericField(columns[c].cells[row], out);
    }
    out += '\n';
  }
  return out;
}

absl::Status PrepareTextNormalization(std::string_view language, const fs::path& raw,
                                      const fs::path& public_dir, const fs::path& private_dir,
                                      const fs::path& scratch) {
  const std::string prefix(language);
  const std::string train_name = prefix + "_train.csv";
  const std::string test_name = prefix + "_test_2.csv";
  const std::string sample_name = prefix + "_sample_submission_2.csv";

  // Upstream extracts all three archives (into raw/; we use scratch/).
  const fs::path extracted = scratch / "extracted";
  for (const std::string& name : {test_name, train_name, sample_name}) {
    RETURN_IF_ERROR(ExtractZip(raw / (name + ".zip"), extracted));
  }
  const fs::path train_csv = extracted / train_name;
  if (!fs::is_regular_file(train_csv)) {
    return absl::NotFoundError(absl::StrCat((raw / (train_name + ".zip")).string(), " holds no ",
                                            train_name, " at its root"));
  }
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile(train_csv.string()));
  RETURN_IF_ERROR(CheckRawColumns(old_train, train_name));

  // Split the unique sentence ids (in order of appearance), then take every
  // row of each part in file order.
  const std::vector<Cell>& sentence_ids = old_train.Find("sentence_id")->cells;
  std::unordered_map<int64_t, size_t> unique_index;
  std::vector<size_t> row_sentence(sentence_ids.size());
  for (size_t row = 0; row < sentence_ids.size(); ++row) {
    row_sentence[row] =
        unique_index.emplace(std::get<int64_t>(sentence_ids[row]), unique_index.size())
            .first->second;
  }
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split =
      TrainTestSplitIndices(static_cast<int64_t>(unique_index.size()), options);
  if (!split.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("cannot split the ", unique_index.size(),
                                                   " sentences of ", train_name, ": ",
                                                   split.status().message()));
  }
  std::vector<bool> in_test(unique_index.size(), false);
  for (int64_t i : split->test_indices) in_test[static_cast<size_t>(i)] = true;
  std::vector<int64_t> train_rows, test_rows;
  for (size_t row = 0; row < row_sentence.size(); ++row) {
    (in_test[row_sentence[row]] ? test_rows : train_rows).push_back(static_cast<int64_t>(row));
  }

  ASSIGN_OR_RETURN(Table new_train, PartWithNewSentenceIds(old_train, train_rows));
  ASSIGN_OR_RETURN(Table test_part, PartWithNewSentenceIds(old_train, test_rows));
  ASSIGN_OR_RETURN(Table new_test, (DropColumns(test_part, {"after", "class"})));
  const Column id = IdColumn(test_part);
  const Table answers({id, *test_part.Find("after")});
  const Table sample_submission({id, Renamed(*test_part.Find("before"), kTargetColumn)});

  // Upstream's row-count assert (disjointness holds by construction).
  if (new_train.num_rows() + new_test.num_rows() != old_train.num_rows()) {
    return absl::InternalError("new train and test sets do not sum to the old train set");
  }

  std::error_code error;
  for (const fs::path& dir : {public_dir, private_dir}) {
    fs::create_directories(dir, error);
    if (error) {
      return absl::InternalError(
          absl::StrCat("cannot create ", dir.string(), ": ", error.message()));
    }
  }
  const std::string sample_csv = WriteCsvQuoteNonnumeric(sample_submission);
  const std::pair<std::string, std::string> private_files[] = {
      {"answers.csv", WriteCsvQuoteNonnumeric(answers)},
      {"sample_submission.csv", sample_csv},
  };
  // Private files are plain CSVs; public ones each sit alone in a zip.
  for (const auto& [name, bytes] : private_files) {
    RETURN_IF_ERROR(WriteStringToFile(private_dir / name, bytes));
  }
  const std::pair<std::string, std::string> public_files[] = {
      {train_name, WriteCsvQuoteNonnumeric(new_train)},
      {test_name, WriteCsvQuoteNonnumeric(new_test)},
      {sample_name, sample_csv},
  };
  for (const auto& [name, bytes] : public_files) {
    RETURN_IF_ERROR(WriteZip(public_dir / (name + ".zip"), {ZipEntry::FromBytes(name, bytes)}));
  }
  return absl::OkStatus();
}

}  // namespace mlebench
