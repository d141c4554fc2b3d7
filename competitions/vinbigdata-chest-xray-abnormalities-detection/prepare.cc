// Upstream's vinbigdata-chest-xray-abnormalities-detection/prepare.py:
// Kaggle's train.csv (one row per radiologist's finding) is split by image
// (train_test_split of the unique image ids, test_size 0.1, random_state 0;
// upstream asserts the real sizes, 13,500 train and 1,500 test images). The
// held-out rows become private/answers.csv: one row per (image_id, class_id),
// sorted by both, each column its first non-missing value (pandas'
// groupby().first()), missing values filled with 0 and "No finding" (class
// 14) boxes set to x_max = y_max = 1.0. The gold submission joins
// "<class> 1.0 <x_min> <y_min> <x_max> <y_max>" per image. The DICOM files
// are copied from raw/train/<id>.dicom to public/{train,test}/.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/group_split.h"
#include "competitions/common/preparer.h"
#include "pycompat/python_str.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kExpectedTrainSize = 13500;
constexpr int64_t kExpectedTestSize = 1500;
constexpr int64_t kNoFindingClass = 14;

// An image id used as a file name (upstream's f"{file_id}.dicom").
absl::StatusOr<std::string> ImageId(const Cell& cell) {
  const auto* id = std::get_if<std::string>(&cell);
  if (id == nullptr || !IsPlainFileName(*id)) {
    return absl::InvalidArgumentError(
        absl::StrCat("train.csv: image_id '", PythonStr(cell), "' is not a file name"));
  }
  return *id;
}

// answers.groupby(["image_id", "class_id"]).first().reset_index(): keys
// sorted, key columns first, every other column its group's first
// non-missing value (missing when the group has none).
Table FirstPerImageAndClass(const Table& rows, const std::vector<std::string>& ids,
                            const std::vector<int64_t>& classes) {
  std::map<std::pair<std::string, int64_t>, std::vector<size_t>> groups;
  for (size_t row = 0; row < rows.num_rows(); ++row)
    groups[{ids[row], classes[row]}].push_back(row);
  Column image_column{.name = "image_id", .dtype = Dtype::kObject};
  Column class_column{.name = "class_id", .dtype = Dtype::kInt64};
  std::vector<Column> others;
  for (const Column& column : rows.columns()) {
    if (column.name != "image_id" && column.name != "class_id") {
      others.push_back(Column{.name = column.name, .dtype = column.dtype});
    }
  }
  for (const auto& [key, members] : groups) {
    image_column.cells.emplace_back(key.first);
    class_column.cells.emplace_back(key.second);
    for (Column& out : others) {
      const Column& in = *rows.Find(out.name);
      const auto present = std::find_if(members.begin(), members.end(),
                                        [&](size_t row) { return !IsMissing(in.cells[row]); });
      if (present != members.end()) {
        out.cells.push_back(in.cells[*present]);
      } else if (in.dtype == Dtype::kFloat64) {
        out.cells.emplace_back(std::nan(""));
      } else {
        out.cells.emplace_back(std::monostate{});
      }
    }
  }
  std::vector<Column> columns = {std::move(image_column), std::move(class_column)};
  for (Column& column : others) columns.push_back(std::move(column));
  return Table(std::move(columns));
}

absl::Status CopyImages(const fs::path& raw, const std::vector<std::string>& ids,
                        const fs::path& dest, std::string_view check) {
  RETURN_IF_ERROR(CopyNamedFiles(raw / "train", dest, ids, ".dicom"));
  std::error_code error;
  size_t count = 0;
  for (auto it = fs::directory_iterator(dest, error); !error && it != fs::directory_iterator();
       it.increment(error)) {
    count += it->path().extension() == ".dicom";
  }
  if (error) return absl::InternalError(absl::StrCat("cannot list ", dest.string()));
  if (count != ids.size()) return CheckFailed(check);
  return absl::OkStatus();
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  for (const char* name : {"image_id", "class_id", "x_min", "y_min", "x_max", "y_max"}) {
    if (absl::StatusOr<const Column*> column = old_train.Get(name); !column.ok()) {
      return column.status();
    }
  }
  const Column& class_column = *old_train.Find("class_id");
  if (class_column.dtype != Dtype::kInt64) {
    return absl::InvalidArgumentError(
        "train.csv: class_id must be whole numbers with none missing");
  }

  // unique_image_ids = old_train["image_id"].unique(), in order of appearance.
  std::vector<std::string> row_ids;
  std::vector<int64_t> row_classes;
  std::vector<std::string> unique_ids;
  std::map<std::string, size_t> id_index;
  std::vector<size_t> row_image;
  for (size_t row = 0; row < old_train.num_rows(); ++row) {
    ASSIGN_OR_RETURN(std::string id, ImageId(old_train.Find("image_id")->cells[row]));
    auto [it, inserted] = id_index.try_emplace(id, unique_ids.size());
    if (inserted) unique_ids.push_back(id);
    row_image.push_back(it->second);
    row_ids.push_back(id);
    row_classes.push_back(std::get<int64_t>(class_column.cells[row]));
  }

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(GroupSplit split, SplitRowsByGroup(unique_ids, row_image, options));
  const std::vector<std::string>& train_ids = split.train_groups;
  const std::vector<std::string>& test_ids = split.test_groups;
  const std::vector<int64_t>& train_rows = split.train_rows;
  const std::vector<int64_t>& test_rows = split.test_rows;
  if (static_cast<int64_t>(train_ids.size()) != kExpectedTrainSize) {
    return CheckFailed(
        absl::StrCat("Expected ", kExpectedTrainSize, " train image_ids, got ", train_ids.size()));
  }
  if (static_cast<int64_t>(test_ids.size()) != kExpectedTestSize) {
    return CheckFailed(
        absl::StrCat("Expected ", kExpectedTestSize, " test image_ids, got ", test_ids.size()));
  }

  ASSIGN_OR_RETURN(Table new_train, TakeRows(old_train, train_rows));
  ASSIGN_OR_RETURN(Table test_table, TakeRows(old_train, test_rows));
  std::vector<std::string> test_row_ids;
  std::vector<int64_t> test_row_classes;
  for (int64_t row : test_rows) {
    test_row_ids.push_back(row_ids[row]);
    test_row_classes.push_back(row_classes[row]);
  }
  Table answers = FirstPerImageAndClass(test_table, test_row_ids, test_row_classes);

  // answers.fillna(0): a float column gets 0.0, any other gets the int 0.
  for (Column& column : answers.mutable_columns()) {
    for (Cell& cell : column.cells) {
      if (IsMissing(cell)) cell = column.dtype == Dtype::kFloat64 ? Cell(0.0) : Cell(int64_t{0});
    }
  }
  // answers.loc[class_id == 14, ["x_max", "y_max"]] = 1.0
  for (size_t row = 0; row < answers.num_rows(); ++row) {
    if (std::get<int64_t>(answers.Find("class_id")->cells[row]) != kNoFindingClass) continue;
    for (const char* name : {"x_max", "y_max"}) {
      Column& column = *answers.FindMutable(name);
      // An int64 column holds 1.0 losslessly, so pandas keeps it int64.
      column.cells[row] = column.dtype == Dtype::kInt64 ? Cell(int64_t{1}) : Cell(1.0);
    }
  }

  // Gold: "<class_id> 1.0 <x_min> <y_min> <x_max> <y_max>" (str() of each
  // value) per row, joined with spaces per image (answers are sorted by image).
  Column gold_ids{.name = "image_id", .dtype = Dtype::kObject};
  Column gold_strings{.name = "PredictionString", .dtype = Dtype::kObject};
  for (size_t row = 0; row < answers.num_rows(); ++row) {
    const std::string& id = std::get<std::string>(answers.Find("image_id")->cells[row]);
    const std::string box = absl::StrCat(PythonStr(answers.Find("class_id")->cells[row]), " 1.0 ",
                                         PythonStr(answers.Find("x_min")->cells[row]), " ",
                                         PythonStr(answers.Find("y_min")->cells[row]), " ",
                                         PythonStr(answers.Find("x_max")->cells[row]), " ",
                                         PythonStr(answers.Find("y_max")->cells[row]));
    if (!gold_ids.cells.empty() && std::get<std::string>(gold_ids.cells.back()) == id) {
      absl::StrAppend(&std::get<std::string>(gold_strings.cells.back()), " ", box);
    } else {
      gold_ids.cells.emplace_back(id);
      gold_strings.cells.emplace_back(box);
    }
  }
  if (gold_ids.cells.size() != test_ids.size()) {
    return CheckFailed(
        "Length of gold should be equal to the number of unique image_ids in answers");
  }
  const Table gold({std::move(gold_ids), std::move(gold_strings)});

  Column sample_ids{.name = "image_id", .dtype = Dtype::kObject};
  Column sample_strings{.name = "PredictionString", .dtype = Dtype::kObject};
  for (const std::string& id : test_ids) {
    sample_ids.cells.emplace_back(id);
    sample_strings.cells.emplace_back(std::string("14 1 0 0 1 1"));
  }
  const Table sample_submission({std::move(sample_ids), std::move(sample_strings)});

  for (const auto& [table, path] : std::vector<std::pair<const Table*, fs::path>>{
           {&new_train, public_dir / "train.csv"},
           {&sample_submission, public_dir / "sample_submission.csv"},
           {&answers, private_dir / "answers.csv"},
           {&gold, private_dir / "gold_submission.csv"}}) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }

  RETURN_IF_ERROR(CopyImages(raw, train_ids, public_dir / "train",
                             absl::StrCat("Expected ", train_ids.size(), " train files")));
  return CopyImages(raw, test_ids, public_dir / "test",
                    absl::StrCat("Expected ", test_ids.size(), " test files"));
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
