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
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "base/typed_csv_writer.h"
#include "base/typed_table.h"
#include "competitions/common/preparer.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

constexpr int64_t kTestRows = 100'000;

// The columns of `table` named `names`, in that order, `id` as `ids` (each
// must exist).
std::vector<const TypedColumn*> Columns(const TypedTable& table, const TypedColumn& ids,
                                        const std::vector<std::string>& names) {
  std::vector<const TypedColumn*> columns;
  for (const std::string& name : names) columns.push_back(name == "id" ? &ids : table.Find(name));
  return columns;
}

// Kaggle's train.csv is 900,000 rows x 33 columns: as a Table (~40 bytes a
// cell) it needed ~9 GiB, so it is read into typed columns (8 bytes a
// number, a view for text) and each output is written from them a slice of
// rows at a time; only the 100,000 test rows' id and target become a Table.
absl::Status Prepare(const std::filesystem::path& raw, const std::filesystem::path& public_dir,
                     const std::filesystem::path& private_dir,
                     const std::filesystem::path& /*scratch*/) {
  ASSIGN_OR_RETURN(const TypedTable old_train, ReadTypedCsvFile((raw / "train.csv").string()));
  TrainTestSplitOptions options;
  options.test_size = kTestRows;
  options.random_state = 0;
  ASSIGN_OR_RETURN(const TrainTestIndices split,
                   TrainTestSplitIndices(static_cast<int64_t>(old_train.num_rows()), options));
  // `new_train.id = np.arange(len(new_train))`, then the test rows'
  // `np.arange(len(new_train), len(new_train) + len(new_test))`: each row's
  // new id by its row in train.csv. Upstream's attribute assignment only
  // replaces an existing column (otherwise pandas sets a Python attribute and
  // the later `[["id", "target"]]` raises KeyError), so a missing `id` is an
  // error here.
  if (old_train.Find("id") == nullptr) {
    return absl::NotFoundError("column `id` not found in train.csv");
  }
  std::vector<int64_t> new_ids(old_train.num_rows());
  int64_t next_id = 0;
  for (const auto* rows : {&split.train_indices, &split.test_indices}) {
    for (const int64_t row : *rows) new_ids[static_cast<size_t>(row)] = next_id++;
  }
  const TypedColumn ids = TypedColumn::Ints("id", std::move(new_ids));

  // Every output's columns are found before any is written, so a missing
  // column leaves no partial output behind (the errors are DropColumns' and
  // SelectColumns' on the table). Upstream's closing checks (lengths,
  // columns, disjoint ids) hold by construction: the split keeps every
  // column and row once, and the renumbered ids are two consecutive ranges.
  std::vector<Column> header;
  for (const TypedColumn& c : old_train.columns()) {
    header.push_back({c.name(), c.name() == "id" ? Dtype::kInt64 : c.dtype(), {}});
  }
  const Table no_rows(std::move(header));
  ASSIGN_OR_RETURN(const Table public_test, (DropColumns(no_rows, {"target"})));
  ASSIGN_OR_RETURN(Table gold_submission, (SelectColumns(no_rows, {"id", "target"})));
  for (Column& column : gold_submission.mutable_columns()) {
    const TypedColumn& values = column.name == "id" ? ids : *old_train.Find(column.name);
    ASSIGN_OR_RETURN(Column taken, TakeRows(values, split.test_indices));
    column.cells = std::move(taken.cells);
  }
  Table sample_submission = gold_submission;
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "target", 0.5));

  const std::vector<const TypedColumn*> all = Columns(old_train, ids, no_rows.ColumnNames());
  RETURN_IF_ERROR(WriteTypedCsvRows(all, split.train_indices, (public_dir / "train.csv").string()));
  RETURN_IF_ERROR(WriteTypedCsvRows(all, split.test_indices, (private_dir / "test.csv").string()));
  RETURN_IF_ERROR(WriteTypedCsvRows(Columns(old_train, ids, public_test.ColumnNames()),
                                    split.test_indices, (public_dir / "test.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(gold_submission, (private_dir / "gold_submission.csv").string()));
  return WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string());
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
