// Upstream's spaceship-titanic/prepare.py: a 90/10 split of Kaggle's
// labelled train.csv, the held-out tenth becoming the test set.
#include <filesystem>
#include <utility>

#include "absl/status/status.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

// A table and the file it is written to.
using CsvOutput = std::pair<const Table*, std::filesystem::path>;

absl::Status Prepare(const std::filesystem::path& raw, const std::filesystem::path& public_dir,
                     const std::filesystem::path& private_dir,
                     const std::filesystem::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));

  // Every output is built before any is written, so a missing column leaves
  // no partial output behind.
  ASSIGN_OR_RETURN(Table sample_submission,
                   (SelectColumns(split.test, {"PassengerId", "Transported"})));
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "Transported", false));
  ASSIGN_OR_RETURN(Table public_test, (DropColumns(split.test, {"Transported"})));

  for (const auto& [table, path] : {
           CsvOutput{&sample_submission, public_dir / "sample_submission.csv"},
           CsvOutput{&split.test, private_dir / "test.csv"},
           CsvOutput{&split.train, public_dir / "train.csv"},
           CsvOutput{&public_test, public_dir / "test.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
