// Upstream's smartphone-decimeter-2022/prepare.py: Kaggle's train drives
// (raw/train/<YYYY-MM-DD-...>/<phone>/) split 90/10 by drive date (sklearn's
// train_test_split over the sorted distinct dates).
//  - public/train/<drive>/: copies of the train drives;
//  - public/test/<drive>/: copies of the test drives without ground_truth.csv;
//  - private/test.csv: every test ground_truth.csv (path order) as tripId
//    ("<drive>-<phone>"), UnixTimeMillis, LatitudeDegrees, LongitudeDegrees;
//  - public/sample_submission.csv: the same rows with one constant position;
//  - public/metadata/: a copy of raw/metadata/.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

bool AllDigits(const std::string& s) {
  // ASSUMPTION: ASCII digits only; Python's str.isdigit also accepts other
  // Unicode digits, which Kaggle's drive names never contain.
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::string ZeroFill(const std::string& s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), '0') + s;
}

// Upstream's get_date: "YYYY-M-D-rest" -> "YYYY-MM-DD".
absl::StatusOr<std::string> DriveDate(const std::string& drive) {
  std::vector<std::string> parts = absl::StrSplit(drive, '-');
  if (parts.size() < 3) {
    return CheckFailed(absl::StrCat("drive '", drive, "' has fewer than 3 '-'-separated parts"));
  }
  for (int i = 0; i < 3; ++i) {
    if (!AllDigits(parts[i])) {
      return CheckFailed(absl::StrCat("drive '", drive, "': '", parts[i], "' is not digits"));
    }
  }
  return absl::StrCat(parts[0], "-", ZeroFill(parts[1], 2), "-", ZeroFill(parts[2], 2));
}

// pathlib's ordering: part by part, not as one string ("a/x" < "a-b/x").
bool PathPartsLess(const fs::path& a, const fs::path& b) {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                      [](const fs::path& x, const fs::path& y) {
                                        return x.string() < y.string();
                                      });
}

// Every file named ground_truth.csv under `dir` (pathlib's rglob), sorted.
absl::StatusOr<std::vector<fs::path>> GroundTruthFiles(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code error;
  for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end;
       it.increment(error)) {
    if (it->path().filename() == "ground_truth.csv") files.push_back(it->path());
  }
  if (error) return absl::InternalError(absl::StrCat("listing ", dir.string(), ": ", error.message()));
  std::sort(files.begin(), files.end(), PathPartsLess);
  return files;
}

// pd.concat(tables, ignore_index=True) for tables with the same columns in
// the same order: dtypes combine as pandas does (int64 with float64 gives
// float64; anything else mixed gives object); empty tables do not take part
// in the dtype, as in pandas 2.2.
absl::StatusOr<Table> ConcatRows(const std::vector<Table>& tables) {
  if (tables.empty()) return absl::InvalidArgumentError("No objects to concatenate");
  std::vector<Column> columns;
  for (const Column& c : tables[0].columns()) columns.push_back(Column{.name = c.name, .dtype = c.dtype, .cells = {}});
  std::vector<bool> dtype_set(columns.size(), false);
  for (const Table& table : tables) {
    if (table.ColumnNames() != tables[0].ColumnNames()) {
      return absl::InvalidArgumentError("tables to concatenate differ in columns");
    }
    for (size_t c = 0; c < columns.size(); ++c) {
      const Column& part = table.columns()[c];
      columns[c].cells.insert(columns[c].cells.end(), part.cells.begin(), part.cells.end());
      if (part.cells.empty()) continue;
      Dtype& dtype = columns[c].dtype;
      if (!dtype_set[c]) {
        dtype = part.dtype;
        dtype_set[c] = true;
      } else if (dtype != part.dtype) {
        const bool numeric = (dtype == Dtype::kInt64 || dtype == Dtype::kFloat64) &&
                             (part.dtype == Dtype::kInt64 || part.dtype == Dtype::kFloat64);
        dtype = numeric ? Dtype::kFloat64 : Dtype::kObject;
      }
    }
  }
  for (Column& column : columns) {
    if (column.dtype != Dtype::kFloat64) continue;
    for (Cell& cell : column.cells) {
      if (const int64_t* i = std::get_if<int64_t>(&cell)) cell = static_cast<double>(*i);
    }
  }
  return Table(std::move(columns));
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  std::error_code error;
  std::vector<std::string> old_train_ids;
  for (fs::directory_iterator it(raw / "train", error), end; !error && it != end;
       it.increment(error)) {
    std::error_code ignored;
    if (fs::is_directory(it->path(), ignored)) old_train_ids.push_back(it->path().filename().string());
  }
  if (error) return absl::NotFoundError(absl::StrCat("listing raw/train: ", error.message()));
  std::sort(old_train_ids.begin(), old_train_ids.end());

  std::set<std::string> date_set;
  for (const std::string& id : old_train_ids) {
    ASSIGN_OR_RETURN(std::string date, DriveDate(id));
    date_set.insert(date);
  }
  const std::vector<std::string> dates(date_set.begin(), date_set.end());
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestIndices split,
                   TrainTestSplitIndices(static_cast<int64_t>(dates.size()), options));
  std::set<std::string> train_dates, test_dates;
  for (int64_t i : split.train_indices) train_dates.insert(dates[i]);
  for (int64_t i : split.test_indices) test_dates.insert(dates[i]);
  if (train_dates.empty()) return CheckFailed("the new train set has no date");
  if (test_dates.empty()) return CheckFailed("the new test set has no date");

  std::vector<std::string> train_ids, test_ids;
  for (const std::string& id : old_train_ids) {
    const std::string date = *DriveDate(id);
    if (train_dates.count(date)) train_ids.push_back(id);
    if (test_dates.count(date)) test_ids.push_back(id);
  }
  if (train_ids.size() + test_ids.size() != old_train_ids.size()) {
    return CheckFailed("train and test drives do not add up to the old train drives");
  }

  for (const std::string& id : train_ids) {
    RETURN_IF_ERROR(CopyFolderTree(raw / "train" / id, public_dir / "train" / id));
  }
  for (const std::string& id : test_ids) {
    RETURN_IF_ERROR(CopyFolderTree(raw / "train" / id, public_dir / "test" / id));
  }

  ASSIGN_OR_RETURN(std::vector<fs::path> truth_files, GroundTruthFiles(public_dir / "test"));
  const std::set<std::string> test_id_set(test_ids.begin(), test_ids.end());
  std::vector<Table> parts;
  for (const fs::path& file : truth_files) {
    const std::string drive = file.parent_path().parent_path().filename().string();
    const std::string phone = file.parent_path().filename().string();
    if (!test_id_set.count(drive)) {
      return CheckFailed(absl::StrCat("drive '", drive, "' is not a new test drive"));
    }
    ASSIGN_OR_RETURN(Table truth, ReadCsvFile(file.string()));
    if (truth.num_columns() > 0) {
      RETURN_IF_ERROR(SetConstantColumn(truth, "tripId", absl::StrCat(drive, "-", phone)));
    }
    absl::StatusOr<Table> selected =
        SelectColumns(truth, {"tripId", "UnixTimeMillis", "LatitudeDegrees", "LongitudeDegrees"});
    if (!selected.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(file.lexically_relative(public_dir).string(), ": ", selected.status().message()));
    }
    parts.push_back(*std::move(selected));
  }
  ASSIGN_OR_RETURN(Table new_test, ConcatRows(parts));
  RETURN_IF_ERROR(WriteCsvFile(new_test, (private_dir / "test.csv").string()));
  for (const fs::path& file : truth_files) fs::remove(file, error);

  RETURN_IF_ERROR(CopyFolderTree(raw / "metadata", public_dir / "metadata"));

  std::set<std::string> journeys;
  for (const Cell& cell : new_test.Find("tripId")->cells) {
    std::vector<std::string> pieces = absl::StrSplit(std::get<std::string>(cell), '-');
    pieces.pop_back();
    journeys.insert(absl::StrJoin(pieces, "-"));
  }
  if (journeys.size() != test_ids.size()) {
    return CheckFailed(absl::StrCat("expected ", test_ids.size(), " test journeys in the ground truth, got ",
                                    journeys.size()));
  }

  Table sample_submission = new_test;
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "LatitudeDegrees", 37.904611315634504));
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "LongitudeDegrees", -86.48107806249548));
  RETURN_IF_ERROR(WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string()));

  ASSIGN_OR_RETURN(std::vector<fs::path> train_truth, GroundTruthFiles(public_dir / "train"));
  if (train_truth.size() < train_ids.size()) {
    return CheckFailed("fewer ground_truth.csv files in public/train than train drives");
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
