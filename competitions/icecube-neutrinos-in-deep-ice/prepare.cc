// Upstream's icecube-neutrinos-in-deep-ice/prepare.py: Kaggle's training
// batches split 90/10 by batch_id; the held-out batches' events become the
// test set (metadata without directions in test_meta.parquet, directions in
// the private test.csv), and each batch file is copied to train/ or test/.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/typed_csv_writer.h"
#include "base/typed_table.h"
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

// train_meta.parquet read a column of a row group at a time, and which of
// its rows went to the test set. Kaggle's file has ~131M rows: as a Table
// it would take ~40 bytes a cell (~32 GB); here one column chunk of it is
// held at a time, plus a byte a row (docs/performance.md, "Preparers' memory").
class MetaRows {
 public:
  MetaRows(ParquetFileReader& meta, std::vector<uint8_t> in_test)
      : meta_(meta), in_test_(std::move(in_test)) {
    int64_t row = 0;
    for (int g = 0; g < meta.num_row_groups(); ++g) {
      size_t test = 0;
      for (int64_t r = 0; r < meta.row_group_rows(g); ++r) test += in_test_[row + r];
      test_rows_before_.push_back(test_rows_);
      train_rows_before_.push_back(train_rows_);
      test_rows_ += test;
      train_rows_ += static_cast<size_t>(meta.row_group_rows(g)) - test;
      row += meta.row_group_rows(g);
    }
  }

  size_t rows(bool test) const { return test ? test_rows_ : train_rows_; }

  // Column `name` of the test (or train) rows [begin, end), counted among
  // those rows in file order.
  absl::StatusOr<TypedColumn> Gather(std::string_view name, bool test, size_t begin, size_t end) {
    ASSIGN_OR_RETURN(const Dtype dtype, meta_.ColumnDtype(name));
    std::vector<int64_t> ints;
    std::vector<double> doubles;
    std::vector<uint8_t> bools;
    int64_t first_row = 0;
    for (int g = 0; g < meta_.num_row_groups(); ++g) {
      const int64_t group_rows = meta_.row_group_rows(g);
      size_t index = test ? test_rows_before_[g] : train_rows_before_[g];
      const size_t next_index = g + 1 < meta_.num_row_groups()
                                    ? (test ? test_rows_before_[g + 1] : train_rows_before_[g + 1])
                                    : rows(test);
      if (next_index <= begin || index >= end) {
        first_row += group_rows;
        continue;
      }
      ASSIGN_OR_RETURN(const TypedColumn chunk, meta_.ReadColumn(g, name));
      for (int64_t r = 0; r < group_rows; ++r) {
        if ((in_test_[first_row + r] != 0) != test) continue;
        if (index >= begin && index < end) {
          switch (chunk.storage()) {
            case TypedColumn::Storage::kInt64:
              ints.push_back(chunk.ints()[r]);
              break;
            case TypedColumn::Storage::kFloat64:
              doubles.push_back(chunk.doubles()[r]);
              break;
            case TypedColumn::Storage::kBool:
              bools.push_back(chunk.bools()[r]);
              break;
            default:
              return absl::UnimplementedError(absl::StrCat(
                  "train_meta.parquet: column '", std::string(name), "' of dtype ",
                  std::string(DtypeName(dtype)), " (the prepared files hold numbers and bools)"));
          }
        }
        ++index;
      }
      first_row += group_rows;
    }
    switch (dtype) {
      case Dtype::kInt64:
        return TypedColumn::Ints(std::string(name), std::move(ints));
      case Dtype::kFloat64:
        return TypedColumn::Doubles(std::string(name), std::move(doubles));
      case Dtype::kBool:
        return TypedColumn::Bools(std::string(name), std::move(bools));
      default:
        return TypedColumn::Ints(std::string(name), {});  // no rows: nothing to hold
    }
  }

  // DataFrame.to_parquet(path, index=False, engine="fastparquet") of columns
  // `names` of the test (or train) rows: a column chunk at a time.
  absl::Status WriteParquet(const fs::path& path, const std::vector<std::string>& names,
                            bool test) {
    std::vector<Column> schema;
    for (const std::string& name : names) {
      ASSIGN_OR_RETURN(const Dtype dtype, meta_.ColumnDtype(name));
      schema.push_back(Column{name, dtype, {}});
    }
    // Upstream writes these with engine="fastparquet": the same bytes (see
    // ParquetLayout::kFastparquet), so that upstream's checksums can hold
    // for them. That takes the DataFrame's dtypes to be int64 and float64,
    // as our reader gives every integer and float column, i.e. Kaggle's
    // train_meta.parquet to hold INT64 and DOUBLE columns (not checked here:
    // were one narrower, pandas would keep it narrow and the bytes would
    // differ).
    ParquetWriteOptions options;
    options.layout = ParquetLayout::kFastparquet;
    ASSIGN_OR_RETURN(FastparquetFileWriter writer,
                     FastparquetFileWriter::Open(path, schema, rows(test), options));
    for (const auto& [begin, end] : writer.RowGroups()) {
      for (const std::string& name : names) {
        ASSIGN_OR_RETURN(const TypedColumn chunk, Gather(name, test, begin, end));
        RETURN_IF_ERROR(writer.WriteChunk(chunk));
      }
    }
    return writer.Close();
  }

 private:
  ParquetFileReader& meta_;
  std::vector<uint8_t> in_test_;  // per row of the file
  size_t test_rows_ = 0, train_rows_ = 0;
  std::vector<size_t> test_rows_before_, train_rows_before_;  // per row group
};

// DataFrame.to_csv(path, index=False) of `columns` (of equal length), every
// row in order, a slice at a time (WriteTypedCsvRows) so that no Table of
// them all is built.
absl::Status WriteAllRows(const std::vector<const TypedColumn*>& columns, const fs::path& path) {
  std::vector<int64_t> rows(columns.empty() ? 0 : columns[0]->size());
  std::iota(rows.begin(), rows.end(), int64_t{0});
  return WriteTypedCsvRows(columns, rows, path.string());
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(ParquetFileReader meta, ParquetFileReader::Open(raw / "train_meta.parquet"));
  ASSIGN_OR_RETURN(const Dtype batch_dtype, meta.ColumnDtype("batch_id"));
  if (batch_dtype != Dtype::kInt64) {
    return absl::InvalidArgumentError("train_meta.parquet: batch_id must be an integer column");
  }
  // Series.unique(): first appearance order.
  std::vector<int64_t> batch_ids;
  std::set<int64_t> seen;
  for (int g = 0; g < meta.num_row_groups(); ++g) {
    ASSIGN_OR_RETURN(const TypedColumn batches, meta.ReadColumn(g, "batch_id"));
    for (int64_t batch : batches.ints()) {
      if (seen.insert(batch).second) batch_ids.push_back(batch);
    }
  }
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestIndices split,
                   TrainTestSplitIndices(static_cast<int64_t>(batch_ids.size()), options));
  std::set<int64_t> train_batches, test_batches;
  for (int64_t i : split.train_indices) train_batches.insert(batch_ids[i]);
  for (int64_t i : split.test_indices) test_batches.insert(batch_ids[i]);

  // Every batch is on one side: a row is in the test set or in train.
  std::vector<uint8_t> in_test;
  in_test.reserve(static_cast<size_t>(meta.num_rows()));
  for (int g = 0; g < meta.num_row_groups(); ++g) {
    ASSIGN_OR_RETURN(const TypedColumn batches, meta.ReadColumn(g, "batch_id"));
    for (int64_t batch : batches.ints()) in_test.push_back(test_batches.count(batch) ? 1 : 0);
  }
  // The columns upstream's DataFrames hold: new_train all of them,
  // new_test_without_labels all but the directions, new_test (the answers)
  // event_id and the directions.
  const std::vector<std::string> names = meta.ColumnNames();
  std::vector<std::string> test_meta_names;
  for (const std::string& name : names) {
    if (name != "azimuth" && name != "zenith") test_meta_names.push_back(name);
  }
  for (const char* needed : {"event_id", "azimuth", "zenith"}) {
    RETURN_IF_ERROR(meta.ColumnDtype(needed).status());
  }
  MetaRows rows(meta, std::move(in_test));
  RETURN_IF_ERROR(rows.WriteParquet(public_dir / "train_meta.parquet", names, /*test=*/false));
  RETURN_IF_ERROR(
      rows.WriteParquet(public_dir / "test_meta.parquet", test_meta_names, /*test=*/true));
  {
    const size_t n = rows.rows(/*test=*/true);
    ASSIGN_OR_RETURN(const TypedColumn event_id, rows.Gather("event_id", true, 0, n));
    ASSIGN_OR_RETURN(const TypedColumn azimuth, rows.Gather("azimuth", true, 0, n));
    ASSIGN_OR_RETURN(const TypedColumn zenith, rows.Gather("zenith", true, 0, n));
    // The sample submission: the answers with both directions set to the int 1.
    const TypedColumn ones_azimuth = TypedColumn::Ints("azimuth", std::vector<int64_t>(n, 1));
    const TypedColumn ones_zenith = TypedColumn::Ints("zenith", std::vector<int64_t>(n, 1));
    RETURN_IF_ERROR(WriteAllRows({&event_id, &ones_azimuth, &ones_zenith},
                                 public_dir / "sample_submission.csv"));
    RETURN_IF_ERROR(WriteAllRows({&event_id, &azimuth, &zenith}, private_dir / "test.csv"));
  }

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
