// Upstream's uw-madison-gi-tract-image-segmentation/prepare.py: Kaggle's
// labelled train set (train.csv: id = "<case>_<day>_slice_<nnnn>", class,
// segmentation; train/<case>/<case>_<day>/scans/slice_<nnnn>_<w>_<h>_*.png)
// split by case (10% of cases to test, random_state 42), after which every
// train case's days past its fourth (by day number) move to test as well. The
// private answers carry each test slice's image size, read from its file name.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "pycompat/python_int.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

absl::Status CheckFailed(const std::string& message) {
  return absl::FailedPreconditionError(absl::StrCat("check failed: ", message));
}

// Python's str.split("_").
std::vector<std::string> SplitUnderscores(const std::string& text) {
  std::vector<std::string> parts(1);
  for (char c : text) {
    if (c == '_') {
      parts.emplace_back();
    } else {
      parts.back().push_back(c);
    }
  }
  return parts;
}

// One train.csv row's place in the folder tree.
struct SliceRow {
  std::string case_id;  // "case123"
  std::string day;      // "day20"
  std::string slice;    // "0001"
  bool test = false;
  std::string DayFolder() const { return case_id + "_" + day; }
};

absl::StatusOr<std::vector<SliceRow>> SliceRows(const Table& table) {
  ASSIGN_OR_RETURN(const Column* ids, table.Get("id"));
  std::vector<SliceRow> rows;
  rows.reserve(ids->cells.size());
  for (size_t row = 0; row < ids->cells.size(); ++row) {
    const std::string* id = std::get_if<std::string>(&ids->cells[row]);
    if (id == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("train.csv row ", row + 1, ": id is not text"));
    }
    const std::vector<std::string> parts = SplitUnderscores(*id);
    if (parts.size() < 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("train.csv row ", row + 1, ": id '", *id, "' has no day"));
    }
    // The parts name folders and file name prefixes.
    for (const std::string& part : {parts[0], parts[1], parts.back()}) {
      if (part.empty() || part == "." || part == ".." || part.find('/') != std::string::npos ||
          part.find('\0') != std::string::npos) {
        return absl::InvalidArgumentError(
            absl::StrCat("train.csv row ", row + 1, ": id '", *id, "' names no folder"));
      }
    }
    rows.push_back(SliceRow{parts[0], parts[1], parts.back()});
  }
  return rows;
}

// Marks test rows: whole test cases, then each train case's days after its
// fourth (sorted by the number after "day").
absl::Status AssignSets(std::vector<SliceRow>& rows, const std::set<std::string>& test_cases) {
  std::map<std::string, std::set<std::string>> train_days;  // case -> its days
  for (SliceRow& row : rows) {
    row.test = test_cases.count(row.case_id) > 0;
    if (!row.test) train_days[row.case_id].insert(row.day);
  }
  std::set<std::pair<std::string, std::string>> moved;  // (case, day)
  for (const auto& [case_id, days] : train_days) {
    if (days.size() <= 4) continue;
    std::vector<std::pair<int64_t, std::string>> numbered;
    for (const std::string& day : days) {
      absl::StatusOr<int64_t> number = PythonIntFromString(day.size() > 3 ? day.substr(3) : "");
      if (!number.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "day '", day, "' of ", case_id, " has no number: ", number.status().message()));
      }
      numbered.emplace_back(*number, day);
    }
    std::sort(numbered.begin(), numbered.end());
    for (size_t i = 4; i < numbered.size(); ++i) moved.emplace(case_id, numbered[i].second);
  }
  for (SliceRow& row : rows) {
    if (moved.count({row.case_id, row.day}) > 0) row.test = true;
  }
  return absl::OkStatus();
}

// verify_directory_sync: every row's day folder is under `expected` and not
// under `unexpected`.
absl::Status VerifyDirectorySync(const std::vector<SliceRow>& rows, bool test,
                                 const fs::path& expected, const fs::path& unexpected) {
  for (const SliceRow& row : rows) {
    if (row.test != test) continue;
    const fs::path present = expected / row.case_id / row.DayFolder();
    if (!fs::exists(present)) {
      return CheckFailed(absl::StrCat("Directory ", present.string(),
                                      " does not exist but is listed in the dataframe."));
    }
    const fs::path absent = unexpected / row.case_id / row.DayFolder();
    if (fs::exists(absent)) {
      return CheckFailed(absl::StrCat("Directory ", absent.string(),
                                      " exists but is not listed in the dataframe."));
    }
  }
  return absl::OkStatus();
}

// The (width, height) in the name of the one scan "slice_<slice>_*.png" of
// the row's day: its stem's third and fourth "_"-separated fields.
absl::StatusOr<std::pair<int64_t, int64_t>> ImageSize(const fs::path& train_dir,
                                                      const SliceRow& row) {
  const fs::path scans = train_dir / row.case_id / row.DayFolder() / "scans";
  const std::string prefix = "slice_" + row.slice + "_";
  std::vector<fs::path> matches;
  std::error_code error;
  if (fs::is_directory(scans)) {
    for (fs::directory_iterator it(scans, error), end; !error && it != end; it.increment(error)) {
      const std::string name = it->path().filename().string();
      if (name.size() >= prefix.size() + 4 && name.compare(0, prefix.size(), prefix) == 0 &&
          name.compare(name.size() - 4, 4, ".png") == 0) {
        matches.push_back(it->path());
      }
    }
  }
  if (error) return absl::InternalError(absl::StrCat("cannot list ", scans.string()));
  if (matches.size() != 1) {
    return CheckFailed(absl::StrCat("Expected 1 image, found ", matches.size(), " (",
                                    scans.string(), "/", prefix, "*.png)"));
  }
  const std::vector<std::string> fields = SplitUnderscores(matches[0].stem().string());
  if (fields.size() < 4) {
    return absl::InvalidArgumentError(
        absl::StrCat("image name ", matches[0].filename().string(), " holds no width and height"));
  }
  ASSIGN_OR_RETURN(int64_t width, PythonIntFromString(fields[2]));
  ASSIGN_OR_RETURN(int64_t height, PythonIntFromString(fields[3]));
  return std::make_pair(width, height);
}

absl::StatusOr<Table> Rows(const Table& table, const std::vector<SliceRow>& rows, bool test) {
  std::vector<int64_t> positions;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].test == test) positions.push_back(static_cast<int64_t>(i));
  }
  return TakeRows(table, positions);
}

// `df.rename(columns={"segmentation": "predicted"})` (absent: no change).
void RenameSegmentation(Table& table) {
  if (Column* column = table.FindMutable("segmentation")) column->name = "predicted";
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  ASSIGN_OR_RETURN(std::vector<SliceRow> rows, SliceRows(old_train));

  // Split the cases, in order of first appearance.
  std::vector<std::string> unique_cases;
  std::set<std::string> seen;
  for (const SliceRow& row : rows) {
    if (seen.insert(row.case_id).second) unique_cases.push_back(row.case_id);
  }
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 42;
  ASSIGN_OR_RETURN(TrainTestIndices split,
                   TrainTestSplitIndices(static_cast<int64_t>(unique_cases.size()), options));
  std::set<std::string> test_cases;
  for (int64_t i : split.test_indices) test_cases.insert(unique_cases[i]);
  RETURN_IF_ERROR(AssignSets(rows, test_cases));

  // Copy each case to its side, then move the test days of train cases.
  const fs::path old_train_dir = raw / "train";
  const fs::path new_train_dir = public_dir / "train";
  const fs::path new_test_dir = public_dir / "test";
  std::error_code error;
  fs::create_directories(new_train_dir, error);
  if (!error) fs::create_directories(new_test_dir, error);
  if (error) return absl::InternalError(absl::StrCat("cannot create ", new_test_dir.string()));
  for (const std::string& case_id : unique_cases) {
    const fs::path source = old_train_dir / case_id;
    if (!fs::is_directory(source)) {
      return absl::NotFoundError(absl::StrCat("raw data has no folder train/", case_id));
    }
    const fs::path target =
        (test_cases.count(case_id) > 0 ? new_test_dir : new_train_dir) / case_id;
    fs::copy(source, target, fs::copy_options::recursive | fs::copy_options::overwrite_existing,
             error);
    if (error) {
      return absl::InternalError(
          absl::StrCat("cannot copy ", source.string(), ": ", error.message()));
    }
  }
  for (const SliceRow& row : rows) {
    if (!row.test) continue;
    const fs::path source = new_train_dir / row.case_id / row.DayFolder();
    if (!fs::exists(source)) continue;
    const fs::path target = new_test_dir / row.case_id / row.DayFolder();
    fs::create_directories(target.parent_path(), error);
    if (!error) fs::rename(source, target, error);
    if (error) return absl::InternalError(absl::StrCat("cannot move ", source.string()));
  }

  RETURN_IF_ERROR(VerifyDirectorySync(rows, false, new_train_dir, new_test_dir));
  RETURN_IF_ERROR(VerifyDirectorySync(rows, true, new_test_dir, new_train_dir));

  ASSIGN_OR_RETURN(Table new_train, Rows(old_train, rows, false));
  ASSIGN_OR_RETURN(Table new_test, Rows(old_train, rows, true));
  if (new_test.num_rows() == 0) {
    // Upstream never creates the size columns, and dropping them fails.
    return CheckFailed("the test set is empty");
  }
  // `new_test.loc[row, "image_width"] = width` creates float64 columns.
  Column widths{"image_width", Dtype::kFloat64, {}};
  Column heights{"image_height", Dtype::kFloat64, {}};
  for (const SliceRow& row : rows) {
    if (!row.test) continue;
    absl::StatusOr<std::pair<int64_t, int64_t>> size = ImageSize(old_train_dir, row);
    if (!size.ok()) return size.status();
    widths.cells.push_back(static_cast<double>(size->first));
    heights.cells.push_back(static_cast<double>(size->second));
  }
  for (Column* column : {&widths, &heights}) {
    if (new_test.Find(column->name) != nullptr) {
      *new_test.FindMutable(column->name) = std::move(*column);
    } else {
      new_test.mutable_columns().push_back(std::move(*column));
    }
  }

  ASSIGN_OR_RETURN(Table sample_submission,
                   (DropColumns(new_test, {"image_height", "image_width"})));
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "segmentation", std::string("1 1 5 2")));
  RenameSegmentation(sample_submission);
  RenameSegmentation(new_test);
  ASSIGN_OR_RETURN(Table public_test,
                   (DropColumns(new_test, {"predicted", "image_width", "image_height"})));

  if (public_test.num_columns() != 2) return CheckFailed("Public test should have 2 columns.");
  if (new_train.num_columns() != 3) return CheckFailed("Public train should have 3 columns.");

  for (const auto& [table, path] : std::vector<std::pair<const Table*, fs::path>>{
           {&sample_submission, public_dir / "sample_submission.csv"},
           {&new_test, private_dir / "test.csv"},
           {&new_train, public_dir / "train.csv"},
           {&public_test, public_dir / "test.csv"}}) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  return absl::OkStatus();
}

}  // namespace

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID,
    .prepare = &Prepare,
});

}  // namespace mlebench
