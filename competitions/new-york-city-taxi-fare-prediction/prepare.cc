// Upstream's new-york-city-taxi-fare-prediction/prepare.py: Kaggle's test set
// has no labels, so 9914 rows (the size of Kaggle's test set) of the
// labelled train.csv become the test set and the rest `labels.csv`.
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// A table and the file it is written to.
using CsvOutput = std::pair<const Table*, fs::path>;

constexpr int64_t kTestRows = 9914;
constexpr double kSampleFare = 11.35;  // the mean fare of Kaggle's train.csv
constexpr char kCoupons[] = "GCP-Coupons-Instructions.rtf";

// `set(a).isdisjoint(set(b))` with Python's set equality.
bool Disjoint(const Column& a, const Column& b) {
  const Column empty{a.name, a.dtype, {}};
  return SymmetricDifferenceSize(a, b) ==
         SymmetricDifferenceSize(a, empty) + SymmetricDifferenceSize(b, empty);
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  TrainTestSplitOptions options;
  options.test_size = kTestRows;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  const Table& new_train = split.train;
  const Table& new_test = split.test;
  ASSIGN_OR_RETURN(Table new_test_without_labels, (DropColumns(new_test, {"fare_amount"})));
  ASSIGN_OR_RETURN(Table sample_submission, (SelectColumns(new_test, {"key"})));
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "fare_amount", kSampleFare));

  // Upstream's checks (it runs them after writing; we run them first so that
  // bad input leaves no output).
  if (!Disjoint(*new_train.Find("key"), *new_test.Find("key"))) {
    return CheckFailed("Train and test sets share samples!");
  }
  if (new_test.num_columns() != 8) {
    return CheckFailed(
        absl::StrCat("Test set should have 8 columns, but has ", new_test.num_columns()));
  }
  if (new_test_without_labels.num_columns() != 7) {
    return CheckFailed(absl::StrCat("Test set without labels should have 7 columns, but has ",
                                    new_test_without_labels.num_columns()));
  }
  if (new_train.num_columns() != 8) {
    return CheckFailed(
        absl::StrCat("Train set should have 8 columns, but has ", new_train.num_columns()));
  }
  if (sample_submission.num_columns() != 2) {
    return CheckFailed(absl::StrCat("Sample submission should have 2 columns, but has ",
                                    sample_submission.num_columns()));
  }
  if (sample_submission.num_rows() != new_test.num_rows()) {
    return CheckFailed(absl::StrCat("Sample submission should have ", new_test.num_rows(),
                                    " rows, but has ", sample_submission.num_rows()));
  }
  const fs::path coupons = raw / kCoupons;
  if (!fs::is_regular_file(coupons)) {
    return absl::NotFoundError(absl::StrCat("raw data has no file ", kCoupons));
  }

  for (const auto& [table, path] : {
           CsvOutput{&new_train, public_dir / "labels.csv"},
           CsvOutput{&new_test_without_labels, public_dir / "test.csv"},
           CsvOutput{&sample_submission, public_dir / "sample_submission.csv"},
           CsvOutput{&new_test, private_dir / "test.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  std::error_code error;
  fs::copy_file(coupons, public_dir / kCoupons, fs::copy_options::overwrite_existing, error);
  if (error) {
    return absl::InternalError(absl::StrCat("copying ", kCoupons, ": ", error.message()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
