// Upstream's plant-pathology-2020-fgvc7/prepare.py: a 90/10 split of
// Kaggle's labelled train.csv. Images are renamed per split (Train_<i> and
// Test_<i>, numbered in split order) so that the ids do not reveal which
// original image a test image was, and all of them go to public/images/.
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kIdColumn = "image_id";
const std::vector<std::string> kClasses = {"healthy", "multiple_diseases", "rust", "scab"};

// The `image_id` column as text that names an image "<id>.jpg" directly in
// raw/images/ (upstream joins it to a path; anything else would reach
// outside that folder, and a non-text id makes upstream's startswith raise).
absl::StatusOr<std::vector<std::string>> ImageIds(const Table& table) {
  ASSIGN_OR_RETURN(const Column* ids, table.Get(kIdColumn));
  std::vector<std::string> names;
  names.reserve(ids->cells.size());
  for (size_t row = 0; row < ids->cells.size(); ++row) {
    const std::string* id = std::get_if<std::string>(&ids->cells[row]);
    if (id == nullptr || id->find_first_of(std::string_view("/\\\0", 3)) != std::string::npos) {
      return absl::InvalidArgumentError(absl::StrCat(
          "train.csv row ", row, ": 'image_id' must be text naming an image in images/"));
    }
    names.push_back(*id);
  }
  return names;
}

bool HasColumnSet(const Table& table, const std::vector<std::string>& expected) {
  const std::vector<std::string> names = table.ColumnNames();
  return std::set<std::string>(names.begin(), names.end()) ==
         std::set<std::string>(expected.begin(), expected.end());
}

// Replaces each id found in `new_ids` (pandas' Series.replace with a dict:
// one lookup per cell, no chaining).
void RenameIds(Table& table, const std::map<std::string, std::string>& new_ids) {
  for (Column& column : table.mutable_columns()) {
    if (column.name != kIdColumn) continue;
    for (Cell& cell : column.cells) {
      auto it = new_ids.find(std::get<std::string>(cell));
      if (it != new_ids.end()) cell = it->second;
    }
  }
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  Table new_train = std::move(split.train);
  Table answers = std::move(split.test);
  std::vector<std::string> expected_columns = {std::string(kIdColumn)};
  expected_columns.insert(expected_columns.end(), kClasses.begin(), kClasses.end());
  if (!HasColumnSet(new_train, expected_columns)) {
    return CheckFailed(
        "Expected `new_train` to have columns image_id, healthy, multiple_diseases, rust, scab");
  }

  ASSIGN_OR_RETURN(std::vector<std::string> old_ids, ImageIds(old_train));
  ASSIGN_OR_RETURN(std::vector<std::string> train_ids, ImageIds(new_train));
  ASSIGN_OR_RETURN(std::vector<std::string> test_ids, ImageIds(answers));
  // Train_<i> and Test_<i> number each split's distinct ids in order of
  // first appearance; an id in both splits takes its Test_ name.
  std::map<std::string, std::string> new_ids;
  for (const auto& [ids, prefix] :
       {std::pair{&train_ids, "Train_"}, std::pair{&test_ids, "Test_"}}) {
    std::map<std::string, std::string> split_ids;
    for (const std::string& id : *ids) {
      split_ids.emplace(id, absl::StrCat(prefix, split_ids.size()));
    }
    for (auto& [old_id, new_id] : split_ids) new_ids[old_id] = new_id;
  }
  RenameIds(new_train, new_ids);
  RenameIds(answers, new_ids);

  ASSIGN_OR_RETURN(Table new_test, (SelectColumns(answers, {std::string(kIdColumn)})));
  Table sample_submission = new_test;
  for (const std::string& name : kClasses) {
    RETURN_IF_ERROR(SetConstantColumn(sample_submission, name, 0.25));
  }

  // Upstream's per-image checks, before anything is written.
  for (const std::string& id : old_ids) {
    if (!id.starts_with("Train_")) {
      return CheckFailed(absl::StrCat("Expected train image id `", id, "` to start with `Train_`."));
    }
    if (!fs::is_regular_file(raw / "images" / (id + ".jpg"))) {
      return CheckFailed(absl::StrCat("Image `", id, ".jpg` does not exist in images/"));
    }
  }

  for (const auto& [table, path] : {
           std::pair{&answers, private_dir / "test.csv"},
           std::pair{&sample_submission, public_dir / "sample_submission.csv"},
           std::pair{&new_test, public_dir / "test.csv"},
           std::pair{&new_train, public_dir / "train.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  std::error_code error;
  fs::create_directories(public_dir / "images", error);
  for (const std::string& id : old_ids) {
    const std::string to = new_ids.at(id) + ".jpg";
    if (!error) {
      fs::copy_file(raw / "images" / (id + ".jpg"), public_dir / "images" / to,
                    fs::copy_options::overwrite_existing, error);
    }
    if (error) {
      return absl::InternalError(
          absl::StrCat("cannot copy images/", id, ".jpg to public/images/", to, ": ",
                       error.message()));
    }
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(
    CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
