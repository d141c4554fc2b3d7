// Upstream's hubmap-kidney-segmentation/prepare.py: Kaggle's 15 labelled
// kidney images split 12/3; the test answers gain each image's size from the
// dataset information table, which keeps only the labelled images' rows.

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// A column's cells as text; anything else is an error naming `what`.
absl::StatusOr<std::vector<std::string>> TextCells(const Table& table, std::string_view column,
                                                   std::string_view what) {
  ASSIGN_OR_RETURN(const Column* cells, table.Get(column));
  std::vector<std::string> out;
  for (size_t row = 0; row < cells->cells.size(); ++row) {
    const std::string* text = std::get_if<std::string>(&cells->cells[row]);
    if (text == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(std::string(what), " row ", row, ": '",
                                                     std::string(column), "' must be text"));
    }
    out.push_back(*text);
  }
  return out;
}

// Image ids name files inside a folder: no separators, not "." or "..".
absl::Status CheckFileStems(const std::vector<std::string>& ids) {
  for (const std::string& id : ids) {
    if (!IsPlainFileName(id)) {
      return absl::InvalidArgumentError(
          absl::StrCat("train.csv: 'id' must be an image file stem, got '", id, "'"));
    }
  }
  return absl::OkStatus();
}

// Copies <id>.tiff, <id>.json and <id>-anatomical-structure.json of every id.
absl::Status CopyImageFiles(const fs::path& from, const fs::path& to,
                            const std::vector<std::string>& ids) {
  std::vector<std::string> names;
  for (const std::string& id : ids) {
    for (const char* suffix : {".tiff", ".json", "-anatomical-structure.json"}) {
      names.push_back(id + suffix);
    }
  }
  return CopyNamedFiles(from, to, names);
}

size_t CountFiles(const fs::path& dir, std::string_view suffix) {
  size_t count = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    count += name.ends_with(suffix);  // pathlib's glob("*<suffix>")
  }
  return count;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  ASSIGN_OR_RETURN(Table old_info,
                   ReadCsvFile((raw / "HuBMAP-20-dataset_information.csv").string()));

  TrainTestSplitOptions options;
  options.train_size = int64_t{12};
  options.test_size = int64_t{3};
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  const Table& new_train = split.train;

  ASSIGN_OR_RETURN(std::vector<std::string> all_ids, TextCells(old_train, "id", "train.csv"));
  RETURN_IF_ERROR(CheckFileStems(all_ids));
  const std::set<std::string> labelled(all_ids.begin(), all_ids.end());

  // The information rows of labelled images: id = image_file without
  // ".tiff" (pandas >= 2 replaces the literal text, every occurrence).
  ASSIGN_OR_RETURN(std::vector<std::string> image_files,
                   TextCells(old_info, "image_file", "HuBMAP-20-dataset_information.csv"));
  std::vector<std::string> info_ids;
  std::vector<int64_t> info_rows;
  for (size_t row = 0; row < image_files.size(); ++row) {
    std::string id = absl::StrReplaceAll((image_files)[row], {{".tiff", ""}});
    if (labelled.count(id) == 0) continue;
    info_ids.push_back(std::move(id));
    info_rows.push_back(static_cast<int64_t>(row));
  }
  ASSIGN_OR_RETURN(Table dataset_info, TakeRows(old_info, info_rows));
  ASSIGN_OR_RETURN(Table sizes, (SelectColumns(dataset_info, {"width_pixels", "height_pixels"})));

  // new_test.merge(sizes, on="id"): an inner join in the test rows' order,
  // each test row repeated for every information row with its id.
  ASSIGN_OR_RETURN(std::vector<std::string> test_ids, TextCells(split.test, "id", "train.csv"));
  std::vector<int64_t> test_rows, size_rows;
  for (size_t row = 0; row < test_ids.size(); ++row) {
    for (size_t info = 0; info < info_ids.size(); ++info) {
      if (info_ids[info] != (test_ids)[row]) continue;
      test_rows.push_back(static_cast<int64_t>(row));
      size_rows.push_back(static_cast<int64_t>(info));
    }
  }
  ASSIGN_OR_RETURN(Table new_test, TakeRows(split.test, test_rows));
  ASSIGN_OR_RETURN(Table test_sizes, TakeRows(sizes, size_rows));
  for (Column& column : test_sizes.mutable_columns()) {
    if (new_test.Find(column.name) != nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("train.csv already has a column '", column.name, "'"));
    }
    new_test.mutable_columns().push_back(std::move(column));
  }

  ASSIGN_OR_RETURN(Table sample_submission, (SelectColumns(new_test, {"id"})));
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "predicted", std::string()));
  Table gold_submission = sample_submission;
  {
    ASSIGN_OR_RETURN(const Column* encoding, new_test.Get("encoding"));
    Column* predicted = gold_submission.FindMutable("predicted");
    predicted->cells = encoding->cells;
    predicted->dtype = encoding->dtype;
  }

  // Upstream's checks (before writing, so that bad input leaves no output).
  if (new_train.num_rows() + new_test.num_rows() != old_train.num_rows()) {
    return CheckFailed("Length of new_train and new_test should equal length of old_train");
  }
  if (new_train.ColumnNames() != std::vector<std::string>{"id", "encoding"}) {
    return CheckFailed("Public train set should have 2 columns, called 'id' and 'encoding'");
  }
  if (new_test.ColumnNames() !=
      std::vector<std::string>{"id", "encoding", "width_pixels", "height_pixels"}) {
    return CheckFailed("Private test set should have 2 columns called 'id' and 'encoding'");
  }
  ASSIGN_OR_RETURN(std::vector<std::string> train_ids, TextCells(new_train, "id", "train.csv"));
  ASSIGN_OR_RETURN(std::vector<std::string> final_test_ids, TextCells(new_test, "id", "train.csv"));
  for (const std::string& id : final_test_ids) {
    for (const std::string& train_id : train_ids) {
      if (id == train_id) return CheckFailed("Train and test ids should not overlap");
    }
  }

  RETURN_IF_ERROR(
      WriteCsvFile(dataset_info, (public_dir / "HuBMAP-20-dataset_information.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(new_train, (public_dir / "train.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(new_test, (private_dir / "test.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(gold_submission, (private_dir / "gold_submission.csv").string()));
  RETURN_IF_ERROR(CopyImageFiles(raw / "train", public_dir / "train", train_ids));
  RETURN_IF_ERROR(CopyImageFiles(raw / "train", public_dir / "test", final_test_ids));
  std::error_code error;
  fs::copy_file(public_dir / "sample_submission.csv", public_dir / "test" / "sample_submission.csv",
                fs::copy_options::overwrite_existing, error);
  if (error) return absl::InternalError("cannot copy sample_submission.csv into test/");

  // Upstream's file-count checks (repeated ids leave fewer files than rows).
  if (CountFiles(public_dir / "train", ".tiff") != new_train.num_rows()) {
    return CheckFailed("Missing train tiff files");
  }
  if (CountFiles(public_dir / "train", ".json") != 2 * new_train.num_rows()) {
    return CheckFailed("Missing train json files");
  }
  if (CountFiles(public_dir / "test", ".tiff") != new_test.num_rows()) {
    return CheckFailed("Missing test tiff files");
  }
  if (CountFiles(public_dir / "test", "-anatomical-structure.json") != new_test.num_rows()) {
    return CheckFailed("Missing test structure json files");
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
