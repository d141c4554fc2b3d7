// Upstream's nfl-player-contact-detection/prepare.py: Kaggle's train split
// 90/10 by game_play (sklearn's train_test_split over the distinct plays of
// train_labels.csv in order of appearance, random_state 0).
//  - public/train_labels.csv, private/test.csv: the labels of each side;
//  - public/{train,test}_baseline_helmets.csv, _player_tracking.csv,
//    _video_metadata.csv: the raw train tables' rows of each side's plays;
//  - public/train/, public/test/: "<game_play>_<view>.mp4" for the views
//    All29, Endzone and Sideline of each side's plays;
//  - public/sample_submission.csv: the test contact ids with contact 0.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_str.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// A game_play value as pandas' unique()/isin() compare it: strings by
// content, numbers by value (all NaN alike).
std::string PlayKey(const Cell& cell) {
  if (const std::string* s = std::get_if<std::string>(&cell)) return "s" + *s;
  std::optional<double> v = NumericValue(cell);
  return v.has_value() && *v == *v ? absl::StrCat("n", *v) : "nan";
}

absl::StatusOr<const Column*> GamePlays(const Table& table, std::string_view file) {
  const Column* column = table.Find("game_play");
  if (column == nullptr) return absl::NotFoundError(absl::StrCat(std::string(file), " has no 'game_play' column"));
  return column;
}

// `df[df["game_play"].isin(plays)]`.
absl::StatusOr<Table> RowsOfPlays(const Table& table, std::string_view file, const std::set<std::string>& plays) {
  ASSIGN_OR_RETURN(const Column* column, GamePlays(table, file));
  std::vector<int64_t> rows;
  for (size_t row = 0; row < column->cells.size(); ++row) {
    if (plays.count(PlayKey(column->cells[row]))) rows.push_back(static_cast<int64_t>(row));
  }
  return TakeRows(table, rows);
}

// `df["game_play"].unique()` as file-name text.
std::vector<std::string> UniquePlayNames(const Column& column) {
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const Cell& cell : column.cells) {
    if (seen.insert(PlayKey(cell)).second) names.push_back(PythonStr(cell));
  }
  return names;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table labels, ReadCsvFile((raw / "train_labels.csv").string()));
  ASSIGN_OR_RETURN(const Column* plays, GamePlays(labels, "train_labels.csv"));
  std::vector<std::string> unique_keys;
  {
    std::set<std::string> seen;
    for (const Cell& cell : plays->cells) {
      if (seen.insert(PlayKey(cell)).second) unique_keys.push_back(PlayKey(cell));
    }
  }
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestIndices split,
                   TrainTestSplitIndices(static_cast<int64_t>(unique_keys.size()), options));
  std::set<std::string> train_plays, test_plays;
  for (int64_t i : split.train_indices) train_plays.insert(unique_keys[i]);
  for (int64_t i : split.test_indices) test_plays.insert(unique_keys[i]);

  ASSIGN_OR_RETURN(Table new_train, RowsOfPlays(labels, "train_labels.csv", train_plays));
  ASSIGN_OR_RETURN(Table new_test, RowsOfPlays(labels, "train_labels.csv", test_plays));
  const Column* train_ids = new_train.Find("contact_id");
  const Column* test_ids = new_test.Find("contact_id");
  if (train_ids == nullptr || test_ids == nullptr) return absl::NotFoundError("train_labels.csv has no 'contact_id' column");
  {
    std::set<std::string> train_id_keys;
    for (const Cell& cell : train_ids->cells) train_id_keys.insert(PlayKey(cell));
    for (const Cell& cell : test_ids->cells) {
      if (train_id_keys.count(PlayKey(cell))) {
        return absl::FailedPreconditionError("check failed: Train and test label share samples!");
      }
    }
  }

  std::vector<std::pair<Table, fs::path>> outputs;
  outputs.push_back({new_train, public_dir / "train_labels.csv"});
  outputs.push_back({new_test, private_dir / "test.csv"});
  for (const std::string name : {"baseline_helmets", "player_tracking", "video_metadata"}) {
    const std::string file = absl::StrCat("train_", name, ".csv");
    ASSIGN_OR_RETURN(Table table, ReadCsvFile((raw / file).string()));
    ASSIGN_OR_RETURN(Table train, RowsOfPlays(table, file, train_plays));
    ASSIGN_OR_RETURN(Table test, RowsOfPlays(table, file, test_plays));
    outputs.push_back({std::move(train), public_dir / file});
    outputs.push_back({std::move(test), public_dir / absl::StrCat("test_", name, ".csv")});
  }
  ASSIGN_OR_RETURN(Table sample, (SelectColumns(new_test, {"contact_id"})));
  RETURN_IF_ERROR(SetConstantColumn(sample, "contact", int64_t{0}));

  std::error_code error;
  for (const char* split_name : {"train", "test"}) {
    fs::create_directories(public_dir / split_name, error);
    if (error) return absl::InternalError(absl::StrCat("mkdir ", split_name, ": ", error.message()));
  }
  for (const auto& [table, path] : outputs) {
    RETURN_IF_ERROR(WriteCsvFile(table, path.string()));
  }
  for (const char* view : {"All29", "Endzone", "Sideline"}) {
    for (const auto& [split_name, table] :
         {std::pair<const char*, const Table*>{"train", &new_train},
          std::pair<const char*, const Table*>{"test", &new_test}}) {
      for (const std::string& play : UniquePlayNames(*table->Find("game_play"))) {
        const std::string video = absl::StrCat(play, "_", view, ".mp4");
        if (video.find('/') != std::string::npos) {
          return absl::InvalidArgumentError(absl::StrCat("game_play '", play, "' is not a file name part"));
        }
        fs::copy_file(raw / "train" / video, public_dir / split_name / video,
                      fs::copy_options::overwrite_existing, error);
        if (error) return absl::NotFoundError(absl::StrCat("copying train/", video, ": ", error.message()));
      }
    }
  }
  for (const auto& [split_name, table] :
       {std::pair<const char*, const Table*>{"train", &new_train},
        std::pair<const char*, const Table*>{"test", &new_test}}) {
    size_t found = 0;
    for (const fs::directory_entry& entry : fs::directory_iterator(public_dir / split_name, error)) {
      found += entry.path().extension() == ".mp4";
    }
    const size_t expected = UniquePlayNames(*table->Find("game_play")).size() * 3;
    if (found != expected) {
      return absl::FailedPreconditionError(
          absl::StrCat("check failed: expected ", expected, " ", split_name, " videos, found ", found));
    }
  }
  return WriteCsvFile(sample, (public_dir / "sample_submission.csv").string());
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
