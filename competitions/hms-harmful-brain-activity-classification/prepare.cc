// Upstream's hms-harmful-brain-activity-classification/prepare.py: a 90/10
// split of train.csv by spectrogram_id (coarser than eeg_id, so no recording
// lands on both sides), with each side's EEG and spectrogram parquet files
// copied unchanged and the expert votes turned into a gold submission.

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <system_error>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// Upstream's constants.py.
const std::vector<std::string>& TargetColumns() {
  static const auto* columns = new std::vector<std::string>{
      "seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"};
  return *columns;
}

// An integer id column's values (file names are built from them).
absl::StatusOr<std::vector<int64_t>> IdValues(const Table& table, std::string_view name) {
  ASSIGN_OR_RETURN(const Column* column, table.Get(name));
  if (column->dtype != Dtype::kInt64) {
    return absl::InvalidArgumentError(absl::StrCat("train.csv column '", std::string(name),
                                                   "' must hold integers, not ",
                                                   std::string(DtypeName(column->dtype))));
  }
  std::vector<int64_t> values;
  values.reserve(column->cells.size());
  for (const Cell& cell : column->cells) values.push_back(std::get<int64_t>(cell));
  return values;
}

// pandas' `Series.unique()`: first appearances, in order.
std::vector<int64_t> Unique(const std::vector<int64_t>& values) {
  std::set<int64_t> seen;
  std::vector<int64_t> unique;
  for (int64_t v : values) {
    if (seen.insert(v).second) unique.push_back(v);
  }
  return unique;
}

// The number of entries under `dir`, recursively (upstream's len(rglob("*"))).
size_t CountEntries(const fs::path& dir) {
  size_t count = 0;
  for ([[maybe_unused]] const auto& entry : fs::recursive_directory_iterator(dir)) ++count;
  return count;
}

absl::Status Check(bool condition, std::string_view message) {
  if (condition) return absl::OkStatus();
  return absl::InternalError(std::string(message));
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  for (const std::string& name : TargetColumns()) {
    if (old_train.Find(name) == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("train.csv lacks column '", name, "'"));
    }
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> spectrogram_ids, IdValues(old_train, "spectrogram_id"));
  ASSIGN_OR_RETURN(std::vector<int64_t> eeg_ids, IdValues(old_train, "eeg_id"));

  // train_test_split over the unique spectrogram ids.
  const std::vector<int64_t> unique_spectrograms = Unique(spectrogram_ids);
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(
      TrainTestIndices split,
      TrainTestSplitIndices(static_cast<int64_t>(unique_spectrograms.size()), options));
  std::set<int64_t> test_spectrograms;
  for (int64_t i : split.test_indices) test_spectrograms.insert(unique_spectrograms[i]);

  // `isin` keeps the rows in file order.
  std::vector<int64_t> train_rows, test_rows;
  for (size_t r = 0; r < spectrogram_ids.size(); ++r) {
    (test_spectrograms.count((spectrogram_ids)[r]) ? test_rows : train_rows)
        .push_back(static_cast<int64_t>(r));
  }
  ASSIGN_OR_RETURN(Table new_train, TakeRows(old_train, train_rows));
  ASSIGN_OR_RETURN(Table new_test, TakeRows(old_train, test_rows));
  ASSIGN_OR_RETURN(Table public_test,
                   (SelectColumns(new_test, {"spectrogram_id", "eeg_id", "patient_id"})));

  // The gold submission: each row's votes divided by their sum.
  std::vector<std::string> gold_columns = {"eeg_id"};
  gold_columns.insert(gold_columns.end(), TargetColumns().begin(), TargetColumns().end());
  ASSIGN_OR_RETURN(Table gold, SelectColumns(new_test, gold_columns));
  std::vector<double> totals(gold.num_rows(), 0.0);
  std::vector<std::vector<double>> votes;
  for (const std::string& name : TargetColumns()) {
    const Column& column = *gold.Find(name);
    std::vector<double> values;
    for (size_t r = 0; r < column.cells.size(); ++r) {
      const Cell& cell = column.cells[r];
      double v;
      if (const auto* i = std::get_if<int64_t>(&cell)) {
        v = static_cast<double>(*i);
      } else if (const auto* d = std::get_if<double>(&cell)) {
        v = *d;
      } else {
        return absl::InvalidArgumentError(
            absl::StrCat("train.csv column '", name, "' must hold numbers"));
      }
      values.push_back(v);
      if (v == v) totals[r] += v;  // pandas' sum(axis=1) skips NaN
    }
    votes.push_back(std::move(values));
  }
  for (size_t c = 0; c < TargetColumns().size(); ++c) {
    Column& column = *gold.FindMutable(TargetColumns()[c]);
    column.dtype = Dtype::kFloat64;
    for (size_t r = 0; r < column.cells.size(); ++r) column.cells[r] = votes[c][r] / totals[r];
  }
  Table sample_submission = gold;
  for (const std::string& name : TargetColumns()) {
    RETURN_IF_ERROR(SetConstantColumn(sample_submission, name, 1.0 / 6));
  }

  for (const auto& [table, path] : {
           std::pair<const Table*, fs::path>{&new_train, public_dir / "train.csv"},
           {&new_test, private_dir / "test.csv"},
           {&public_test, public_dir / "test.csv"},
           {&gold, private_dir / "gold_submission.csv"},
           {&sample_submission, public_dir / "sample_submission.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }

  // shutil.copytree: the destination must not exist yet.
  std::error_code error;
  if (!fs::is_directory(raw / "example_figures")) {
    return absl::NotFoundError(
        absl::StrCat("raw data lacks the directory ", (raw / "example_figures").string()));
  }
  fs::copy(raw / "example_figures", public_dir / "example_figures", fs::copy_options::recursive,
           error);
  if (error) {
    return absl::InternalError(absl::StrCat("cannot copy example_figures: ", error.message()));
  }

  // Each side's ids in first-appearance order.
  const auto unique_at = [](const std::vector<int64_t>& values, const std::vector<int64_t>& rows) {
    std::vector<int64_t> picked;
    for (int64_t r : rows) picked.push_back(values[r]);
    return Unique(picked);
  };
  const std::vector<int64_t> unique_train_eegs = unique_at(eeg_ids, train_rows);
  const std::vector<int64_t> unique_test_eegs = unique_at(eeg_ids, test_rows);
  const std::vector<int64_t> unique_train_spectrograms = unique_at(spectrogram_ids, train_rows);
  const std::vector<int64_t> unique_test_spectrograms = unique_at(spectrogram_ids, test_rows);
  for (const auto& [ids, from, to] : {
           std::tuple{&unique_train_eegs, raw / "train_eegs", public_dir / "train_eegs"},
           std::tuple{&unique_test_eegs, raw / "train_eegs", public_dir / "test_eegs"},
           std::tuple{&unique_train_spectrograms, raw / "train_spectrograms",
                      public_dir / "train_spectrograms"},
           std::tuple{&unique_test_spectrograms, raw / "train_spectrograms",
                      public_dir / "test_spectrograms"},
       }) {
    std::vector<std::string> names;
    for (int64_t id : *ids) names.push_back(absl::StrCat(id));
    RETURN_IF_ERROR(CopyNamedFiles(from, to, names, ".parquet"));
  }

  // Upstream's sanity checks.
  const std::set<int64_t> train_eeg_set(unique_train_eegs.begin(), unique_train_eegs.end());
  bool eegs_disjoint = true;
  for (int64_t id : unique_test_eegs) eegs_disjoint = eegs_disjoint && !train_eeg_set.count(id);
  for (const absl::Status& s : {
           Check(CountEntries(public_dir / "train_eegs") == unique_train_eegs.size(),
                 "Unexpected number of train EEGs Copied"),
           Check(CountEntries(public_dir / "test_eegs") == unique_test_eegs.size(),
                 "Unexpected number of test EEGs Copied"),
           Check(CountEntries(public_dir / "train_spectrograms") == split.train_indices.size(),
                 "Unexpected number of train Spectrograms Copied"),
           Check(CountEntries(public_dir / "test_spectrograms") == split.test_indices.size(),
                 "Unexpected number of test Spectrograms Copied"),
           Check(eegs_disjoint, "Some eeg_ids are in both train and test"),
           Check(new_train.num_columns() == 15, "Unexpected number of columns in public train"),
       }) {
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
