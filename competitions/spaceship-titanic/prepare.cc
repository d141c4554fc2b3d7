// Upstream's spaceship-titanic/prepare.py: a 90/10 split of Kaggle's
// labelled train.csv, the held-out tenth becoming the test set.
#include <filesystem>
#include <utility>

#include "absl/status/status.h"
#include "competitions/common/preparer.h"
#include "competitions/common/table_ops.h"
#include "pycompat/train_test_split.h"
#include "base/csv.h"

namespace mlebench {
namespace {

// A table and the file it is written to.
using CsvOutput = std::pair<const Table*, std::filesystem::path>;

absl::Status Prepare(const std::filesystem::path& raw, const std::filesystem::path& public_dir,
                     const std::filesystem::path& private_dir,
                     const std::filesystem::path& /*scratch*/) {
  absl::StatusOr<Table> old_train = ReadCsvFile((raw / "train.csv").string());
  if (!old_train.ok()) return old_train.status();
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestTables> split = TrainTestSplitTable(*old_train, options);
  if (!split.ok()) return split.status();

  // Every output is built before any is written, so a missing column leaves
  // no partial output behind.
  absl::StatusOr<Table> sample_submission = SelectColumns(split->test, {"PassengerId", "Transported"});
  if (!sample_submission.ok()) return sample_submission.status();
  if (absl::Status s = SetConstantColumn(*sample_submission, "Transported", false); !s.ok()) return s;
  absl::StatusOr<Table> public_test = DropColumns(split->test, {"Transported"});
  if (!public_test.ok()) return public_test.status();

  for (const auto& [table, path] : {
           CsvOutput{&*sample_submission, public_dir / "sample_submission.csv"},
           CsvOutput{&split->test, private_dir / "test.csv"},
           CsvOutput{&split->train, public_dir / "train.csv"},
           CsvOutput{&*public_test, public_dir / "test.csv"},
       }) {
    if (absl::Status s = WriteCsvFile(*table, path.string()); !s.ok()) return s;
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
