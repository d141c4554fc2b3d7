// Upstream's tabular-playground-series-may-2022/prepare.py: 100,000 rows of
// Kaggle's labelled train.csv become the test set, the rest the new train
// set; ids are renumbered 0.. through train, then test. The answers keep
// every column; gold and sample submissions hold `id` and `target` (0.5 in
// the sample).
//
// The split takes an absolute test size, as upstream's does, so the raw
// train.csv must have more than 100,000 rows (Kaggle's has 900,000);
// scikit-learn's error otherwise.
#include <cstdint>
#include <filesystem>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

constexpr int64_t kTestRows = 100'000;

// A table and the file it is written to.
using CsvOutput = std::pair<const Table*, std::filesystem::path>;

// `table.id = np.arange(first, first + len(table))`: the `id` column, in
// place, becomes int64 row numbers. Upstream's attribute assignment only
// replaces an existing column (otherwise pandas sets a Python attribute and
// the later `[["id", "target"]]` raises KeyError), so a missing `id` is an
// error here.
absl::Status RenumberIds(Table& table, int64_t first) {
  Column* id = table.FindMutable("id");
  if (id == nullptr) return absl::NotFoundError("column `id` not found in train.csv");
  id->dtype = Dtype::kInt64;
  for (size_t row = 0; row < id->cells.size(); ++row) {
    id->cells[row] = first + static_cast<int64_t>(row);
  }
  return absl::OkStatus();
}

absl::Status Prepare(const std::filesystem::path& raw, const std::filesystem::path& public_dir,
                     const std::filesystem::path& private_dir,
                     const std::filesystem::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  TrainTestSplitOptions options;
  options.test_size = kTestRows;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  Table& new_train = split.train;
  Table& new_test = split.test;
  RETURN_IF_ERROR(RenumberIds(new_train, 0));
  RETURN_IF_ERROR(RenumberIds(new_test, static_cast<int64_t>(new_train.num_rows())));

  // Every output is built before any is written, so a missing column leaves
  // no partial output behind. Upstream's closing checks (lengths, columns,
  // disjoint ids) hold by construction: the split keeps every column and
  // row once, and the renumbered ids are two consecutive ranges.
  ASSIGN_OR_RETURN(Table public_test, (DropColumns(new_test, {"target"})));
  ASSIGN_OR_RETURN(Table gold_submission, (SelectColumns(new_test, {"id", "target"})));
  Table sample_submission = gold_submission;
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "target", 0.5));

  for (const auto& [table, path] : {
           CsvOutput{&new_train, public_dir / "train.csv"},
           CsvOutput{&new_test, private_dir / "test.csv"},
           CsvOutput{&public_test, public_dir / "test.csv"},
           CsvOutput{&gold_submission, private_dir / "gold_submission.csv"},
           CsvOutput{&sample_submission, public_dir / "sample_submission.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
