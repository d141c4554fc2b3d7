// Upstream's icecube-neutrinos-in-deep-ice/prepare.py: Kaggle's training
// batches split 90/10 by batch_id; the held-out batches' events become the
// test set (metadata without directions in test_meta.parquet, directions in
// the private test.csv), and each batch file is copied to train/ or test/.

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "formats/parquet.h"
#include "pycompat/python_int.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// Python's int() of a batch file name's last "_" field ("batch_12" -> 12);
// nullopt for an integer beyond int64, which is no batch id.
absl::StatusOr<std::optional<int64_t>> BatchIdOfFile(const fs::path& file) {
  const std::string stem = file.stem().string();
  const size_t underscore = stem.rfind('_');
  absl::StatusOr<int64_t> id =
      PythonIntFromString(underscore == std::string::npos ? stem : stem.substr(underscore + 1));
  if (id.ok()) return std::optional<int64_t>(*id);
  if (id.status().code() == absl::StatusCode::kOutOfRange) return std::optional<int64_t>();
  return absl::InvalidArgumentError(
      absl::StrCat(id.status().message(), " (", file.filename().string(), ")"));
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadParquetFile(raw / "train_meta.parquet"));
  ASSIGN_OR_RETURN(const Column* batch_column, old_train.Get("batch_id"));
  if (batch_column->dtype != Dtype::kInt64) {
    return absl::InvalidArgumentError("train_meta.parquet: batch_id must be an integer column");
  }
  // Series.unique(): first appearance order.
  std::vector<int64_t> batch_ids;
  std::set<int64_t> seen;
  for (const Cell& c : batch_column->cells) {
    if (seen.insert(std::get<int64_t>(c)).second) batch_ids.push_back(std::get<int64_t>(c));
  }
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestIndices split,
                   TrainTestSplitIndices(static_cast<int64_t>(batch_ids.size()), options));
  std::set<int64_t> train_batches, test_batches;
  for (int64_t i : split.train_indices) train_batches.insert(batch_ids[i]);
  for (int64_t i : split.test_indices) test_batches.insert(batch_ids[i]);

  std::vector<int64_t> train_rows, test_rows;
  for (size_t r = 0; r < batch_column->cells.size(); ++r) {
    const int64_t batch = std::get<int64_t>(batch_column->cells[r]);
    if (train_batches.count(batch)) train_rows.push_back(static_cast<int64_t>(r));
    if (test_batches.count(batch)) test_rows.push_back(static_cast<int64_t>(r));
  }
  // Kaggle's train_meta has ~131M rows: the test rows (a tenth) are copied,
  // the train rows are filtered in place rather than copied, so the
  // metadata is held once.
  ASSIGN_OR_RETURN(Table new_test_full, TakeRows(old_train, test_rows));
  RETURN_IF_ERROR(KeepRowsInPlace(old_train, train_rows));
  Table& new_train = old_train;
  ASSIGN_OR_RETURN(Table new_test_without_labels,
                   (DropColumns(new_test_full, {"azimuth", "zenith"})));
  ASSIGN_OR_RETURN(Table new_test,
                   (SelectColumns(new_test_full, {"event_id", "azimuth", "zenith"})));
  Table sample_submission = new_test;
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "azimuth", int64_t{1}));
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "zenith", int64_t{1}));

  // Upstream writes these with to_parquet(index=False, engine="fastparquet"):
  // the same bytes (see ParquetLayout::kFastparquet), so that upstream's
  // checksums can hold for them. That takes the DataFrame's dtypes to be
  // int64 and float64, as our reader gives every integer and float column,
  // i.e. Kaggle's train_meta.parquet to hold INT64 and DOUBLE columns (not
  // checked here: were one narrower, pandas would keep it narrow and the
  // bytes would differ).
  ParquetWriteOptions parquet;
  parquet.layout = ParquetLayout::kFastparquet;
  RETURN_IF_ERROR(WriteParquetFile(new_train, public_dir / "train_meta.parquet", parquet));
  new_train = Table();  // its memory is not needed any more
  RETURN_IF_ERROR(
      WriteParquetFile(new_test_without_labels, public_dir / "test_meta.parquet", parquet));
  RETURN_IF_ERROR(WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(new_test, (private_dir / "test.csv").string()));

  std::error_code ec;
  fs::copy_file(raw / "sensor_geometry.csv", public_dir / "sensor_geometry.csv",
                fs::copy_options::overwrite_existing, ec);
  if (ec) return absl::NotFoundError(absl::StrCat("copying sensor_geometry.csv: ", ec.message()));

  std::vector<fs::path> batch_files;
  if (fs::is_directory(raw / "train")) {
    for (const auto& entry : fs::directory_iterator(raw / "train")) {
      if (entry.path().extension() == ".parquet") batch_files.push_back(entry.path());
    }
  }
  std::sort(batch_files.begin(), batch_files.end());
  fs::create_directories(public_dir / "train");
  fs::create_directories(public_dir / "test");
  size_t copied_train = 0, copied_test = 0;
  for (const fs::path& file : batch_files) {
    ASSIGN_OR_RETURN(std::optional<int64_t> id, BatchIdOfFile(file));
    if (!id.has_value()) continue;
    const fs::path* dest = nullptr;
    fs::path train_dest = public_dir / "train" / file.filename();
    fs::path test_dest = public_dir / "test" / file.filename();
    if (train_batches.count(*id)) {
      dest = &train_dest;
      ++copied_train;
    } else if (test_batches.count(*id)) {
      dest = &test_dest;
      ++copied_test;
    } else {
      continue;
    }
    fs::copy_file(file, *dest, fs::copy_options::overwrite_existing, ec);
    if (ec)
      return absl::InternalError(
          absl::StrCat("copying ", file.filename().string(), ": ", ec.message()));
  }
  // Upstream's checks.
  if (copied_train != train_batches.size())
    return absl::FailedPreconditionError("Not all train batches copied");
  if (copied_test != test_batches.size())
    return absl::FailedPreconditionError("Not all test batches copied");
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
